/**
 * All SQL about sign-in methods, providers, single-sign-on flows and one-time codes. Secrets are
 * stored beside the settings and leave this module only towards the providers that use them.
 */
import { createHash } from 'node:crypto';
import type { ProviderMethod } from '@learning-hub/core';
import type { Db } from '../db';

export type SignInMethod = 'local' | ProviderMethod;
export const SIGN_IN_METHODS: readonly SignInMethod[] = ['local', 'ldap', 'moodle', 'sso'];

export interface StoredProvider {
  id: string;
  method: ProviderMethod;
  label: string;
  enabled: boolean;
  /** Parsed JSON settings (validated by the caller against the method's schema). */
  settings: unknown;
  secrets: { bindPassword?: string; clientSecret?: string };
  updatedAt: string;
}

const parseObject = (json: string): Record<string, unknown> => {
  try {
    const value: unknown = JSON.parse(json);
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
};

export async function getMethodStates(db: Db): Promise<Record<SignInMethod, boolean | null>> {
  const rows = await db.selectFrom('auth_methods').selectAll().execute();
  const out: Record<SignInMethod, boolean | null> = {
    local: null,
    ldap: null,
    moodle: null,
    sso: null,
  };
  for (const r of rows) {
    if ((SIGN_IN_METHODS as readonly string[]).includes(r.method)) {
      out[r.method as SignInMethod] = Boolean(r.enabled);
    }
  }
  return out;
}

export async function setMethodEnabled(
  db: Db,
  method: SignInMethod,
  enabled: boolean,
  at: string,
): Promise<void> {
  await db
    .insertInto('auth_methods')
    .values({ method, enabled: enabled ? 1 : 0, updated_at: at })
    .onConflict((oc) =>
      oc.column('method').doUpdateSet({ enabled: enabled ? 1 : 0, updated_at: at }),
    )
    .execute();
}

/** Sets a method's state only when it has none yet (start-up configuration). */
export async function seedMethod(db: Db, method: SignInMethod, enabled: boolean, at: string) {
  await db
    .insertInto('auth_methods')
    .values({ method, enabled: enabled ? 1 : 0, updated_at: at })
    .onConflict((oc) => oc.column('method').doNothing())
    .execute();
}

function toProvider(row: {
  id: string;
  method: string;
  label: string;
  enabled: number;
  settings: string;
  secrets: string;
  updated_at: string;
}): StoredProvider {
  const secrets = parseObject(row.secrets);
  return {
    id: row.id,
    method: row.method as ProviderMethod,
    label: row.label,
    enabled: Boolean(row.enabled),
    settings: parseObject(row.settings),
    secrets: {
      ...(typeof secrets.bindPassword === 'string' ? { bindPassword: secrets.bindPassword } : {}),
      ...(typeof secrets.clientSecret === 'string' ? { clientSecret: secrets.clientSecret } : {}),
    },
    updatedAt: row.updated_at,
  };
}

export async function listProviders(db: Db): Promise<StoredProvider[]> {
  const rows = await db
    .selectFrom('auth_providers')
    .selectAll()
    .orderBy('method')
    .orderBy('id')
    .execute();
  return rows.map(toProvider);
}

export async function findProvider(db: Db, id: string): Promise<StoredProvider | null> {
  const row = await db
    .selectFrom('auth_providers')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? toProvider(row) : null;
}

export interface ProviderRecordInput {
  id: string;
  method: ProviderMethod;
  label: string;
  enabled: boolean;
  settings: unknown;
  secrets: { bindPassword?: string; clientSecret?: string };
}

export async function insertProvider(db: Db, p: ProviderRecordInput, at: string): Promise<void> {
  await db
    .insertInto('auth_providers')
    .values({
      id: p.id,
      method: p.method,
      label: p.label,
      enabled: p.enabled ? 1 : 0,
      settings: JSON.stringify(p.settings),
      secrets: JSON.stringify(p.secrets),
      created_at: at,
      updated_at: at,
    })
    .execute();
}

export async function updateProvider(db: Db, p: ProviderRecordInput, at: string): Promise<void> {
  await db
    .updateTable('auth_providers')
    .set({
      label: p.label,
      enabled: p.enabled ? 1 : 0,
      settings: JSON.stringify(p.settings),
      secrets: JSON.stringify(p.secrets),
      updated_at: at,
    })
    .where('id', '=', p.id)
    .execute();
}

export async function deleteProvider(db: Db, id: string): Promise<boolean> {
  const result = await db.deleteFrom('auth_providers').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

// ---------------------------------------------------------------- SSO flows and codes

export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

export interface SsoFlow {
  providerId: string;
  codeVerifier: string;
  nonce: string;
  purpose: 'login' | 'test';
  returnTo: string | null;
  actorId: string | null;
  testId: string | null;
  expiresAt: string;
}

export async function insertSsoFlow(
  db: Db,
  state: string,
  flow: SsoFlow,
  at: string,
): Promise<void> {
  await db
    .insertInto('sso_flows')
    .values({
      state_hash: sha256(state),
      provider_id: flow.providerId,
      code_verifier: flow.codeVerifier,
      nonce: flow.nonce,
      purpose: flow.purpose,
      return_to: flow.returnTo,
      actor_id: flow.actorId,
      test_id: flow.testId,
      result: null,
      created_at: at,
      expires_at: flow.expiresAt,
      consumed_at: null,
    })
    .execute();
}

/**
 * Takes the flow a `state` names, once: a second callback with the same state (a replay) finds
 * nothing. Expired flows are not returned.
 */
export async function consumeSsoFlow(db: Db, state: string, at: string): Promise<SsoFlow | null> {
  const hash = sha256(state);
  const result = await db
    .updateTable('sso_flows')
    .set({ consumed_at: at })
    .where('state_hash', '=', hash)
    .where('consumed_at', 'is', null)
    .where('expires_at', '>', at)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) return null;
  const row = await db
    .selectFrom('sso_flows')
    .selectAll()
    .where('state_hash', '=', hash)
    .executeTakeFirstOrThrow();
  return {
    providerId: row.provider_id,
    codeVerifier: row.code_verifier,
    nonce: row.nonce,
    purpose: row.purpose === 'test' ? 'test' : 'login',
    returnTo: row.return_to,
    actorId: row.actor_id,
    testId: row.test_id,
    expiresAt: row.expires_at,
  };
}

export async function saveSsoTestResult(db: Db, testId: string, result: unknown): Promise<void> {
  await db
    .updateTable('sso_flows')
    .set({ result: JSON.stringify(result) })
    .where('test_id', '=', testId)
    .execute();
}

export async function findSsoTest(
  db: Db,
  testId: string,
): Promise<{ actorId: string | null; providerId: string; result: unknown | null } | null> {
  const row = await db
    .selectFrom('sso_flows')
    .selectAll()
    .where('test_id', '=', testId)
    .executeTakeFirst();
  if (!row) return null;
  let result: unknown = null;
  if (row.result) {
    try {
      result = JSON.parse(row.result);
    } catch {
      result = null;
    }
  }
  return { actorId: row.actor_id, providerId: row.provider_id, result };
}

/** Forgets flows and codes past their expiry (called now and then; they are useless anyway). */
export async function purgeExpiredSso(db: Db, at: string): Promise<void> {
  await db
    .deleteFrom('sso_flows')
    .where('expires_at', '<', at)
    .where('purpose', '=', 'login')
    .execute();
  await db.deleteFrom('sso_codes').where('expires_at', '<', at).execute();
}

export async function insertSsoCode(
  db: Db,
  code: string,
  userId: string,
  providerId: string,
  at: string,
  expiresAt: string,
): Promise<void> {
  await db
    .insertInto('sso_codes')
    .values({
      code_hash: sha256(code),
      user_id: userId,
      provider_id: providerId,
      created_at: at,
      expires_at: expiresAt,
      consumed_at: null,
    })
    .execute();
}

/** Takes a one-time code, once, for the provider it was issued for; null if unknown/expired/used. */
export async function consumeSsoCode(
  db: Db,
  code: string,
  providerId: string,
  at: string,
): Promise<string | null> {
  const hash = sha256(code);
  const result = await db
    .updateTable('sso_codes')
    .set({ consumed_at: at })
    .where('code_hash', '=', hash)
    .where('provider_id', '=', providerId)
    .where('consumed_at', 'is', null)
    .where('expires_at', '>', at)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) return null;
  const row = await db
    .selectFrom('sso_codes')
    .select('user_id')
    .where('code_hash', '=', hash)
    .executeTakeFirstOrThrow();
  return row.user_id;
}
