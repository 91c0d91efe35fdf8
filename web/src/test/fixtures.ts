/** Users, permission snapshots and sessions shaped exactly as the API sends them (core contracts). */
import {
  STORAGE_KEYS,
  ownDepartmentAssignment,
  type AccessSnapshot,
  type AuthConfig,
  type MeResponse,
  type PublicUser,
  type SessionInfo,
  type SystemRoleId,
} from '@learning-hub/core';
import type { StoredSession } from '../lib/auth/session-storage';

const NAMES: Record<SystemRoleId, [string, string]> = {
  student: ['Sam', 'Student'],
  instructor: ['Ines', 'Instructor'],
  admin: ['Ada', 'Admin'],
};

export function buildUser(overrides: Partial<PublicUser> = {}): PublicUser {
  const role = (overrides.role ?? 'student') as SystemRoleId;
  const [firstname, lastname] = NAMES[role] ?? ['Test', 'User'];
  return {
    id: `user-${role}`,
    username: role,
    email: `${role}@example.com`,
    firstname,
    lastname,
    role,
    department: 'Network Engineering',
    departmentId: 'network-engineering',
    avatar: null,
    lastLogin: null,
    isActive: true,
    isDefaultPassword: false,
    mustChangePassword: false,
    isSuperAdmin: false,
    authMethod: 'local',
    ...overrides,
  };
}

/** The snapshot /me sends: the role, and department-member in the user's own department. */
export function buildAccess(user: PublicUser): AccessSnapshot {
  return {
    userId: user.id,
    role: user.role,
    isSuperAdmin: user.isSuperAdmin,
    directPermissions: [],
    customRoles: [],
    contextAssignments: user.departmentId
      ? [ownDepartmentAssignment(user.id, user.departmentId, '2025-01-01T00:00:00.000Z')].map(
          (a) => ({ ...a, roles: [...a.roles], directPermissions: [...a.directPermissions] }),
        )
      : [],
  };
}

export function buildMe(user: PublicUser, sessionId = 'session-1'): MeResponse {
  return {
    user,
    session: { id: sessionId, method: 'local', expiresAt: inHours(24) },
    access: buildAccess(user),
  };
}

export function inHours(hours: number, from = Date.now()): string {
  return new Date(from + hours * 3_600_000).toISOString();
}

export function buildSession(
  user: PublicUser,
  overrides: Partial<StoredSession> = {},
): StoredSession {
  return {
    isAuthenticated: true,
    user,
    token: `token-${user.id}`,
    expiresAt: inHours(24),
    ...overrides,
  };
}

/** Puts a session in localStorage as a previous sign-in would have. */
export function storeSession(session: StoredSession): StoredSession {
  window.localStorage.setItem(STORAGE_KEYS.session, JSON.stringify(session));
  return session;
}

export function buildSessionInfo(overrides: Partial<SessionInfo> = {}): SessionInfo {
  return {
    id: 'session-1',
    method: 'local',
    createdAt: '2025-03-01T09:00:00.000Z',
    lastUsedAt: '2025-03-01T10:30:00.000Z',
    expiresAt: '2025-03-02T09:00:00.000Z',
    ipAddress: '10.0.0.5',
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chromium',
    current: true,
    ...overrides,
  };
}

/** GET /api/auth/config as the server sends it (local sign-in only unless overridden). */
export function buildAuthConfig(overrides: Partial<AuthConfig> = {}): AuthConfig {
  return {
    methods: ['local'],
    defaultMethod: 'local',
    devMode: false,
    providers: { ldap: [], moodle: [], sso: [] },
    ...overrides,
  };
}

/** GET /api/auth/config of a server in dev mode. */
export function buildDevModeConfig(): AuthConfig {
  return buildAuthConfig({ methods: ['disabled'], defaultMethod: 'disabled', devMode: true });
}

/** A list as every list of the API answers it: the items, all on one page. */
export function listOf<T>(items: T[], pageSize = Math.max(25, items.length)) {
  return { items, total: items.length, page: 1, pageSize };
}
