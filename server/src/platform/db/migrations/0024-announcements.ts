import { sql, type Kysely } from 'kysely';

/**
 * Announcements (docs/announcements.md). `announcements` holds each one with its audience as
 * chosen (JSON) and its stored state: `draft`, `scheduled`, `live` or `withdrawn` (`expired` is
 * derived from `expires_at`). `announcement_recipients` holds the people it was published to,
 * resolved once, in the transaction that publishes it, with their acknowledgement and their last
 * reminder; its primary key keeps one row per person.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('announcements')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('body_html', 'text', (c) => c.notNull())
    .addColumn('priority', 'text', (c) => c.notNull())
    .addColumn('pinned', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('requires_ack', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'text', (c) => c.notNull())
    /** JSON: { everyone, roles, departmentIds, courseIds, userIds }. */
    .addColumn('audience', 'text', (c) => c.notNull())
    .addColumn('publish_at', 'text')
    .addColumn('published_at', 'text')
    .addColumn('expires_at', 'text')
    .addColumn('withdrawn_at', 'text')
    .addColumn('reminded_at', 'text')
    .addColumn('created_by', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('revision', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema
    .createIndex('announcements_status_idx')
    .on('announcements')
    .columns(['status', 'published_at'])
    .execute();

  // Which courses and departments an audience names, one row each: the course and department
  // pages list their announcements from here.
  await db.schema
    .createTable('announcement_targets')
    .addColumn('announcement_id', 'text', (c) =>
      c.notNull().references('announcements.id').onDelete('cascade'),
    )
    /** `course` or `department`. */
    .addColumn('target_type', 'text', (c) => c.notNull())
    .addColumn('target_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('announcement_targets_pk', [
      'announcement_id',
      'target_type',
      'target_id',
    ])
    .execute();
  await db.schema
    .createIndex('announcement_targets_target_idx')
    .on('announcement_targets')
    .columns(['target_type', 'target_id'])
    .execute();

  await db.schema
    .createTable('announcement_recipients')
    .addColumn('announcement_id', 'text', (c) =>
      c.notNull().references('announcements.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('acknowledged_at', 'text')
    .addColumn('reminded_at', 'text')
    .addPrimaryKeyConstraint('announcement_recipients_pk', ['announcement_id', 'user_id'])
    .execute();
  // A reader's announcements (their list, the banner).
  await db.schema
    .createIndex('announcement_recipients_user_idx')
    .on('announcement_recipients')
    .columns(['user_id', 'announcement_id'])
    .execute();
  // Those who have not acknowledged one yet (the manager's list, reminders).
  await db.schema
    .createIndex('announcement_recipients_pending_idx')
    .on('announcement_recipients')
    .columns(['announcement_id', 'user_id'])
    .where(sql<boolean>`acknowledged_at is null`)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('announcement_recipients').execute();
  await db.schema.dropTable('announcement_targets').execute();
  await db.schema.dropTable('announcements').execute();
}
