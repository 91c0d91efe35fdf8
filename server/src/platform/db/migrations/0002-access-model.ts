import { sql, type Kysely } from 'kysely';

/**
 * The permission model's storage: custom roles, direct permissions, context assignments, the
 * durable audit trail of access changes, courses (the context of course roles), and the versions
 * that keep every server instance's permission cache exact:
 * - `users.access_version` changes with anything that changes one user's permissions;
 * - `access_epoch.roles_version` changes with any custom role definition.
 * Both are read with the session on every request, so a change takes effect on the next request
 * on every instance.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('access_version', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('access_epoch')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('roles_version', 'integer', (c) => c.notNull())
    .execute();
  await sql`insert into access_epoch (id, roles_version) values (1, 0)`.execute(db);

  await db.schema
    .createTable('custom_roles')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('inherits', 'text', (c) => c.notNull())
    /** JSON array of permission ids the role adds. */
    .addColumn('permissions', 'text', (c) => c.notNull())
    .addColumn('priority', 'integer', (c) => c.notNull())
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('user_permissions')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('permission', 'text', (c) => c.notNull())
    .addColumn('granted_by', 'text')
    .addColumn('granted_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('user_permissions_pk', ['user_id', 'permission'])
    .execute();

  await db.schema
    .createTable('courses')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('code', 'text', (c) => c.notNull().unique())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('department_id', 'text', (c) => c.references('departments.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('context_assignments')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    /** `course:<id>`, `department:<id>`, `user:<id>`, `custom:<type>:<id>` or `system`. */
    .addColumn('context_key', 'text', (c) => c.notNull())
    .addColumn('context_type', 'text', (c) => c.notNull())
    /** JSON array of context role ids. */
    .addColumn('roles', 'text', (c) => c.notNull())
    /** JSON array of permission ids. */
    .addColumn('direct_permissions', 'text', (c) => c.notNull())
    .addColumn('assigned_by', 'text', (c) => c.notNull())
    .addColumn('assigned_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text')
    .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
    .addPrimaryKeyConstraint('context_assignments_pk', ['user_id', 'context_key'])
    .execute();
  await db.schema
    .createIndex('context_assignments_context_idx')
    .on('context_assignments')
    .column('context_key')
    .execute();

  await db.schema
    .createTable('access_audit')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('occurred_at', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'text')
    .addColumn('actor_username', 'text')
    .addColumn('target_user_id', 'text')
    .addColumn('target_username', 'text')
    .addColumn('role_id', 'text')
    .addColumn('permission', 'text')
    .addColumn('context_key', 'text')
    /** JSON object: before/after and other particulars. */
    .addColumn('details', 'text', (c) => c.notNull())
    .addColumn('request_id', 'text')
    .execute();
  await db.schema
    .createIndex('access_audit_occurred_idx')
    .on('access_audit')
    .column('occurred_at')
    .execute();
  await db.schema
    .createIndex('access_audit_target_idx')
    .on('access_audit')
    .columns(['target_user_id', 'occurred_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'access_audit',
    'context_assignments',
    'courses',
    'user_permissions',
    'custom_roles',
    'access_epoch',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
  await db.schema.alterTable('users').dropColumn('access_version').execute();
}
