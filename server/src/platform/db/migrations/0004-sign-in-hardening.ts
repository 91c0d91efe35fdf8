import { sql, type Kysely } from 'kysely';

/**
 * Sign-in hardening: throttle counters with fixed windows (the account-wide counter counts from
 * its window's first failure); the account key of every recorded sign-in attempt, so the
 * failures of one account are found whatever spelling of its name was typed; and browsers'
 * auth log reports moved out of the server's record into a table of their own.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('client_auth_reports')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('received_at', 'text', (c) => c.notNull())
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('auth_method', 'text', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('client_ip_address', 'text', (c) => c.notNull())
    .addColumn('client_timestamp', 'text', (c) => c.notNull())
    .addColumn('user_agent', 'text', (c) => c.notNull())
    .addColumn('request_id', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('client_auth_reports_username_idx')
    .on('client_auth_reports')
    .column('username')
    .execute();
  await sql`
    insert into client_auth_reports (id, received_at, event, username, auth_method, error,
      address, client_ip_address, client_timestamp, user_agent, request_id)
    select id, occurred_at, event, coalesce(username, ''), coalesce(auth_method, ''), error,
      coalesce(address, ''), coalesce(client_ip_address, ''), coalesce(client_timestamp, ''),
      coalesce(user_agent, ''), coalesce(request_id, '')
    from auth_events where source = 'client'`.execute(db);
  await sql`delete from auth_events where source = 'client'`.execute(db);

  await db.schema.alterTable('login_throttle').addColumn('window_started_at', 'text').execute();
  await db.schema
    .createIndex('login_throttle_last_failure_idx')
    .on('login_throttle')
    .column('last_failure_at')
    .execute();

  await db.schema.alterTable('auth_events').addColumn('username_key', 'text').execute();
  // Earlier events get the closest key SQL can compute (case folded; the application's key is
  // NFKC then lower case): it only decides which old failures a notice mentions.
  await sql`update auth_events set username_key = lower(username) where username is not null`.execute(
    db,
  );
  await db.schema
    .createIndex('auth_events_username_key_idx')
    .on('auth_events')
    .columns(['username_key', 'occurred_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('client_auth_reports').ifExists().execute();
  await db.schema.dropIndex('auth_events_username_key_idx').ifExists().execute();
  await db.schema.alterTable('auth_events').dropColumn('username_key').execute();
  await db.schema.dropIndex('login_throttle_last_failure_idx').ifExists().execute();
  await db.schema.alterTable('login_throttle').dropColumn('window_started_at').execute();
}
