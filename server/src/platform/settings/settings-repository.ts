/**
 * Admin → System settings (migration 0020): one row per setting changed from its default, its
 * value as JSON. Read where a rule needs them (no cache: every server instance sees a change at
 * once); written by PUT /api/admin/settings.
 */
import type { SystemSettings } from '@learning-hub/core';
import type { Db } from '../db';

const ALLOWED_LINK_HOSTS = 'allowed_internal_link_hosts';

function stringList(json: string): string[] {
  const value: unknown = JSON.parse(json);
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** The internal hosts library links may go to (normalised; none by default). */
export async function allowedInternalLinkHosts(db: Db): Promise<string[]> {
  return (await readSystemSettings(db)).allowedInternalLinkHosts;
}

/** Every setting, with when and by whom the last one was changed. */
export async function readSystemSettings(db: Db): Promise<SystemSettings> {
  const row = await db
    .selectFrom('system_settings')
    .select(['value', 'updated_at', 'updated_by'])
    .where('key', '=', ALLOWED_LINK_HOSTS)
    .executeTakeFirst();
  return {
    allowedInternalLinkHosts: row ? stringList(row.value) : [],
    updatedAt: row?.updated_at ?? null,
    updatedBy: row?.updated_by ?? null,
  };
}

/** Stores the settings (an upsert per setting). */
export async function writeSystemSettings(
  db: Db,
  settings: { allowedInternalLinkHosts: readonly string[] },
  at: string,
  by: string | null,
): Promise<void> {
  const value = JSON.stringify(settings.allowedInternalLinkHosts);
  await db
    .insertInto('system_settings')
    .values({ key: ALLOWED_LINK_HOSTS, value, updated_at: at, updated_by: by })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value, updated_at: at, updated_by: by }))
    .execute();
}
