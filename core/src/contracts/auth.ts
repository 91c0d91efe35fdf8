/**
 * Contracts of the auth API (spec §7): request and response bodies, shared by the server's
 * validation and the web client's fetchers and forms.
 */
import { z } from 'zod';
import { AccessSnapshotSchema } from './access';
import { identityCharacters, pageOf, pageQuery, personName, storableText } from './common';

/** The rules for new passwords, shared by the forms and the server. */
export * from './password-policy';

/** Authentication methods (spec §4). */
export const AUTH_METHODS = ['disabled', 'local', 'ldap', 'moodle', 'sso'] as const;
export const AuthMethodSchema = z.enum(AUTH_METHODS);
export type AuthMethod = z.infer<typeof AuthMethodSchema>;

/** Login credentials: username and password, sent exactly as typed (spec §3). */
export const CredentialsSchema = z.object({
  /** The account name; looked up case-insensitively. */
  username: z
    .string({
      error: (i) => (i.input === undefined ? 'Username is required' : 'Username must be text'),
    })
    .min(1, 'Username is required')
    .max(256, 'Username is too long')
    .pipe(identityCharacters('Username')),
  /**
   * Not trimmed; the server compares its Unicode compatibility form (NFKC), as it hashes new
   * passwords (server/src/platform/auth/passwords.ts).
   */
  password: z
    .string({
      error: (i) => (i.input === undefined ? 'Password is required' : 'Password must be text'),
    })
    .min(1, 'Password is required')
    .max(4096, 'Password is too long'),
});
export type Credentials = z.infer<typeof CredentialsSchema>;

/** The user as the API returns it (spec §3, auth side and permission side). */
export const PublicUserSchema = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string().nullable(),
  firstname: z.string(),
  lastname: z.string(),
  /** System role: student, instructor or admin. */
  role: z.string(),
  /** Department name, or null. */
  department: z.string().nullable(),
  /** Department id (its URL slug), or null. */
  departmentId: z.string().nullable(),
  avatar: z.string().nullable(),
  /** ISO 8601 instant of the previous successful sign-in, or null. */
  lastLogin: z.string().nullable(),
  isActive: z.boolean(),
  isDefaultPassword: z.boolean(),
  mustChangePassword: z.boolean(),
  isSuperAdmin: z.boolean(),
  /** How the account signs in. */
  authMethod: AuthMethodSchema,
  /** Directory sign-ins: the groups and attributes read at the last sign-in (spec §3). */
  ldapGroups: z.array(z.string()).optional(),
  ldapAttributes: z.record(z.string(), z.union([z.string(), z.array(z.string())])).optional(),
  /** Moodle sign-ins: the Moodle user id (spec §3). */
  moodleId: z.number().optional(),
  /** Single sign-on: the provider signed in with (spec §3). */
  ssoProvider: z.string().optional(),
});
export type PublicUser = z.infer<typeof PublicUserSchema>;

/** Failed sign-in attempts at an account since its previous successful sign-in. */
export const FailedAttemptsSchema = z.object({
  /** How many attempts failed (wrong password, or refused while throttled). */
  count: z.number().int().positive(),
  /** ISO 8601 instant of the last of them. */
  lastAt: z.string(),
});
export type FailedAttempts = z.infer<typeof FailedAttemptsSchema>;

/** Successful sign-in (spec §7: success, user, token). */
export const LoginSuccessSchema = z.object({
  success: z.literal(true),
  user: PublicUserSchema,
  /** Opaque bearer token for `Authorization: Bearer`. */
  token: z.string(),
  /** ISO 8601 instant the session ends. */
  expiresAt: z.string(),
  /**
   * Present when attempts to sign in to this account failed since its previous successful
   * sign-in (as the server recorded them): the owner is told at once.
   */
  failedAttempts: FailedAttemptsSchema.optional(),
});
export type LoginSuccess = z.infer<typeof LoginSuccessSchema>;

/** Failed sign-in (spec §7: success false, error). */
export const LoginFailureSchema = z.object({
  success: z.literal(false),
  /** The message to show. */
  error: z.string(),
  code: z.string().optional(),
  message: z.string().optional(),
  /** Seconds to wait before trying again, when throttled. */
  retryAfter: z.number().optional(),
});
export const LoginResponseSchema = z.discriminatedUnion('success', [
  LoginSuccessSchema,
  LoginFailureSchema,
]);
export type LoginResponse = z.infer<typeof LoginResponseSchema>;

