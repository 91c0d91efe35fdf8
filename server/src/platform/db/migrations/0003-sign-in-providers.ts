import type { Kysely } from 'kysely';

/**
 * Sign-in beyond local accounts: which methods are on, the providers (directories, Moodle sites,
 * OpenID Connect providers) with their settings and write-only secrets, the single-sign-on flows
 * in progress and their one-time codes, and what users keep from their provider.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('auth_source', 'text').execute();
  await db.schema.alterTable('users').addColumn('external_id', 'text').execute();
  await db.schema.alterTable('users').addColumn('ldap_groups', 'text').execute();
  await db.schema.alterTable('users').addColumn('ldap_attributes', 'text').execute();
  await db.schema.alterTable('users').addColumn('moodle_id', 'integer').execute();
  await db.schema.alterTable('users').addColumn('sso_provider', 'text').execute();
  await db.schema
    .createIndex('users_external_idx')
    .on('users')
    .columns(['auth_method', 'auth_source', 'external_id'])
    .execute();

  await db.schema
    .createTable('auth_methods')
    .addColumn('method', 'text', (c) => c.primaryKey())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('auth_providers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    /** JSON: the method's settings (never secret). */
    .addColumn('settings', 'text', (c) => c.notNull())
    /** JSON: write-only secrets (service password, client secret). */
    .addColumn('secrets', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('sso_flows')
    /** SHA-256 of the OAuth `state`. */
    .addColumn('state_hash', 'text', (c) => c.primaryKey())
    .addColumn('provider_id', 'text', (c) => c.notNull())
    .addColumn('code_verifier', 'text', (c) => c.notNull())
    .addColumn('nonce', 'text', (c) => c.notNull())
    /** `login`, or `test` for an admin's dry run. */
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('return_to', 'text')
    .addColumn('actor_id', 'text')
    .addColumn('test_id', 'text')
    /** JSON result of a dry run. */
    .addColumn('result', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('consumed_at', 'text')
    .execute();
  await db.schema.createIndex('sso_flows_test_idx').on('sso_flows').column('test_id').execute();

  await db.schema
    .createTable('sso_codes')
    /** SHA-256 of the one-time code handed to the browser. */
    .addColumn('code_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('provider_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('consumed_at', 'text')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['sso_codes', 'sso_flows', 'auth_providers', 'auth_methods']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
  await db.schema.dropIndex('users_external_idx').ifExists().execute();
  for (const column of [
    'sso_provider',
    'moodle_id',
    'ldap_attributes',
    'ldap_groups',
    'external_id',
    'auth_source',
  ]) {
    await db.schema.alterTable('users').dropColumn(column).execute();
  }
}
