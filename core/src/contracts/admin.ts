/**
 * Contracts of the admin API for users, roles and the permission model (issue 3), shared by the
 * server's validation and the admin pages.
 */
import { z } from 'zod';
import { LINK_URL_MESSAGES, normaliseAllowedHost } from '../link-url';
import {
  ALL_PERMISSION_IDS,
  CONTEXT_ROLE_IDS,
  CONTEXT_ROLES,
  CUSTOM_ROLE_ID_PATTERN,
  isSystemRoleId,
} from '../access';
import { AccessContextSchema, ContextAssignmentSchema, PermissionIdSchema } from './access';
import { PublicProviderSchema, PublicUserSchema } from './auth';
import {
  identityText,
  NamedRefSchema,
  PageQuerySchema,
  pageOf,
  pageQuery,
  personName,
  RevisionSchema,
  storableText,
} from './common';
import { CourseSchema } from './course';

const ISO = z.iso.datetime({ offset: true });

/** A Role of spec §3, with its permissions resolved through inheritance. */
export const RoleSchema = z.object({
  id: z.string(),
  name: z.string(),
  displayName: z.string(),
  description: z.string(),
  /** Permissions the role itself adds. */
  permissions: z.array(z.string()),
  inherits: z.string().nullable(),
  context: z.literal('global'),
  isSystemRole: z.boolean(),
  priority: z.number(),
});
export type RoleDto = z.infer<typeof RoleSchema>;

export const RoleWithUsageSchema = RoleSchema.extend({
  /** Every permission the role grants, inherited ones included. */
  allPermissions: z.array(z.string()),
  /** How many users hold the role. */
  userCount: z.number(),
});
/** GET /api/admin/roles: a page of roles (all of them at the default size). */
export const RoleListQuerySchema = pageQuery({ defaultSize: 200, maxSize: 200 });
export const RoleListSchema = pageOf(RoleWithUsageSchema);

const customRoleFields = {
  /** Shown wherever the role is named: identity text (no bidi or control characters, NFC). */
  displayName: identityText('Display name', { max: 80 }),
  description: z.string().trim().pipe(storableText(500, 'Description')).default(''),
  /** The system role (student or instructor) or custom role it builds on. */
  inherits: z.string().min(1, 'Choose the role it inherits from').max(48),
  /** Permissions it adds to the inherited ones. */
  permissions: z
    .array(PermissionIdSchema)
    .max(ALL_PERMISSION_IDS.length)
    .refine((ps) => new Set(ps).size === ps.length, 'Each permission only once'),
  priority: z.number().int().min(1).max(99).default(20),
};

/** A new custom role. */
export const CustomRoleCreateSchema = z.strictObject({
  id: z
    .string()
    .min(2, 'Role id must be 2 to 48 characters')
    .max(48, 'Role id must be 2 to 48 characters')
    .regex(CUSTOM_ROLE_ID_PATTERN, 'Use lower-case letters, digits and hyphens, e.g. field-trainer')
    .refine((id) => !isSystemRoleId(id) && id !== 'super_admin', 'A system role has this id'),
  ...customRoleFields,
});
export type CustomRoleCreate = z.infer<typeof CustomRoleCreateSchema>;

/** A custom role's new definition (its id does not change). */
export const CustomRoleUpdateSchema = z.strictObject(customRoleFields);
export type CustomRoleUpdate = z.infer<typeof CustomRoleUpdateSchema>;

/** A user in the admin lists. */
export const AdminUserSchema = PublicUserSchema.extend({
  createdAt: z.string(),
  /** Global direct permissions. */
  directPermissions: z.array(z.string()),
  /** Stored context assignments in force (the own-department one not counted). */
  assignmentCount: z.number(),
});
export type AdminUser = z.infer<typeof AdminUserSchema>;

