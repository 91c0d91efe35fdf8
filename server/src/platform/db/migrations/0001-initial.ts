import type { Kysely } from 'kysely';

/** Departments, users, sessions, the auth-event log and sign-in throttling. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('departments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('username_key', 'text', (c) => c.notNull().unique())
    .addColumn('email', 'text')
    .addColumn('firstname', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('lastname', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('department_id', 'text', (c) => c.references('departments.id').onDelete('set null'))
    .addColumn('avatar', 'text')
    .addColumn('password_hash', 'text')
    .addColumn('auth_method', 'text', (c) => c.notNull().defaultTo('local'))
    .addColumn('last_login', 'text')
    .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('is_default_password', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('must_change_password', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_super_admin', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('users_department_idx').on('users').column('department_id').execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .addColumn('revoked_reason', 'text')
    .addColumn('ip_address', 'text')
    .addColumn('user_agent', 'text')
    .execute();
  await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute();

  await db.schema
    .createTable('auth_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('occurred_at', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('username', 'text')
    .addColumn('user_id', 'text')
    .addColumn('auth_method', 'text')
    .addColumn('success', 'integer')
    .addColumn('error', 'text')
    .addColumn('address', 'text')
    .addColumn('client_ip_address', 'text')
    .addColumn('client_timestamp', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('request_id', 'text')
    .execute();
  await db.schema
    .createIndex('auth_events_occurred_idx')
    .on('auth_events')
    .column('occurred_at')
    .execute();
  await db.schema
    .createIndex('auth_events_username_idx')
    .on('auth_events')
    .column('username')
    .execute();

  await db.schema
    .createTable('login_throttle')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('last_failure_at', 'text', (c) => c.notNull())
    .addColumn('blocked_until', 'text')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['login_throttle', 'auth_events', 'sessions', 'users', 'departments']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
