/**
 * The provider form's values and their translation to core's ProviderInput (validated with
 * core's ProviderInputSchema, whose issues are mapped back onto the form's fields). Lists an admin
 * types (server addresses, search bases, scopes) are text; secrets are write-only: kept, replaced
 * or removed, never shown.
 */
import {
  LDAP_DEFAULT_PORT,
  LDAP_DEFAULT_USER_ATTRIBUTE,
  LdapSettingsSchema,
  MoodleSettingsSchema,
  ProviderInputSchema,
  SsoSettingsSchema,
  type ContextRoleId,
  type ProviderInput,
  type ProviderMethod,
  type ProviderView,
} from '@learning-hub/core';
import { randomId } from '@mantine/hooks';
import { fieldErrors } from '../../../lib/form-errors';

export const PROVIDER_METHOD_LABELS: Readonly<Record<ProviderMethod, string>> = {
  ldap: 'Directory (LDAP)',
  moodle: 'Moodle',
  sso: 'Single sign-on (OpenID Connect)',
};

export interface RoleRuleValues {
  key: string;
  group: string;
  role: string | null;
}

export interface ContextRuleValues {
  key: string;
  group: string;
  type: 'department' | 'course';
  departmentId: string | null;
  courseId: string | null;
  roles: string[];
}

export interface MappingValues {
  roleMapping: RoleRuleValues[];
  contextMapping: ContextRuleValues[];
  defaultRole: string | null;
  requireMappedGroup: boolean;
}

type NumberValue = number | string;

export interface LdapValues {
  /** One server address per line. */
  urls: string;
  port: NumberValue;
  security: 'none' | 'ldaps' | 'starttls';
  tlsRejectUnauthorized: boolean;
  bindDn: string;
  /** One search base per line. */
  userSearchBases: string;
  userObjectFilter: string;
  userAttribute: string;
  attributes: { email: string; firstname: string; lastname: string; department: string };
  groups: {
    mode: 'memberOf' | 'groupOfNames' | 'groupOfUniqueNames';
    searchBase: string;
    nameAttribute: string;
  };
  timeoutMs: NumberValue;
}

export interface MoodleValues {
  siteUrl: string;
  service: string;
  siteAdminRole: string | null;
  defaultRole: string | null;
  timeoutMs: NumberValue;
}

export interface SsoValues {
  issuer: string;
  clientId: string;
  /** Space-separated, as OpenID Connect writes them. */
  scopes: string;
  usernameClaim: string;
  groupsClaim: string;
  departmentClaim: string;
  allowInsecureHttp: boolean;
}

/** What happens to the stored secret on save. */
export type SecretMode = 'keep' | 'replace' | 'remove';

export interface ProviderFormValues {
  method: ProviderMethod;
  id: string;
  label: string;
  enabled: boolean;
  ldap: LdapValues;
  moodle: MoodleValues;
  sso: SsoValues;
  /** Group → role and group → context-role rules (directory and single sign-on). */
  mapping: MappingValues;
  secret: { mode: SecretMode; value: string };
}

/** The secret each method has, if any. */
export const SECRET_FIELDS: Readonly<
  Record<ProviderMethod, 'bindPassword' | 'clientSecret' | null>
> = {
  ldap: 'bindPassword',
  moodle: null,
  sso: 'clientSecret',
};

export const SECRET_REQUIRED_MESSAGE = 'Enter the new value, or keep the stored one';

const LDAP_DEFAULTS: LdapValues = {
  urls: '',
  port: LDAP_DEFAULT_PORT,
  security: 'none',
  tlsRejectUnauthorized: true,
  bindDn: '',
  userSearchBases: '',
  userObjectFilter: '(objectClass=inetOrgPerson)',
  userAttribute: LDAP_DEFAULT_USER_ATTRIBUTE,
  attributes: { email: 'mail', firstname: 'givenName', lastname: 'sn', department: '' },
  groups: { mode: 'memberOf', searchBase: '', nameAttribute: 'cn' },
  timeoutMs: 5000,
};

const MOODLE_DEFAULTS: MoodleValues = {
  siteUrl: '',
  service: 'moodle_mobile_app',
  siteAdminRole: null,
  defaultRole: 'student',
  timeoutMs: 8000,
};

const SSO_DEFAULTS: SsoValues = {
  issuer: '',
  clientId: '',
  scopes: 'openid profile email',
  usernameClaim: 'preferred_username',
  groupsClaim: 'groups',
  departmentClaim: '',
  allowInsecureHttp: false,
};

const MAPPING_DEFAULTS: MappingValues = {
  roleMapping: [],
  contextMapping: [],
  defaultRole: 'student',
  requireMappedGroup: false,
};