export const UserListQuerySchema = PageQuerySchema.extend({
  /** Matches username, names and email, case-insensitively. */
  search: z.string().trim().pipe(storableText(100, 'Search')).optional(),
  role: z.string().max(48).optional(),
  /** Department id. */
  department: z.string().max(200).optional(),
});
export type UserListQuery = z.infer<typeof UserListQuerySchema>;

export const UserListSchema = pageOf(AdminUserSchema);

export const SetRoleSchema = z.strictObject({ role: z.string().min(1).max(48) });
export const GrantPermissionSchema = z.strictObject({ permission: PermissionIdSchema });

/** Creates or replaces the user's assignment for a context (spec §4). */
export const AssignmentInputSchema = z
  .strictObject({
    context: AccessContextSchema,
    roles: z
      .array(z.enum(CONTEXT_ROLE_IDS))
      .max(CONTEXT_ROLE_IDS.length)
      .refine((rs) => new Set(rs).size === rs.length, 'Each role only once')
      .default([]),
    directPermissions: z
      .array(PermissionIdSchema)
      .refine((ps) => new Set(ps).size === ps.length, 'Each permission only once')
      .default([]),
    /** ISO 8601 instant in the future, or null for no expiry. */
    expiresAt: ISO.nullable().default(null),
  })
  .refine((a) => a.roles.length + a.directPermissions.length > 0, {
    message: 'Give at least one role or permission',
    path: ['roles'],
  })
  .superRefine((a, ctx) => {
    for (const role of a.roles) {
      const wanted = CONTEXT_ROLES[role].context.type;
      if (a.context.type !== wanted) {
        ctx.addIssue({
          code: 'custom',
          path: ['roles'],
          message: `${CONTEXT_ROLES[role].displayName} can only be assigned in a ${wanted}`,
        });
      }
    }
  });
export type AssignmentInput = z.infer<typeof AssignmentInputSchema>;

export const AssignmentViewSchema = ContextAssignmentSchema.extend({
  /** Context key, e.g. `course:otdr-101`. */
  contextKey: z.string(),
  /** A readable name for the context (course title, department name). */
  contextLabel: z.string(),
  /** Derived from the user's record (own department): cannot be edited or removed here. */
  derived: z.boolean(),
  /** Past its expiry or switched off: kept for the record, ignored by checks. */
  inForce: z.boolean(),
});
export type AssignmentView = z.infer<typeof AssignmentViewSchema>;
/** GET /api/admin/users/:userId/assignments: a page of one user's assignments (all at the default size). */
export const AssignmentListQuerySchema = pageQuery({ defaultSize: 200, maxSize: 200 });
export const AssignmentListSchema = pageOf(AssignmentViewSchema);

/** Where an allowed permission comes from (core `Grant`). */
export const GrantSchema = z.discriminatedUnion('source', [
  z.object({ source: z.literal('admin'), roleId: z.string() }),
  z.object({ source: z.literal('role'), roleId: z.string() }),
  z.object({ source: z.literal('inherited-role'), roleId: z.string(), via: z.string() }),
  z.object({ source: z.literal('direct') }),
  z.object({
    source: z.literal('context-role'),
    context: AccessContextSchema,
    roleId: z.enum(CONTEXT_ROLE_IDS),
    expiresAt: z.string().nullable(),
  }),
  z.object({
    source: z.literal('context-direct'),
    context: AccessContextSchema,
    expiresAt: z.string().nullable(),
  }),
  z.object({
    source: z.literal('parent-context'),
    context: AccessContextSchema,
    roleId: z.enum(CONTEXT_ROLE_IDS).optional(),
    expiresAt: z.string().nullable(),
  }),
]);

/** `system` (default), `any`, or a context key such as `course:otdr-101`. */
export const ScopeParamSchema = z
  .string()
  .max(300)
  .regex(
    /^(system|any|(course|department|user):[\w.-]+|custom:[\w.-]+:[\w.-]+)$/,
    'Unknown context',
  )
  .default('system');

