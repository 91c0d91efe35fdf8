import type { Kysely } from 'kysely';

/**
 * The library's list in its default order (newest change first, listItems in
 * server/src/modules/library/library-repository.ts): one index that also holds the scope columns, so the
 * page is read in order and the total counted from the index alone, without reading the items'
 * rows or sorting the visible ones (bench:library, docs/library.md "Measured"). It replaces the
 * index on (deleted_at, updated_at), its prefix.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('library_items_deleted_updated_scope')
    .on('library_items')
    .columns(['deleted_at', 'updated_at', 'id', 'department_id', 'course_id'])
    .execute();
  await db.schema.dropIndex('library_items_deleted_updated').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('library_items_deleted_updated')
    .on('library_items')
    .columns(['deleted_at', 'updated_at'])
    .execute();
  await db.schema.dropIndex('library_items_deleted_updated_scope').execute();
}
