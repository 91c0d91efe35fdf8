/**
 * Contracts of sign-in beyond local accounts (issue 4): the directory (LDAP), Moodle and single
 * sign-on (OpenID Connect) providers, their settings as an admin edits them, the sign-in request
 * bodies, and the step-by-step results of provider tests. Secrets are write-only: the server
 * answers whether one is set, never its value.
 */
import { z } from 'zod';
import { CONTEXT_ROLE_IDS, CUSTOM_ROLE_ID_PATTERN } from '../access';
import { LDAP_DEFAULT_PORT, LDAP_DEFAULT_USER_ATTRIBUTE } from '../constants';
import { CourseContextSchema, DepartmentContextSchema } from './access';
import { CredentialsSchema, LoginSuccessSchema, PublicUserSchema } from './auth';
import { identityCharacters, identityText } from './common';
import { PROVIDER_METHODS } from './sign-in-texts';

/** A provider's id: a short name the client may send, e.g. `corp` or `azure`. */
export const ProviderIdSchema = z
  .string()
  .min(2, 'Use 2 to 40 characters')
  .max(40, 'Use 2 to 40 characters')
  .regex(CUSTOM_ROLE_ID_PATTERN, 'Use lower-case letters, digits and hyphens, e.g. corp-ldap');

const RoleIdSchema = z.string().min(1).max(48);
const HttpUrl = z
  .url({ protocol: /^https?$/, error: 'Enter an http:// or https:// address' })
  .max(500);

/** A directory group or identity-provider group → a system (or custom) role. */
export const RoleRuleSchema = z.object({
  group: z.string().trim().min(1, 'Name the group').max(500),
  role: RoleIdSchema,
});

/** A group → context roles in a course or a department. */
export const ContextRuleSchema = z.object({
  group: z.string().trim().min(1, 'Name the group').max(500),
  context: z.discriminatedUnion('type', [DepartmentContextSchema, CourseContextSchema]),
  roles: z.array(z.enum(CONTEXT_ROLE_IDS)).min(1, 'Choose at least one role'),
});
export type ContextRule = z.infer<typeof ContextRuleSchema>;

const mappingFields = {
  /** Highest-priority role among the user's matching groups wins; none → defaultRole. */
  roleMapping: z.array(RoleRuleSchema).max(200).default([]),
  contextMapping: z.array(ContextRuleSchema).max(500).default([]),
  defaultRole: RoleIdSchema.default('student'),
  /** Refuse users who match no rule of roleMapping or contextMapping. */
  requireMappedGroup: z.boolean().default(false),
};

export const LdapSettingsSchema = z.object({
  /** Tried in order: the next one when a server cannot be reached. */
  urls: z
    .array(
      z
        .string()
        .trim()
        .regex(/^ldaps?:\/\/[^\s/]+\/?$/, 'Use ldap://host[:port] or ldaps://host[:port]'),
    )
    .min(1, 'Give at least one server')
    .max(10),
  /** Used for URLs without a port. */
  port: z.number().int().min(1).max(65535).default(LDAP_DEFAULT_PORT),
  security: z.enum(['none', 'ldaps', 'starttls']).default('none'),
  /** Verify the server's certificate (LDAPS, StartTLS). */
  tlsRejectUnauthorized: z.boolean().default(true),
  /** Service account that searches for users; empty for an anonymous search. */
  bindDn: z.string().trim().max(500).default(''),
  userSearchBases: z.array(z.string().trim().min(1).max(500)).min(1, 'Give a search base').max(10),
  /** Extra filter the user entry must match, e.g. (objectClass=inetOrgPerson). */
  userObjectFilter: z.string().trim().max(500).default('(objectClass=inetOrgPerson)'),
  userAttribute: z.string().trim().min(1).max(100).default(LDAP_DEFAULT_USER_ATTRIBUTE),
  attributes: z
    .object({
      email: z.string().max(100).default('mail'),
      firstname: z.string().max(100).default('givenName'),
      lastname: z.string().max(100).default('sn'),
      /** Attribute naming the user's department (a department is created when new). */
      department: z.string().max(100).default(''),
    })
    .default({ email: 'mail', firstname: 'givenName', lastname: 'sn', department: '' }),
  groups: z
    .object({
      /** memberOf: read the user's memberOf; the others search group entries. */
      mode: z.enum(['memberOf', 'groupOfNames', 'groupOfUniqueNames']).default('memberOf'),
      searchBase: z.string().trim().max(500).default(''),
      /** The attribute that names a group in the mapping rules (cn), or `dn`. */
      nameAttribute: z.string().trim().min(1).max(100).default('cn'),
    })
    .default({ mode: 'memberOf', searchBase: '', nameAttribute: 'cn' }),
  timeoutMs: z.number().int().min(500).max(60_000).default(5000),
  ...mappingFields,
});
export type LdapSettings = z.infer<typeof LdapSettingsSchema>;

export const MoodleSettingsSchema = z.object({
  siteUrl: HttpUrl,
  /** Moodle web-service short name. */
  service: z.string().trim().min(1).max(100).default('moodle_mobile_app'),
  /** Role for Moodle site administrators (userissiteadmin); empty: no special role. */
  siteAdminRole: z.string().max(48).default(''),
  defaultRole: RoleIdSchema.default('student'),
  timeoutMs: z.number().int().min(500).max(60_000).default(8000),
});
export type MoodleSettings = z.infer<typeof MoodleSettingsSchema>;

