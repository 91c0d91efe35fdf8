/**
 * Set-up of every server test file. Passwords are hashed at a token cost here (argon2id with
 * 64 KiB and one pass instead of OWASP's 19 MiB and two): the suite creates and signs in
 * thousands of users, and the cost of a hash is not what it tests. The cost is set by this file
 * only, never by a setting a deployment could leave on; the e2e suite checks that a production
 * start hashes with OWASP's parameters, and the tests that are about the cost (the timing of
 * unknown accounts) switch back to it. See docs/testing.md.
 */
import { setPasswordHashCostForTests } from '../platform/auth/passwords';

setPasswordHashCostForTests({ memoryCost: 64, timeCost: 1, parallelism: 1 });