export const EffectivePermissionsQuerySchema = z.object({ scope: ScopeParamSchema });
/** A permission held, and each grant it comes from. */
export const PermissionGrantsSchema = z.object({
  permission: z.string(),
  grants: z.array(GrantSchema),
});

export const EffectivePermissionsSchema = z.object({
  userId: z.string(),
  role: z.string(),
  scope: z.string(),
  permissions: z.array(PermissionGrantsSchema),
});

/** Permission simulator: a permission or a page of the app, for a user, in a context. */
export const SimulateRequestSchema = z
  .strictObject({
    userId: z.string().min(1).max(200),
    /** A permission id (may be invalid: the answer says so, as the model does). */
    permission: z.string().min(1).max(100).optional(),
    /** A path of the app, e.g. `/departments/field-operations` or `/wiki/create`. */
    route: z.string().min(1).max(300).startsWith('/').optional(),
    scope: ScopeParamSchema,
  })
  .refine((r) => (r.permission === undefined) !== (r.route === undefined), {
    message: 'Give a permission or a route',
    path: ['permission'],
  });
export type SimulateRequest = z.infer<typeof SimulateRequestSchema>;

export const SimulateResponseSchema = z.object({
  allowed: z.boolean(),
  reason: z.string().nullable(),
  /** What was checked: the permissions (all/any), roles and the scope. */
  checked: z.object({
    permissions: z.array(z.string()),
    mode: z.enum(['all', 'any']),
    roles: z.array(z.string()),
    scope: z.string(),
    /** The route pattern matched, for a route. */
    route: z.string().nullable(),
  }),
  /** For each permission checked and held, where it comes from. */
  grants: z.array(PermissionGrantsSchema),
});
export type SimulateResponse = z.infer<typeof SimulateResponseSchema>;

/** The check audit (the in-memory ring of spec §6). */
export const CheckAuditQuerySchema = z.object({
  userId: z.string().max(200).optional(),
  page: PageQuerySchema.shape.page,
  /** Default 50 for one user's view, 100 for all (spec §9); the ring holds 1,000 at most. */
  pageSize: z.coerce.number().int().min(1).max(1000).optional(),
});
export const CheckAuditSchema = pageOf(
  z.object({
    id: z.string(),
    userId: z.string(),
    /** The user's username, when the user still exists. */
    username: z.string().nullable(),
    action: z.literal('checked'),
    permission: z.string(),
    context: z.string(),
    timestamp: z.string(),
    result: z.boolean(),
    reason: z.string().nullable(),
  }),
);

/** GET /api/admin/sign-in-failures: the latest failed sign-in attempts the server recorded. */
export const SignInFailureQuerySchema = pageQuery({ defaultSize: 5, maxSize: 100 });
export const SignInFailureSchema = z.object({
  id: z.string(),
  occurredAt: z.string(),
  /** The username typed, when the request named one. */
  username: z.string().nullable(),
  /** The sign-in method asked for (`local`, `ldap`, `moodle`, `sso`, …). */
  method: z.string().nullable(),
  /** The refusal the person was given. */
  reason: z.string().nullable(),
  /** Refused by the throttle (too many failed attempts) rather than by the method. */
  throttled: z.boolean(),
});
export type SignInFailure = z.infer<typeof SignInFailureSchema>;
export const SignInFailureListSchema = pageOf(SignInFailureSchema);
export type SignInFailureList = z.infer<typeof SignInFailureListSchema>;

