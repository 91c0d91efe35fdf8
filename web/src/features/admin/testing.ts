/** Admin API answers shaped exactly as the server sends them (core contracts), for the admin tests. */
import {
  LdapSettingsSchema,
  MoodleSettingsSchema,
  RoleRegistry,
  SsoSettingsSchema,
  SYSTEM_ROLES,
  type AdminUser,
  type AssignmentView,
  type AuthSettings,
  type ProviderView,
  type PublicUser,
  type Role,
  type SignInTestResult,
  type TestStep,
} from '@learning-hub/core';
import { buildUser, listOf } from '../../test/fixtures';
import type { RoleWithUsage } from './api/roles-api';

export function buildAdminUser(
  overrides: Partial<AdminUser> & { role?: PublicUser['role'] } = {},
): AdminUser {
  return {
    ...buildUser({ role: overrides.role ?? 'student' }),
    createdAt: '2025-01-01T00:00:00.000Z',
    directPermissions: [],
    assignmentCount: 0,
    ...overrides,
  };
}

/** GET /api/admin/roles: the system roles (and any custom ones given), with usage. */
export function buildRoles(custom: Role[] = [], userCounts: Record<string, number> = {}) {
  const registry = new RoleRegistry(custom);
  const roles: RoleWithUsage[] = registry.all().map((r) => ({
    ...r,
    permissions: [...r.permissions],
    allPermissions: [...registry.permissionsOf(r.id)],
    userCount: userCounts[r.id] ?? 0,
  }));
  return listOf(roles);
}

export function buildCustomRole(overrides: Partial<Role> = {}): Role {
  return {
    id: 'field-trainer',
    name: 'field-trainer',
    displayName: 'Field trainer',
    description: 'Trains field crews.',
    permissions: ['analytics.export'],
    inherits: 'instructor',
    context: 'global',
    isSystemRole: false,
    priority: 20,
    ...overrides,
  };
}

export const DEPARTMENTS = {
  ...listOf([
    {
      id: 'network-engineering',
      name: 'Network Engineering',
      description: '',
      memberCount: 1,
      revision: 1,
    },
    {
      id: 'field-operations',
      name: 'Field Operations',
      description: '',
      memberCount: 1,
      revision: 1,
    },
    {
      id: 'customer-support',
      name: 'Customer Support',
      description: '',
      memberCount: 1,
      revision: 1,
    },
  ]),
};

export const COURSES = {
  items: [
    {
      id: 'fiber-splicing-101',
      code: 'FO-101',
      title: 'Fiber Splicing Fundamentals',
      description: '',
      departmentId: 'field-operations',
      departmentName: 'Field Operations',
    },
    {
      id: 'otdr-trace-analysis',
      code: 'FO-210',
      title: 'OTDR Testing and Trace Analysis',
      description: '',
      departmentId: 'field-operations',
      departmentName: 'Field Operations',
    },
  ],
  total: 2,
  page: 1,
  pageSize: 50,
};

export function buildAssignment(overrides: Partial<AssignmentView> = {}): AssignmentView {
  return {
    userId: 'user-student',
    context: { type: 'course', courseId: 'fiber-splicing-101' },
    roles: ['course-student'],
    directPermissions: [],
    assignedBy: 'user-admin',
    assignedAt: '2025-01-01T00:00:00.000Z',
    expiresAt: null,
    isActive: true,
    contextKey: 'course:fiber-splicing-101',
    contextLabel: 'FO-101 · Fiber Splicing Fundamentals',
    derived: false,
    inForce: true,
    ...overrides,
  };
}

export function ownDepartment(userId = 'user-student'): AssignmentView {
  return buildAssignment({
    userId,
    context: { type: 'department', departmentId: 'network-engineering' },
    roles: ['department-member'],
    assignedBy: 'system',
    contextKey: 'department:network-engineering',
    contextLabel: 'Network Engineering',
    derived: true,
  });
}

/** The system role names, for assertions. */
export const ROLE_NAMES = Object.fromEntries(
  Object.values(SYSTEM_ROLES).map((r) => [r.id, r.displayName]),
);

/** Provider settings as the server stores them: the admin's input with the schema's defaults. */
const PROVIDER_SETTINGS: Record<ProviderView['method'], () => Record<string, unknown>> = {
  ldap: () =>
    LdapSettingsSchema.parse({
      urls: ['ldap://ldap.example.com:389'],
      bindDn: 'cn=reader,dc=example,dc=com',
      userSearchBases: ['ou=people,dc=example,dc=com'],
      roleMapping: [{ group: 'lms-instructors', role: 'instructor' }],
    }),
  moodle: () => MoodleSettingsSchema.parse({ siteUrl: 'https://moodle.example.com' }),
  sso: () =>
    SsoSettingsSchema.parse({ issuer: 'https://id.example.com/realms/corp', clientId: 'lms' }),
};

/** A provider as GET /api/admin/auth/settings lists it (an LDAP directory unless overridden). */
export function buildProvider(overrides: Partial<ProviderView> = {}): ProviderView {
  const method = overrides.method ?? 'ldap';
  return {
    id: `corp-${method}`,
    method,
    label: { ldap: 'Corporate directory', moodle: 'Campus Moodle', sso: 'Company SSO' }[method],
    enabled: true,
    settings: PROVIDER_SETTINGS[method](),
    secretsSet: { bindPassword: false, clientSecret: false },
    updatedAt: '2025-03-01T09:00:00.000Z',
    ...overrides,
  };
}

/** GET /api/admin/auth/settings (also the answer of PUT /api/admin/auth/methods/:method). */
export function buildAuthSettings(overrides: Partial<AuthSettings> = {}): AuthSettings {
  return {
    methods: { local: true, ldap: false, moodle: false, sso: false },
    devMode: false,
    ssoRedirectUri: 'https://lms.example.com/api/auth/sso/callback',
    providers: [],
    ...overrides,
  };
}

export function buildTestStep(overrides: Partial<TestStep> = {}): TestStep {
  return { name: 'Connect', ok: true, ms: 12, detail: null, error: null, ...overrides };
}

/** POST /api/admin/auth/test (and GET /api/admin/auth/test/sso/:id once done): a dry-run result. */
export function buildSignInTestResult(overrides: Partial<SignInTestResult> = {}): SignInTestResult {
  return {
    ok: true,
    provider: 'corp-ldap',
    method: 'ldap',
    steps: [],
    user: null,
    role: null,
    assignments: [],
    groups: [],
    claims: null,
    ...overrides,
  };
}
