import { sql, type Kysely } from 'kysely';

/**
 * The library (docs/library.md): categories, items (a file or a link, with a scope: everyone, a
 * department or a course), their tags, and the versions of an item's file with the state of their
 * text extraction. Also the department scope column of the search index (`department_id`), which
 * library items scoped to a department are filtered by.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('library_categories')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_key', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('library_items')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description_html', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('category_id', 'text', (c) =>
      c.references('library_categories.id').onDelete('set null'),
    )
    .addColumn('scope_type', 'text', (c) => c.notNull())
    .addColumn('department_id', 'text', (c) => c.references('departments.id'))
    .addColumn('course_id', 'text', (c) => c.references('courses.id').onDelete('cascade'))
    .addColumn('url', 'text')
    .addColumn('current_version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_by', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('updated_by', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('deleted_at', 'text')
    .addColumn('deleted_by', 'text', (c) => c.references('users.id'))
    .addColumn('view_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('download_count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // The list: not trashed, newest change first (the default); the trash; the filters and sorts.
  for (const [name, columns] of [
    ['library_items_deleted_updated', ['deleted_at', 'updated_at']],
    ['library_items_deleted_title', ['deleted_at', 'title']],
    ['library_items_deleted_created', ['deleted_at', 'created_at']],
    ['library_items_deleted_views', ['deleted_at', 'view_count']],
    ['library_items_deleted_downloads', ['deleted_at', 'download_count']],
    ['library_items_scope', ['scope_type', 'department_id', 'course_id']],
    ['library_items_department', ['department_id']],
    ['library_items_course', ['course_id']],
    ['library_items_category', ['category_id']],
    ['library_items_kind', ['kind']],
    ['library_items_created_by', ['created_by']],
  ] as const) {
    await db.schema
      .createIndex(name)
      .on('library_items')
      .columns([...columns])
      .execute();
  }

  await db.schema
    .createTable('library_item_tags')
    .addColumn('item_id', 'text', (c) =>
      c.notNull().references('library_items.id').onDelete('cascade'),
    )
    .addColumn('tag', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('library_item_tags_pk', ['item_id', 'tag'])
    .execute();
  await db.schema
    .createIndex('library_item_tags_tag')
    .on('library_item_tags')
    .column('tag')
    .execute();

  await db.schema
    .createTable('library_versions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('item_id', 'text', (c) =>
      c.notNull().references('library_items.id').onDelete('cascade'),
    )
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('file_id', 'text', (c) => c.notNull().references('files.id'))
    .addColumn('created_by', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('text_state', 'text', (c) => c.notNull().defaultTo('none'))
    .addColumn('text_error', 'text')
    .addColumn('extracted_text', 'text')
    .addUniqueConstraint('library_versions_item_version', ['item_id', 'version'])
    .execute();
  await db.schema
    .createIndex('library_versions_file')
    .on('library_versions')
    .column('file_id')
    .execute();

  await sql`alter table search_documents add column department_id text`.execute(db);
  await sql`create index search_documents_department on search_documents (department_id)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index search_documents_department`.execute(db);
  await sql`alter table search_documents drop column department_id`.execute(db);
  await db.schema.dropTable('library_versions').execute();
  await db.schema.dropTable('library_item_tags').execute();
  await db.schema.dropTable('library_items').execute();
  await db.schema.dropTable('library_categories').execute();
}