export function newRoleRule(): RoleRuleValues {
  return { key: randomId(), group: '', role: null };
}

export function newContextRule(): ContextRuleValues {
  return {
    key: randomId(),
    group: '',
    type: 'department',
    departmentId: null,
    courseId: null,
    roles: [],
  };
}

type MappingSettings = {
  roleMapping: { group: string; role: string }[];
  contextMapping: {
    group: string;
    context: { type: 'department'; departmentId: string } | { type: 'course'; courseId: string };
    roles: readonly ContextRoleId[] | readonly string[];
  }[];
  defaultRole: string;
  requireMappedGroup: boolean;
};

function mappingValues(settings: MappingSettings): MappingValues {
  return {
    roleMapping: settings.roleMapping.map((r) => ({ key: randomId(), ...r })),
    contextMapping: settings.contextMapping.map((r) => ({
      key: randomId(),
      group: r.group,
      type: r.context.type,
      departmentId: r.context.type === 'department' ? r.context.departmentId : null,
      courseId: r.context.type === 'course' ? r.context.courseId : null,
      roles: [...r.roles],
    })),
    defaultRole: settings.defaultRole,
    requireMappedGroup: settings.requireMappedGroup,
  };
}

/** The form's values for a new provider of a method, or for editing a stored one. */
export function initialProviderValues(
  method: ProviderMethod,
  view: ProviderView | null = null,
): ProviderFormValues {
  const values: ProviderFormValues = {
    method,
    id: view?.id ?? '',
    label: view?.label ?? '',
    enabled: view?.enabled ?? true,
    ldap: structuredClone(LDAP_DEFAULTS),
    moodle: { ...MOODLE_DEFAULTS },
    sso: { ...SSO_DEFAULTS },
    mapping: { ...MAPPING_DEFAULTS },
    secret: { mode: view ? 'keep' : 'replace', value: '' },
  };
  if (!view) return values;
  if (method === 'ldap') {
    const parsed = LdapSettingsSchema.safeParse(view.settings);
    if (parsed.success) {
      const s = parsed.data;
      values.ldap = {
        urls: s.urls.join('\n'),
        port: s.port,
        security: s.security,
        tlsRejectUnauthorized: s.tlsRejectUnauthorized,
        bindDn: s.bindDn,
        userSearchBases: s.userSearchBases.join('\n'),
        userObjectFilter: s.userObjectFilter,
        userAttribute: s.userAttribute,
        attributes: { ...s.attributes },
        groups: { ...s.groups },
        timeoutMs: s.timeoutMs,
      };
      values.mapping = mappingValues(s);
    }
  } else if (method === 'moodle') {
    const parsed = MoodleSettingsSchema.safeParse(view.settings);
    if (parsed.success) {
      const s = parsed.data;
      values.moodle = {
        siteUrl: s.siteUrl,
        service: s.service,
        siteAdminRole: s.siteAdminRole || null,
        defaultRole: s.defaultRole,
        timeoutMs: s.timeoutMs,
      };
    }
  } else {
    const parsed = SsoSettingsSchema.safeParse(view.settings);
    if (parsed.success) {
      const s = parsed.data;
      values.sso = {
        issuer: s.issuer,
        clientId: s.clientId,
        scopes: s.scopes.join(' '),
        usernameClaim: s.usernameClaim,
        groupsClaim: s.groupsClaim,
        departmentClaim: s.departmentClaim,
        allowInsecureHttp: s.allowInsecureHttp,
      };
      values.mapping = mappingValues(s);
    }
  }
  return values;
}

/** Non-empty lines, trimmed. */
export function lines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/** Words separated by spaces or commas. */
export function words(text: string): string[] {
  return text.split(/[\s,]+/).filter((word) => word !== '');
}

/** A number field's value; empty gives undefined (the schema's default applies). */
function numberOf(value: NumberValue): number | undefined {
  if (value === '' || value === null || value === undefined) return undefined;
  return typeof value === 'number' ? value : Number(value);
}

function mappingInput(mapping: MappingValues) {
  return {
    roleMapping: mapping.roleMapping.map((r) => ({ group: r.group, role: r.role ?? '' })),
    contextMapping: mapping.contextMapping.map((r) => ({
      group: r.group,
      context:
        r.type === 'course'
          ? { type: 'course' as const, courseId: r.courseId ?? '' }
          : { type: 'department' as const, departmentId: r.departmentId ?? '' },
      roles: r.roles,
    })),
    defaultRole: mapping.defaultRole ?? '',
    requireMappedGroup: mapping.requireMappedGroup,
  };
}

