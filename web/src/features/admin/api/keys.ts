/**
 * Query keys of the admin area. They sit under the signed-in user's prefix, so everything an admin
 * loaded is dropped on sign-out.
 */
import { USER_QUERY_PREFIX } from '../../../lib/auth/auth-context';

const ADMIN = [USER_QUERY_PREFIX, 'admin'] as const;

export const adminKeys = {
  all: ADMIN,
  userLists: [...ADMIN, 'user-list'] as const,
  userList: (params: object) => [...ADMIN, 'user-list', params] as const,
  users: [...ADMIN, 'users'] as const,
  user: (userId: string) => [...ADMIN, 'users', userId] as const,
  account: (userId: string) => [...ADMIN, 'users', userId, 'account'] as const,
  assignments: (userId: string) => [...ADMIN, 'users', userId, 'assignments'] as const,
  effective: (userId: string, scope: string) =>
    [...ADMIN, 'users', userId, 'effective', scope] as const,
  roles: [...ADMIN, 'roles'] as const,
  checks: (params: object) => [...ADMIN, 'checks', params] as const,
  audits: [...ADMIN, 'audit'] as const,
  audit: (params: object) => [...ADMIN, 'audit', params] as const,
  courses: (search: string) => [...ADMIN, 'courses', search] as const,
  authSettings: [...ADMIN, 'auth-settings'] as const,
  ssoTest: (testId: string) => [...ADMIN, 'sso-test', testId] as const,
  system: [...ADMIN, 'system'] as const,
  settings: [...ADMIN, 'settings'] as const,
  storage: (params: object) => [...ADMIN, 'storage', params] as const,
  jobs: [...ADMIN, 'jobs'] as const,
  jobList: (params: object) => [...ADMIN, 'jobs', params] as const,
};
