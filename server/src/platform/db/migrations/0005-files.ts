import type { Kysely } from 'kysely';

/**
 * Stored files (server/src/platform/storage): one row per uploaded object. A file belongs to nothing until
 * an area attaches it to a thing (owner_type + owner_id: a lesson, a submission, …); until then
 * only its uploader may read it, and orphans older than a day are cleaned up.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('files')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('storage_key', 'text', (c) => c.notNull().unique())
    .addColumn('original_name', 'text', (c) => c.notNull())
    .addColumn('mime', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('uploaded_by', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('owner_type', 'text')
    .addColumn('owner_id', 'text')
    .addColumn('attached_at', 'text')
    .addColumn('thumbnail_key', 'text')
    .execute();
  await db.schema
    .createIndex('files_owner_idx')
    .on('files')
    .columns(['owner_type', 'owner_id'])
    .execute();
  await db.schema
    .createIndex('files_unattached_idx')
    .on('files')
    .columns(['owner_type', 'created_at'])
    .execute();
  await db.schema.createIndex('files_uploaded_by_idx').on('files').column('uploaded_by').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('files').execute();
}
