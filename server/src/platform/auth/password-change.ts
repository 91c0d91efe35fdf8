import type { UserRecord } from './user-repository';

/** A user with a default password, or flagged to change it, has to change it before anything else. */
export function requiresPasswordChange(
  user: Pick<UserRecord, 'isDefaultPassword' | 'mustChangePassword'>,
): boolean {
  return user.isDefaultPassword || user.mustChangePassword;
}
