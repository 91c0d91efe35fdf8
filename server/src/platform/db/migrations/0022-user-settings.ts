import type { Kysely } from 'kysely';

/**
 * A person's own settings (docs/settings.md). `user_settings` keeps how the app looks for them
 * (colour scheme, time zone, date format, start page, reduced motion) as one JSON value;
 * `user_notification_channels` keeps, per kind of notification, the channel they chose where it
 * is not the kind's default (a kind without a row has its default, so a new kind, or a changed
 * default, reaches everyone who never chose). Both go with the account.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('user_settings')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('user_notification_channels')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('user_notification_channels_pk', ['user_id', 'kind'])
    .execute();
  // Delivery asks "who chose something else for this kind": by kind first.
  await db.schema
    .createIndex('user_notification_channels_kind')
    .on('user_notification_channels')
    .columns(['kind', 'user_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('user_notification_channels').execute();
  await db.schema.dropTable('user_settings').execute();
}
