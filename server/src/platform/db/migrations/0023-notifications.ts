import { sql, type Kysely } from 'kysely';

/**
 * Notifications (docs/notifications.md): one event per thing announced, and one row per person
 * it reaches, written in the transaction of the thing itself. `dispatched_at` is the outbox's
 * mark: null until one server instance has sent the event on the live channel.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('notification_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('priority', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('link', 'text')
    .addColumn('source_type', 'text')
    .addColumn('source_id', 'text')
    .addColumn('actor_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('recipient_count', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('dispatched_at', 'text')
    .execute();
  await db.schema
    .createIndex('notification_events_undispatched_idx')
    .on('notification_events')
    .column('id')
    .where(sql<boolean>`dispatched_at is null`)
    .execute();
  await db.schema
    .createIndex('notification_events_source_idx')
    .on('notification_events')
    .columns(['source_type', 'source_id'])
    .execute();

  await db.schema
    .createTable('notifications')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('event_id', 'text', (c) =>
      c.notNull().references('notification_events.id').onDelete('cascade'),
    )
    .addColumn('delivered_at', 'text')
    .addColumn('read_at', 'text')
    /** 'pending' (to be emailed), 'sent', or null (in-app only). */
    .addColumn('email', 'text')
    .addPrimaryKeyConstraint('notifications_pk', ['user_id', 'event_id'])
    .execute();
  await db.schema
    .createIndex('notifications_event_idx')
    .on('notifications')
    .column('event_id')
    .execute();
  await db.schema
    .createIndex('notifications_unread_idx')
    .on('notifications')
    .columns(['user_id', 'event_id'])
    .where(sql<boolean>`read_at is null`)
    .execute();
  await db.schema
    .createIndex('notifications_email_idx')
    .on('notifications')
    .column('user_id')
    .where(sql<boolean>`email = 'pending'`)
    .execute();

  // Notices that go out once per thing (an assignment due soon, a role ending soon): the
  // timed jobs that raise them insert a key here in the notice's transaction, so a second run
  // (another instance, a retry) finds it taken.
  await db.schema
    .createTable('notification_marks')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('notification_marks').execute();
  await db.schema.dropTable('notifications').execute();
  await db.schema.dropTable('notification_events').execute();
}