function secretsInput(values: ProviderFormValues): Record<string, string> {
  const field = SECRET_FIELDS[values.method];
  if (!field) return {};
  switch (values.secret.mode) {
    case 'keep':
      return {};
    case 'remove':
      return { [field]: '' };
    case 'replace':
      // A new provider without a secret: nothing to send.
      return values.secret.value === '' ? {} : { [field]: values.secret.value };
  }
}

/** The request body the form's values make (not yet validated). */
export function toProviderInput(values: ProviderFormValues): Record<string, unknown> {
  const base = {
    method: values.method,
    id: values.id.trim(),
    label: values.label,
    enabled: values.enabled,
    secrets: secretsInput(values),
  };
  if (values.method === 'ldap') {
    const l = values.ldap;
    return {
      ...base,
      settings: {
        urls: lines(l.urls),
        port: numberOf(l.port),
        security: l.security,
        tlsRejectUnauthorized: l.tlsRejectUnauthorized,
        bindDn: l.bindDn,
        userSearchBases: lines(l.userSearchBases),
        userObjectFilter: l.userObjectFilter,
        userAttribute: l.userAttribute,
        attributes: { ...l.attributes },
        groups: { ...l.groups },
        timeoutMs: numberOf(l.timeoutMs),
        ...mappingInput(values.mapping),
      },
    };
  }
  if (values.method === 'moodle') {
    const m = values.moodle;
    return {
      ...base,
      settings: {
        siteUrl: m.siteUrl.trim(),
        service: m.service,
        siteAdminRole: m.siteAdminRole ?? '',
        defaultRole: m.defaultRole ?? '',
        timeoutMs: numberOf(m.timeoutMs),
      },
    };
  }
  const s = values.sso;
  return {
    ...base,
    settings: {
      issuer: s.issuer.trim(),
      clientId: s.clientId,
      scopes: words(s.scopes),
      usernameClaim: s.usernameClaim,
      groupsClaim: s.groupsClaim,
      departmentClaim: s.departmentClaim,
      allowInsecureHttp: s.allowInsecureHttp,
      ...mappingInput(values.mapping),
    },
  };
}

const TEXT_LISTS = new Set(['urls', 'userSearchBases', 'scopes']);
const MAPPING_FIELDS = new Set([
  'roleMapping',
  'contextMapping',
  'defaultRole',
  'requireMappedGroup',
]);

/** The form field an issue of ProviderInputSchema belongs to. */
export function fieldOfIssue(method: ProviderMethod, path: readonly PropertyKey[]): string {
  const [head, ...rest] = path.map(String);
  if (head === 'secrets') return 'secret.value';
  if (head !== 'settings' || rest.length === 0) return head ?? 'id';
  const [field, ...more] = rest as [string, ...string[]];
  if (TEXT_LISTS.has(field)) return `${method}.${field}`;
  if (method !== 'moodle' && MAPPING_FIELDS.has(field)) {
    if (field === 'contextMapping' && more[1] === 'context') {
      const rule = more[0];
      const leaf = more[2] === 'type' || more[2] === undefined ? 'departmentId' : more[2];
      return `mapping.contextMapping.${rule}.${leaf}`;
    }
    return ['mapping', field, ...more].join('.');
  }
  return [method, field, ...more].join('.');
}

/** zod's generic wording for an empty required text or a non-number, in plain words. */
export function friendlyMessage(message: string): string {
  if (message.startsWith('Too small: expected string to have >=1')) return 'Required';
  if (message.startsWith('Invalid input: expected number')) return 'Enter a number';
  return message;
}

export type ProviderValidation =
  { success: true; input: ProviderInput } | { success: false; errors: Record<string, string> };

/** Validates the values with core's ProviderInputSchema (plus the secret being replaced). */
export function validateProvider(values: ProviderFormValues, editing: boolean): ProviderValidation {
  const errors: Record<string, string> = {};
  if (
    editing &&
    SECRET_FIELDS[values.method] &&
    values.secret.mode === 'replace' &&
    values.secret.value === ''
  ) {
    errors['secret.value'] = SECRET_REQUIRED_MESSAGE;
  }
  const parsed = ProviderInputSchema.safeParse(toProviderInput(values));
  if (!parsed.success) {
    const found = fieldErrors(parsed.error, (path) => fieldOfIssue(values.method, path));
    for (const [field, message] of Object.entries(found))
      errors[field] ??= friendlyMessage(message);
  }
  if (Object.keys(errors).length > 0 || !parsed.success) return { success: false, errors };
  return { success: true, input: parsed.data };
}
