import type { Kysely } from 'kysely';

/**
 * Settings an admin changes at run time under Admin → System, one row per setting: `value` is its
 * JSON, with who changed it last and when. The first is `allowed_internal_link_hosts`, the
 * internal hosts a library link may go to (docs/library.md, "Links"); a setting without a row has
 * its default.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('system_settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('updated_by', 'text')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('system_settings').execute();
}