/** Durable audit trail of access changes: who granted or revoked what, and when. */
export const ACCESS_AUDIT_ACTIONS = [
  'role.set',
  'permission.grant',
  'permission.revoke',
  'assignment.create',
  'assignment.replace',
  'assignment.remove',
  'custom_role.create',
  'custom_role.update',
  'custom_role.delete',
  'auth_method.set',
  'auth_provider.create',
  'auth_provider.update',
  'auth_provider.delete',
  'user.create',
  'user.update',
  'user.deactivate',
  'user.reactivate',
] as const;
export const AccessAuditQuerySchema = z.object({
  actorId: z.string().max(200).optional(),
  /** The user the change was about. */
  userId: z.string().max(200).optional(),
  action: z.enum(ACCESS_AUDIT_ACTIONS).optional(),
  from: ISO.optional(),
  to: ISO.optional(),
  page: PageQuerySchema.shape.page,
  /** Default 50 for one user's view, 100 for all (spec §9). */
  pageSize: z.coerce.number().int().min(1).max(200).optional(),
});
export const AccessAuditEntrySchema = z.object({
  id: z.string(),
  occurredAt: z.string(),
  action: z.enum(ACCESS_AUDIT_ACTIONS),
  actorId: z.string().nullable(),
  actorUsername: z.string().nullable(),
  targetUserId: z.string().nullable(),
  targetUsername: z.string().nullable(),
  roleId: z.string().nullable(),
  permission: z.string().nullable(),
  context: z.string().nullable(),
  /** Before/after values and other particulars. */
  details: z.record(z.string(), z.unknown()),
});
export type AccessAuditEntry = z.infer<typeof AccessAuditEntrySchema>;
export const AccessAuditSchema = pageOf(AccessAuditEntrySchema);

export const CourseListSchema = pageOf(CourseSchema);

/**
 * A department as lists show it. Its `id` never changes (records and assignments point at it);
 * its `slug` is its URL name (`/departments/{slug}`), which follows a rename, and former slugs
 * keep redirecting (contracts/departments.ts).
 */
export const DepartmentSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** Sanitised HTML (rich text; older plain descriptions were stored as one paragraph). */
  description: z.string(),
  memberCount: z.number(),
  /** URL name; absent from answers of older servers, where it is the id. */
  slug: z.string().optional(),
  /** Its managers in force (department-manager there). */
  managers: z.array(NamedRefSchema).default([]),
  /** When an admin archived it (null: active). Archived departments take no new members. */
  archivedAt: z.string().nullable().default(null),
  /** Its name, description and archiving: one more with each PATCH, which sends it back. */
  revision: RevisionSchema,
});
export const DepartmentListSchema = pageOf(DepartmentSchema);

// ---------------------------------------------------------------- account management

/** The role a new account gets unless the admin chooses another. */
export const NEW_USER_DEFAULT_ROLE = 'student';

/** Account fields an admin edits. For a directory, Moodle or SSO account the provider may own some. */
export const ACCOUNT_FIELDS = ['firstname', 'lastname', 'email', 'department'] as const;
export type AccountField = (typeof ACCOUNT_FIELDS)[number];

/** How the forms and messages name the account fields. */
export const ACCOUNT_FIELD_LABELS: Readonly<Record<AccountField, string>> = {
  firstname: 'First name',
  lastname: 'Last name',
  email: 'Email',
  department: 'Department',
};

/** A new username: letters and digits, plus `. _ - @` after the first character. */
export const USERNAME_PATTERN = /^[\p{L}\p{N}][\p{L}\p{N}._@-]*$/u;

const accountEmail = z.email('Enter a valid email address').max(254);

/** POST /api/admin/users: a local account with a one-time password. */
export const UserCreateSchema = z.strictObject({
  /** Stored in Unicode compatibility form (NFKC); unique regardless of case. */
  username: z
    .string()
    .trim()
    .transform((v) => v.normalize('NFKC'))
    .pipe(
      z
        .string()
        .min(2, 'Username must be 2 to 64 characters')
        .max(64, 'Username must be 2 to 64 characters')
        .regex(
          USERNAME_PATTERN,
          'Use letters, digits and . _ - @ (starting with a letter or digit)',
        ),
    ),
  firstname: personName('First name'),
  lastname: personName('Last name'),
  email: accountEmail.nullable().default(null),
  /** Department id, or null for none. */
  departmentId: z.string().min(1).max(200).nullable().default(null),
  /** System or custom role id; giving any other than the default needs the right to grant it. */
  role: z.string().min(1).max(48).default(NEW_USER_DEFAULT_ROLE),
});
export type UserCreate = z.infer<typeof UserCreateSchema>;

