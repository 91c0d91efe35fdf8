/**
 * Password hashing (argon2id, m=19456 KiB, t=2, p=1 as OWASP recommends) and the policy for new
 * passwords (NIST SP 800-63B, OWASP ASVS V6). The rules themselves are in core
 * (core/src/contracts/password-policy.ts), so the forms show the same refusals; this module adds
 * the list of the 3,000 most common passwords and is what every way of setting a password uses:
 * changing one's own password, and the operator's command line (create, set-password).
 *
 * Normalisation: a password is hashed and verified in its Unicode compatibility form (NFKC), so
 * the same password typed on another keyboard or input method (full-width letters, ligatures,
 * composed or decomposed accents) still matches. Hashes stored before this rule were made of the
 * password exactly as typed; for a password whose NFKC form differs, verification falls back to
 * the typed form, and a successful sign-in through that fallback replaces the hash with one of
 * the normalised form (see `LegacyMatch` and local.ts), so the fallback is used at most once per
 * account. For a hash of a normalised password the fallback can never match, because the typed
 * form of a password that changes under NFKC is never equal to an NFKC form.
 */
import { readFileSync } from 'node:fs';
import { hash, verify, type Algorithm } from '@node-rs/argon2';
import {
  normalisePassword,
  PASSWORD_MESSAGES,
  passwordBaseWords,
  passwordRuleProblem,
  type PasswordCheckOptions,
  type PasswordOwner,
} from '@learning-hub/core';

export { PASSWORD_MESSAGES, type PasswordOwner };

const ARGON2ID = 2 as Algorithm; // Algorithm.Argon2id (a const enum, not importable as a value)

/** The cost of a new hash: memory in KiB, passes, lanes. */
export interface PasswordHashCost {
  readonly memoryCost: number;
  readonly timeCost: number;
  readonly parallelism: number;
}

/** OWASP's argon2id parameters (m = 19 MiB, t = 2, p = 1): what every start of the server uses. */
export const OWASP_HASH_COST: PasswordHashCost = Object.freeze({
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
});

let hashCost: PasswordHashCost = OWASP_HASH_COST;

/**
 * For test set-ups only (server/src/test/setup.ts): hashes made from now on in this process use
 * `cost`. Nothing in the server calls it and no setting reaches it, so no deployment can run on
 * a cheaper cost; a hash records its own parameters, so verification follows whatever made it.
 * Returns the cost it replaced.
 */
export function setPasswordHashCostForTests(cost: PasswordHashCost): PasswordHashCost {
  const previous = hashCost;
  hashCost = cost;
  return previous;
}

/** Hashes a password in its NFKC form. */
export function hashPassword(password: string): Promise<string> {
  return hash(normalisePassword(password), { algorithm: ARGON2ID, ...hashCost });
}

async function verifyExactly(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/**
 * How a password matched its hash: `match` (the NFKC form, as hashes are made now), `legacy`
 * (only the form as typed: a hash made before normalisation, to be replaced), or false.
 */
export type PasswordMatch = 'match' | 'legacy' | false;

/** Checks a password against a stored hash; false (never a throw) for a malformed hash. */
export async function checkPassword(
  passwordHash: string,
  password: string,
): Promise<PasswordMatch> {
  const normalised = normalisePassword(password);
  if (await verifyExactly(passwordHash, normalised)) return 'match';
  if (normalised !== password && (await verifyExactly(passwordHash, password))) return 'legacy';
  return false;
}

/** Whether the password matches the hash, in its NFKC form or (older hashes) as typed. */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  return (await checkPassword(passwordHash, password)) !== false;
}

/** The dummy hash of each cost (one in a server; tests switch costs). */
const dummyHashes = new Map<PasswordHashCost, Promise<string>>();

/**
 * Spends the same time as a real verification, for unknown accounts, so a wrong username and a
 * wrong password cannot be told apart by timing.
 */
export async function verifyAgainstDummy(password: string): Promise<false> {
  let dummy = dummyHashes.get(hashCost);
  if (!dummy) {
    dummy = hashPassword('learning-hub-timing-equaliser');
    dummyHashes.set(hashCost, dummy);
  }
  await checkPassword(await dummy, password);
  return false;
}

let commonPasswords: ReadonlySet<string> | undefined;

/** The 3,000 most common passwords (lower-cased), shipped beside this module. */
export function getCommonPasswords(): ReadonlySet<string> {
  if (!commonPasswords) {
    const text = readFileSync(new URL('./common-passwords.txt', import.meta.url), 'utf8');
    commonPasswords = new Set(
      text
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean),
    );
  }
  return commonPasswords;
}

/**
 * Why a new password is refused, or null when it is acceptable: the rules of core, then the
 * common passwords (also behind a few added digits or symbols and letter-for-digit swaps).
 */
export function passwordPolicyProblem(
  password: string,
  owner: PasswordOwner,
  options: PasswordCheckOptions = {},
): string | null {
  const problem = passwordRuleProblem(password, owner, options);
  if (problem) return problem;
  const common = getCommonPasswords();
  if (passwordBaseWords(password).some((word) => common.has(word))) {
    return PASSWORD_MESSAGES.tooCommon;
  }
  return null;
}