export const SsoSettingsSchema = z.object({
  issuer: HttpUrl,
  clientId: z.string().trim().min(1).max(300),
  scopes: z.array(z.string().min(1).max(100)).max(20).default(['openid', 'profile', 'email']),
  usernameClaim: z.string().min(1).max(100).default('preferred_username'),
  /** Claim carrying the user's groups (mapped like directory groups). */
  groupsClaim: z.string().max(100).default('groups'),
  departmentClaim: z.string().max(100).default(''),
  /** Allow an http:// issuer (development and tests only). */
  allowInsecureHttp: z.boolean().default(false),
  ...mappingFields,
});
export type SsoSettings = z.infer<typeof SsoSettingsSchema>;

/** Secrets per method: the LDAP service password, the OIDC client secret. */
export const ProviderSecretsSchema = z.object({
  bindPassword: z.string().max(1000).optional(),
  clientSecret: z.string().max(1000).optional(),
});

/** A provider as an admin creates or edits it (secrets: absent = keep, "" = remove). */
export const ProviderInputSchema = z.discriminatedUnion('method', [
  z.strictObject({
    method: z.literal('ldap'),
    id: ProviderIdSchema,
    label: identityText('Label', { max: 80 }),
    enabled: z.boolean().default(true),
    settings: LdapSettingsSchema,
    secrets: z.strictObject({ bindPassword: z.string().max(1000).optional() }).default({}),
  }),
  z.strictObject({
    method: z.literal('moodle'),
    id: ProviderIdSchema,
    label: identityText('Label', { max: 80 }),
    enabled: z.boolean().default(true),
    settings: MoodleSettingsSchema,
    secrets: z.strictObject({}).default({}),
  }),
  z.strictObject({
    method: z.literal('sso'),
    id: ProviderIdSchema,
    label: identityText('Label', { max: 80 }),
    enabled: z.boolean().default(true),
    settings: SsoSettingsSchema,
    secrets: z.strictObject({ clientSecret: z.string().max(1000).optional() }).default({}),
  }),
]);
export type ProviderInput = z.infer<typeof ProviderInputSchema>;

/** A provider as the admin API shows it: which secrets are set, never their values. */
export const ProviderViewSchema = z.object({
  id: z.string(),
  method: z.enum(PROVIDER_METHODS),
  label: z.string(),
  enabled: z.boolean(),
  settings: z.record(z.string(), z.unknown()),
  secretsSet: z.object({ bindPassword: z.boolean(), clientSecret: z.boolean() }),
  updatedAt: z.string(),
});
export type ProviderView = z.infer<typeof ProviderViewSchema>;

export const AuthSettingsSchema = z.object({
  /** Which sign-in methods are on (providers of a method only count while it is on). */
  methods: z.object({
    local: z.boolean(),
    ldap: z.boolean(),
    moodle: z.boolean(),
    sso: z.boolean(),
  }),
  /** Dev mode is a start-up setting, never an admin toggle. */
  devMode: z.boolean(),
  /** The callback address identity providers must send people back to (from PUBLIC_URL). */
  ssoRedirectUri: z.string(),
  providers: z.array(ProviderViewSchema),
});
export type AuthSettings = z.infer<typeof AuthSettingsSchema>;

export const MethodToggleSchema = z.strictObject({ enabled: z.boolean() });

/** POST /api/auth/ldap — `ldapConfig` may only name a configured directory. */
export const LdapLoginSchema = z.strictObject({
  credentials: CredentialsSchema,
  ldapConfig: z.unknown().optional(),
});
/** POST /api/auth/moodle. */
export const MoodleLoginSchema = z.strictObject({
  credentials: CredentialsSchema,
  moodleConfig: z.unknown().optional(),
});
/** POST /api/auth/sso — `credentials` is the one-time code from the callback. */
export const SsoLoginSchema = z.strictObject({
  credentials: z.string().min(1, 'The sign-in code is missing').max(200),
  ssoConfig: z.unknown(),
});

/** Provider sign-ins answer like local ones, plus the spec's `message` on failure. */
export const ProviderLoginSuccessSchema = LoginSuccessSchema;
export const ProviderLoginFailureSchema = z.object({
  success: z.literal(false),
  message: z.string(),
  error: z.string(),
  code: z.string(),
  retryAfter: z.number().optional(),
});

/** One step of a provider test: what was done, how long it took, what came back or failed. */
export const TestStepSchema = z.object({
  name: z.string(),
  ok: z.boolean(),
  ms: z.number(),
  detail: z.string().nullable(),
  error: z.string().nullable(),
});
export type TestStep = z.infer<typeof TestStepSchema>;

/** A dry-run sign-in: the steps, and the user and access it would give (nothing is stored). */
export const SignInTestResultSchema = z.object({
  ok: z.boolean(),
  provider: z.string(),
  method: z.enum(PROVIDER_METHODS),
  steps: z.array(TestStepSchema),
  /** The user as it would be created or updated. */
  user: PublicUserSchema.partial().nullable(),
  role: z.string().nullable(),
  /** Context roles that would be mapped: the context key, its name when it exists, the roles. */
  assignments: z.array(
    z.object({ context: z.string(), label: z.string().nullable(), roles: z.array(z.string()) }),
  ),
  groups: z.array(z.string()),
  claims: z.record(z.string(), z.unknown()).nullable(),
});
export type SignInTestResult = z.infer<typeof SignInTestResultSchema>;

export const SignInTestRequestSchema = z.strictObject({
  provider: z.string().min(1).max(40),
  username: z.string().min(1).max(256).pipe(identityCharacters('Username')),
  password: z.string().max(4096),
});

export const SsoTestStartSchema = z.strictObject({ provider: z.string().min(1).max(40) });
export const SsoTestStartResponseSchema = z.object({
  testId: z.string(),
  authorizationUrl: z.string(),
});

export const ConnectionTestResultSchema = z.object({
  ok: z.boolean(),
  steps: z.array(TestStepSchema),
});