/** The new user, with the password they sign in with first. */
export const UserCreatedSchema = AdminUserSchema.extend({
  /** Shown once: the server keeps only its hash, and the user must change it at first sign-in. */
  oneTimePassword: z.string(),
});
export type UserCreated = z.infer<typeof UserCreatedSchema>;

/** PATCH /api/admin/users/:userId: the fields to change (provider-owned ones are refused). */
export const UserUpdateSchema = z
  .strictObject({
    firstname: personName('First name').optional(),
    lastname: personName('Last name').optional(),
    /** A new address, or null to remove it. */
    email: accountEmail.nullable().optional(),
    /** Department id, or null for none. */
    departmentId: z.string().min(1).max(200).nullable().optional(),
  })
  .refine((v) => Object.keys(v).length > 0, { message: 'Nothing to update' });
export type UserUpdate = z.infer<typeof UserUpdateSchema>;

/** PUT /api/admin/users/:userId/active: deactivate (ending every session) or reactivate. */
export const UserActiveSchema = z.strictObject({ active: z.boolean() });

/** The user as it is now, with the sessions a deactivation ended. */
export const UserActiveResultSchema = AdminUserSchema.extend({
  /** Sessions ended by a deactivation (0 for a reactivation). */
  endedSessions: z.number(),
});

/** Whether the caller may do something to an account, and why not. */
export const AbilitySchema = z.object({ allowed: z.boolean(), reason: z.string().nullable() });
export type Ability = z.infer<typeof AbilitySchema>;

/** Where an account's details come from (GET /api/auth/profile for one's own). */
export const AccountSourceSchema = z.object({
  /** The sign-in provider of a directory, Moodle or SSO account. */
  provider: PublicProviderSchema.nullable(),
  /** Fields the provider writes at every sign-in: shown read-only, refused by the server. */
  providerOwned: z.array(z.enum(ACCOUNT_FIELDS)),
});
export type AccountSource = z.infer<typeof AccountSourceSchema>;

/** GET /api/admin/users/:userId/account: how the account is managed, and what the caller may do. */
export const UserAccountSchema = AccountSourceSchema.extend({
  userId: z.string(),
  authMethod: z.string(),
  abilities: z.object({
    edit: AbilitySchema,
    deactivate: AbilitySchema,
    reactivate: AbilitySchema,
  }),
});
export type UserAccount = z.infer<typeof UserAccountSchema>;

/** Entries of the allowed internal link hosts at most, and the length of one. */
export const ALLOWED_LINK_HOSTS_MAX = 100;
const HOST_MAX = 253;

/**
 * Admin → System settings (GET/PUT /api/admin/settings, permission system.settings).
 * `allowedInternalLinkHosts`: the internal hosts a library link may go to (names or IP
 * addresses, normalised as a browser reads them; `*.corp.example` for every name under
 * corp.example). Links to other internal destinations are refused (docs/library.md, "Links").
 */
export const SystemSettingsSchema = z.object({
  allowedInternalLinkHosts: z.array(z.string()),
  updatedAt: ISO.nullable(),
  updatedBy: z.string().nullable(),
});
export type SystemSettings = z.infer<typeof SystemSettingsSchema>;

