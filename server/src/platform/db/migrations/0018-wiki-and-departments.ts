import { sql, type Kysely } from 'kysely';

/**
 * The wiki (docs/wiki.md): pages in spaces as a tree, every save a numbered revision, the links
 * between pages (for backlinks and missing pages) and who follows a page. And the department
 * pages (docs/departments.md): a department's URL name (`slug`, which follows a rename; its
 * former ones redirect) and archiving. Descriptions become rich text: a plain description is
 * kept as one escaped paragraph.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('wiki_pages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    /** `company`, `department:<id>` or `course:<id>`. */
    .addColumn('space_key', 'text', (c) => c.notNull())
    .addColumn('space_type', 'text', (c) => c.notNull())
    .addColumn('department_id', 'text', (c) => c.references('departments.id'))
    .addColumn('course_id', 'text', (c) => c.references('courses.id').onDelete('cascade'))
    .addColumn('parent_id', 'text', (c) => c.references('wiki_pages.id').onDelete('set null'))
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('title', 'text', (c) => c.notNull())
    /** The title folded for matching links and uniqueness (wiki/title-key). */
    .addColumn('title_key', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    /** The current revision's sanitised HTML and number (a copy of its row, for reads). */
    .addColumn('html', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('revision', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('view_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_by', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_by', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('deleted_at', 'text')
    .addColumn('deleted_by', 'text', (c) => c.references('users.id'))
    .execute();
  // One page per title in a space, among the pages not in the trash.
  await sql`create unique index wiki_pages_space_title on wiki_pages (space_key, title_key) where deleted_at is null`.execute(
    db,
  );
  for (const [name, columns] of [
    ['wiki_pages_tree', ['space_key', 'parent_id', 'position']],
    ['wiki_pages_deleted_updated', ['deleted_at', 'updated_at']],
    ['wiki_pages_department', ['department_id']],
    ['wiki_pages_course', ['course_id']],
    ['wiki_pages_parent', ['parent_id']],
    ['wiki_pages_created_by', ['created_by']],
  ] as const) {
    await db.schema
      .createIndex(name)
      .on('wiki_pages')
      .columns([...columns])
      .execute();
  }

  await db.schema
    .createTable('wiki_revisions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('page_id', 'text', (c) =>
      c.notNull().references('wiki_pages.id').onDelete('cascade'),
    )
    .addColumn('number', 'integer', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('html', 'text', (c) => c.notNull())
    .addColumn('summary', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('author_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('restored_from', 'integer')
    .addColumn('size', 'integer', (c) => c.notNull().defaultTo(0))
    // Of two saves on one base revision, exactly one gets the next number.
    .addUniqueConstraint('wiki_revisions_page_number', ['page_id', 'number'])
    .execute();

  await db.schema
    .createTable('wiki_links')
    .addColumn('from_page_id', 'text', (c) =>
      c.notNull().references('wiki_pages.id').onDelete('cascade'),
    )
    /** A link by id (`/wiki/pages/<id>`); null for a link by title. */
    .addColumn('to_page_id', 'text')
    /** A link by title (`/wiki/go?space=&title=`): the space and the folded title. */
    .addColumn('to_space_key', 'text')
    .addColumn('to_title_key', 'text')
    .execute();
  await db.schema.createIndex('wiki_links_from').on('wiki_links').column('from_page_id').execute();
  await db.schema.createIndex('wiki_links_to_page').on('wiki_links').column('to_page_id').execute();
  await db.schema
    .createIndex('wiki_links_to_title')
    .on('wiki_links')
    .columns(['to_space_key', 'to_title_key'])
    .execute();

  await db.schema
    .createTable('wiki_follows')
    .addColumn('page_id', 'text', (c) =>
      c.notNull().references('wiki_pages.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('wiki_follows_pk', ['page_id', 'user_id'])
    .execute();
  await db.schema.createIndex('wiki_follows_user').on('wiki_follows').column('user_id').execute();

  // Departments: URL name, archiving, former URL names.
  await sql`alter table departments add column slug text`.execute(db);
  await sql`alter table departments add column archived_at text`.execute(db);
  await sql`update departments set slug = id`.execute(db);
  await sql`create unique index departments_slug on departments (slug)`.execute(db);
  await db.schema
    .createTable('department_slugs')
    .addColumn('slug', 'text', (c) => c.primaryKey())
    .addColumn('department_id', 'text', (c) =>
      c.notNull().references('departments.id').onDelete('cascade'),
    )
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  const rows = await sql<{
    id: string;
    description: string;
  }>`select id, description from departments where description <> ''`.execute(db);
  for (const row of rows.rows) {
    if (/^\s*</.test(row.description)) continue;
    const html = `<p>${row.description
      .replaceAll('&', '&amp;')
      .replaceAll('<', '&lt;')
      .replaceAll('>', '&gt;')}</p>`;
    await sql`update departments set description = ${html} where id = ${row.id}`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('department_slugs').execute();
  await sql`drop index departments_slug`.execute(db);
  await sql`alter table departments drop column archived_at`.execute(db);
  await sql`alter table departments drop column slug`.execute(db);
  await db.schema.dropTable('wiki_follows').execute();
  await db.schema.dropTable('wiki_links').execute();
  await db.schema.dropTable('wiki_revisions').execute();
  await db.schema.dropTable('wiki_pages').execute();
}
