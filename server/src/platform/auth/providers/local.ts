/**
 * Local accounts: the password is checked against the stored argon2id hash in its NFKC form (a
 * hash made before passwords were normalised is replaced at its first sign-in, see passwords.ts).
 * Unknown accounts and accounts without a local password spend the same time on a dummy
 * verification, so the answer does not tell whether an account exists. A deactivated account is
 * reported as such only to someone who knows its password.
 */
import type { Credentials } from '@learning-hub/core';
import type { Db } from '../../db';
import { upgradePasswordHash } from '../password-repository';
import { checkPassword, hashPassword, verifyAgainstDummy } from '../passwords';
import { findUserByUsername, type UserRecord } from '../user-repository';

export type LocalAuthOutcome =
  | { ok: true; user: UserRecord }
  | { ok: false; reason: 'invalid' }
  | { ok: false; reason: 'disabled'; userId: string };

export async function authenticateLocal(
  db: Db,
  credentials: Credentials,
): Promise<LocalAuthOutcome> {
  const user = await findUserByUsername(db, credentials.username);
  if (!user || !user.passwordHash || user.authMethod !== 'local') {
    await verifyAgainstDummy(credentials.password);
    return { ok: false, reason: 'invalid' };
  }
  const match = await checkPassword(user.passwordHash, credentials.password);
  if (!match) return { ok: false, reason: 'invalid' };
  if (!user.isActive) return { ok: false, reason: 'disabled', userId: user.id };
  if (match === 'legacy') {
    const upgraded = await hashPassword(credentials.password);
    await upgradePasswordHash(db, user.id, user.passwordHash, upgraded);
  }
  return { ok: true, user };
}