export const SystemSettingsUpdateSchema = z.strictObject({
  allowedInternalLinkHosts: z
    .array(z.string().max(HOST_MAX))
    .max(ALLOWED_LINK_HOSTS_MAX, `At most ${ALLOWED_LINK_HOSTS_MAX} hosts`)
    .superRefine((entries, ctx) => {
      entries.forEach((entry, i) => {
        if (normaliseAllowedHost(entry) === null) {
          ctx.addIssue({ code: 'custom', path: [i], message: LINK_URL_MESSAGES.badHost(entry) });
        }
      });
    })
    .transform((entries) => [
      ...new Set(entries.map((e) => normaliseAllowedHost(e)).filter((e) => e !== null)),
    ]),
});
export type SystemSettingsUpdate = z.input<typeof SystemSettingsUpdateSchema>;

/** Admin → System: what the server runs on (GET /api/admin/system, permission system.view). */
export const SystemInfoSchema = z.object({
  /** process.version of the server, e.g. "v24.21.0". */
  node: z.string(),
  /** The Node.js lines the project supports (22, 24, 26). */
  supportedNodeLines: z.array(z.number().int()),
  /** process.platform and process.arch, e.g. "linux" and "x64". */
  platform: z.string(),
  arch: z.string(),
  database: z.enum(['sqlite', 'postgres']),
  /** Seconds since the server process started. */
  uptimeSeconds: z.number().int().min(0),
  startedAt: ISO,
  /**
   * The API reference (`/api/docs`) as a link signed for the viewer's session: a page opened in a
   * new tab cannot send the bearer token. Valid for an hour or two.
   */
  apiReferenceUrl: z.string(),
});
export type SystemInfo = z.infer<typeof SystemInfoSchema>;

/** The upload limits in force (server configuration; docs/classroom.md, "Upload limits"). */
export const UploadLimitsSchema = z.object({
  /** Largest single upload, bytes (UPLOAD_MAX_BYTES). */
  maxFileBytes: z.number().int().min(0),
  /** Most bytes one person may have uploaded and not yet attached to anything. */
  maxUnattachedBytes: z.number().int().min(0),
  /** Most bytes one person may store in all (attached or not). */
  maxStoredBytes: z.number().int().min(0),
  /** At most `uploads` uploads per person within `windowSeconds`. */
  rate: z.object({ uploads: z.number().int().min(1), windowSeconds: z.number().int().min(1) }),
  /** Uploads never attached are removed this many hours after they were uploaded. */
  unattachedHours: z.number().int().min(1),
});
export type UploadLimits = z.infer<typeof UploadLimitsSchema>;

/** Admin → System → Storage: which column the list is ordered by, and which way. */
export const STORAGE_SORTS = ['stored', 'unattached'] as const;
export type StorageSort = (typeof STORAGE_SORTS)[number];

export const StorageUsageQuerySchema = PageQuerySchema.extend({
  sort: z.enum(STORAGE_SORTS).default('stored'),
  order: z.enum(['desc', 'asc']).default('desc'),
});
export type StorageUsageQuery = z.infer<typeof StorageUsageQuerySchema>;

/** One person's stored files (those they uploaded; thumbnails not counted). */
export const UserStorageSchema = z.object({
  userId: z.string(),
  username: z.string(),
  firstname: z.string(),
  lastname: z.string(),
  isActive: z.boolean(),
  files: z.number().int().min(0),
  /** Bytes of all their files. */
  storedBytes: z.number().int().min(0),
  /** Bytes of their uploads not yet attached to anything (part of storedBytes). */
  unattachedBytes: z.number().int().min(0),
});
export type UserStorage = z.infer<typeof UserStorageSchema>;

/**
 * Admin → System → Storage (GET /api/admin/storage, permission system.view): the people who store
 * files, a page at a time, ordered by bytes; the totals over everyone and the limits in force.
 */
export const StorageUsageSchema = pageOf(UserStorageSchema).extend({
  /** `total`: people with at least one stored file. */
  totals: z.object({
    files: z.number().int().min(0),
    storedBytes: z.number().int().min(0),
    unattachedBytes: z.number().int().min(0),
  }),
  limits: UploadLimitsSchema,
});
export type StorageUsage = z.infer<typeof StorageUsageSchema>;