/** The auth log event of spec §3, sent by the client fire-and-forget. */
export const AUTH_LOG_EVENTS = [
  'login_attempt',
  'login_success',
  'login_failure',
  'logout',
  'logout_failure',
  'session_expired',
] as const;
export const AuthLogEventSchema = z.object({
  username: storableText(256, 'Username'),
  event: z.enum(AUTH_LOG_EVENTS),
  /** ISO 8601, as the client saw it. */
  timestamp: z.iso.datetime({ offset: true }),
  userAgent: storableText(1024, 'User agent'),
  /** Always the fixed text 'client-side' (spec §3); the server records the real address. */
  ipAddress: z.literal('client-side'),
  authMethod: AuthMethodSchema,
  error: storableText(2000, 'Error').nullish(),
});
export type AuthLogEvent = z.infer<typeof AuthLogEventSchema>;

/** Profile update: the fields a user may change on their own profile. */
export const ProfileUpdateSchema = z
  .strictObject({
    /** Names: no control or bidirectional characters, stored in NFC (see `personName`). */
    firstname: personName('First name').optional(),
    lastname: personName('Last name').optional(),
    /** A new address, or null to remove it. */
    email: z.email('Enter a valid email address').max(254).nullable().optional(),
  })
  .refine((v) => Object.keys(v).length > 0, { message: 'Nothing to update' });
export type ProfileUpdate = z.infer<typeof ProfileUpdateSchema>;

/** PUT /api/auth/profile: the user as it is now (spec §7: the client stores `user`). */
export const ProfileUpdateResponseSchema = z.object({ user: PublicUserSchema });

/** Password change: the current password and the new one. */
export const ChangePasswordSchema = z.strictObject({
  currentPassword: z.string().min(1, 'Current password is required').max(4096),
  newPassword: z.string().min(1, 'New password is required').max(4096),
});
export type ChangePassword = z.infer<typeof ChangePasswordSchema>;

export const ChangePasswordResponseSchema = z.object({
  /** How many other sessions were ended. */
  revokedSessions: z.number(),
});

/** One of the signed-in user's sessions. */
export const SessionInfoSchema = z.object({
  id: z.string(),
  method: AuthMethodSchema,
  createdAt: z.string(),
  lastUsedAt: z.string(),
  expiresAt: z.string(),
  /** The client address the server saw when the session was created. */
  ipAddress: z.string().nullable(),
  userAgent: z.string().nullable(),
  /** True for the session making this request. */
  current: z.boolean(),
});
export type SessionInfo = z.infer<typeof SessionInfoSchema>;
/** GET /api/auth/sessions: the session making the request first, then the last used first. */
export const SessionListQuerySchema = pageQuery({ defaultSize: 25, maxSize: 100 });
export const SessionListSchema = pageOf(SessionInfoSchema);

export const RevokeOthersResponseSchema = z.object({ revoked: z.number() });

/** POST /api/auth/logout: where the browser goes next, when the sign-in method says so. */
export const SignOutResultSchema = z.object({
  /** Moodle sign-ins: the Moodle site's logout page; null for every other session. */
  redirectTo: z.string().nullable(),
});
export type SignOutResult = z.infer<typeof SignOutResultSchema>;

/** GET /api/auth/me. */
export const MeResponseSchema = z.object({
  user: PublicUserSchema,
  session: z.object({ id: z.string(), method: AuthMethodSchema, expiresAt: z.string() }),
  access: AccessSnapshotSchema,
});
export type MeResponse = z.infer<typeof MeResponseSchema>;

/** GET /api/auth/config: what the sign-in page offers. */
/** A sign-in provider as the sign-in page and profiles show it: its id and label. */
export const PublicProviderSchema = z.object({ id: z.string(), label: z.string() });

export const AuthConfigSchema = z.object({
  methods: z.array(AuthMethodSchema),
  defaultMethod: AuthMethodSchema,
  devMode: z.boolean(),
  /** The configured providers of each enabled method: ids and labels only. */
  providers: z.object({
    ldap: z.array(PublicProviderSchema),
    moodle: z.array(PublicProviderSchema),
    sso: z.array(PublicProviderSchema),
  }),
});
export type AuthConfig = z.infer<typeof AuthConfigSchema>;
