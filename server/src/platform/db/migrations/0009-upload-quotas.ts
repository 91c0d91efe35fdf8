import type { Kysely } from 'kysely';

/**
 * Per-person upload limits (server/src/platform/storage/upload-quota-repository.ts). An upload reserves
 * the bytes it may take before it streams (`upload_reservations`, one row per upload in flight)
 * and trades the reservation for its `files` row when it is stored, so concurrent uploads see
 * each other. Each reservation is decided while holding the person's row in
 * `upload_quota_locks`, which the deciding transaction writes first: a row lock on PostgreSQL,
 * the write lock on SQLite, so one person's reservations are decided one at a time.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('upload_quota_locks')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('locked_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('upload_reservations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('bytes', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('upload_reservations_user_idx')
    .on('upload_reservations')
    .columns(['user_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('upload_reservations_created_idx')
    .on('upload_reservations')
    .column('created_at')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('upload_reservations').execute();
  await db.schema.dropTable('upload_quota_locks').execute();
}
