/**
 * Dev mode's built-in developer admin (spec §4: "always treated as authenticated as a built-in
 * developer admin user"). Created on first use; it has no password and cannot sign in any other
 * way. Dev mode itself is refused when NODE_ENV=production (config.ts).
 */
import type { Db } from '../db';
import { createUser, findUserByUsername, type UserRecord } from './user-repository';

export const DEV_USERNAME = 'developer';

export async function ensureDevUser(db: Db, now: () => number): Promise<UserRecord> {
  const existing = await findUserByUsername(db, DEV_USERNAME);
  if (existing) return existing;
  return createUser(
    db,
    {
      username: DEV_USERNAME,
      firstname: 'Developer',
      lastname: 'Admin',
      email: null,
      role: 'admin',
      passwordHash: null,
      authMethod: 'disabled',
    },
    new Date(now()).toISOString(),
  );
}
