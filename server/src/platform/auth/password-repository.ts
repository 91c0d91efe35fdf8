/** SQL about stored password hashes that the password module itself needs. */
import type { Db } from '../db';

/**
 * Replaces a hash made before passwords were normalised with one of the normalised password
 * (see passwords.ts). Only if the hash is still the one verified: a password changed meanwhile
 * is never overwritten. The account's other fields and flags stay as they are.
 */
export async function upgradePasswordHash(
  db: Db,
  userId: string,
  verifiedHash: string,
  newHash: string,
): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ password_hash: newHash })
    .where('id', '=', userId)
    .where('password_hash', '=', verifiedHash)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
