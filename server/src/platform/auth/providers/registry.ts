/**
 * The sign-in methods and providers as configured now (in the database, set at start from the
 * environment or a config file, edited by admins). Settings are validated against the contracts
 * every time they are read, so a provider saved by an older version cannot run with bad settings.
 */
import {
  AppError,
  LdapSettingsSchema,
  MoodleSettingsSchema,
  SsoSettingsSchema,
  type AuthConfig,
  type AuthMethod,
  type LdapSettings,
  type MoodleSettings,
  type ProviderMethod,
  type SsoSettings,
} from '@learning-hub/core';
import type { Db } from '../../db';
import {
  findProvider,
  getMethodStates,
  listProviders,
  SIGN_IN_METHODS,
  type SignInMethod,
  type StoredProvider,
} from '../provider-repository';

export type ResolvedProvider =
  | (StoredProvider & { method: 'ldap'; config: LdapSettings })
  | (StoredProvider & { method: 'moodle'; config: MoodleSettings })
  | (StoredProvider & { method: 'sso'; config: SsoSettings });

/** The provider with its settings validated; AppError when they are not valid. */
export function resolve(provider: StoredProvider): ResolvedProvider {
  const schema =
    provider.method === 'ldap'
      ? LdapSettingsSchema
      : provider.method === 'moodle'
        ? MoodleSettingsSchema
        : SsoSettingsSchema;
  const parsed = schema.safeParse(provider.settings);
  if (!parsed.success) {
    throw new AppError(
      'SERVICE_UNAVAILABLE',
      `The sign-in provider "${provider.id}" is not set up correctly: ${parsed.error.issues[0]?.message ?? 'invalid settings'}`,
    );
  }
  return { ...provider, config: parsed.data } as ResolvedProvider;
}

/** Which methods are on: as stored, or (never set) local on and the others on when they have a provider. */
export async function methodStates(db: Db): Promise<Record<SignInMethod, boolean>> {
  const [states, providers] = await Promise.all([getMethodStates(db), listProviders(db)]);
  const out = {} as Record<SignInMethod, boolean>;
  for (const method of SIGN_IN_METHODS) {
    out[method] =
      states[method] ??
      (method === 'local' || providers.some((p) => p.method === method && p.enabled));
  }
  return out;
}

const METHOD_NAMES: Record<ProviderMethod, string> = {
  ldap: 'Directory (LDAP)',
  moodle: 'Moodle',
  sso: 'Single sign-on',
};

/** What the sign-in page may know: the methods on, and each enabled provider's id and label. */
export async function publicAuthConfig(db: Db, devMode: boolean): Promise<AuthConfig> {
  if (devMode) {
    return {
      methods: ['disabled'],
      defaultMethod: 'disabled',
      devMode: true,
      providers: { ldap: [], moodle: [], sso: [] },
    };
  }
  const [states, providers] = await Promise.all([methodStates(db), listProviders(db)]);
  const listed = (method: ProviderMethod) =>
    states[method]
      ? providers
          .filter((p) => p.method === method && p.enabled)
          .map((p) => ({ id: p.id, label: p.label }))
      : [];
  const byMethod = { ldap: listed('ldap'), moodle: listed('moodle'), sso: listed('sso') };
  const methods: AuthMethod[] = [
    ...(states.local ? (['local'] as const) : []),
    ...(['ldap', 'moodle', 'sso'] as const).filter((m) => byMethod[m].length > 0),
  ];
  return {
    methods,
    defaultMethod: methods[0] ?? 'local',
    devMode: false,
    providers: byMethod,
  };
}

/**
 * The provider a sign-in asks for: the client may only *name* a configured provider of that
 * method (or name none: the first enabled one). Anything else — an address, a DN, an object of
 * settings — is refused with a 400.
 */
export async function providerFor(
  db: Db,
  method: ProviderMethod,
  requested: unknown,
  field: string,
): Promise<ResolvedProvider> {
  const states = await methodStates(db);
  if (!states[method]) {
    throw new AppError('AUTH_METHOD_DISABLED', `${METHOD_NAMES[method]} sign-in is not enabled`);
  }
  if (requested !== undefined && requested !== null && typeof requested !== 'string') {
    const name =
      (requested as { name?: unknown; id?: unknown }).name ?? (requested as { id?: unknown }).id;
    const keys = Object.keys(requested as object).filter((k) => k !== 'name' && k !== 'id');
    if (typeof name !== 'string' || keys.length > 0) {
      throw new AppError(
        'VALIDATION_ERROR',
        `${field} may only name a configured ${method === 'ldap' ? 'directory' : 'provider'}`,
      );
    }
    requested = name;
  }
  let stored: StoredProvider | null;
  if (typeof requested === 'string' && requested !== '') {
    stored = await findProvider(db, requested);
    if (!stored || stored.method !== method || !stored.enabled) {
      throw new AppError(
        'VALIDATION_ERROR',
        `${field} may only name a configured ${method === 'ldap' ? 'directory' : 'provider'}`,
      );
    }
  } else {
    stored = (await listProviders(db)).find((p) => p.method === method && p.enabled) ?? null;
    if (!stored)
      throw new AppError(
        'AUTH_METHOD_DISABLED',
        `No ${METHOD_NAMES[method]} provider is configured`,
      );
  }
  return resolve(stored);
}
