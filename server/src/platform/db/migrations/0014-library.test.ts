import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import { afterEach, describe, expect, it } from 'vitest';
import { searchIndex } from '../../search/search-index';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../index';
import { migrationProvider } from './index';

describe('migration 0014: the library', () => {
  let dir = '';
  let handle: DatabaseHandle | undefined;
  afterEach(async () => {
    await handle?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('adds the tables and the department scope of the index, and goes back down cleanly', async () => {
    dir = mkdtempSync(join(tmpdir(), 'lh-m0014-'));
    handle = openDatabase({ kind: 'sqlite', path: join(dir, 'm.db') });
    const db = handle.db;
    const migrator = new Migrator({ db, provider: migrationProvider });
    expect((await migrator.migrateTo('0013-search')).error).toBeUndefined();
    const at = '2026-01-01T00:00:00.000Z';
    await sql`insert into courses (id, code, title, description, created_at)
      values ('c', 'FO-1', 'Fusion splicing', 'Arcs', ${at})`.execute(db);
    await sql`insert into search_documents (doc_type, doc_id, course_id, title, body)
      values ('course', 'c', 'c', 'Fusion splicing', 'FO-1')`.execute(db);

    expect(await migrateToLatest(db)).toContain('0014-library');
    await searchIndex(db).upsert(db, {
      type: 'library-item',
      id: 'i',
      courseId: null,
      departmentId: 'd',
      title: 'Cabinet layout',
      body: '',
    });
    const found = await searchIndex(db).search(db, {
      query: 'cabinet',
      scopes: [{ type: 'library-item', where: sql<boolean>`d.department_id = 'd'` }],
      offset: 0,
      limit: 10,
    });
    expect(found.hits.map((h) => h.id)).toEqual(['i']);

    expect((await migrator.migrateTo('0013-search')).error).toBeUndefined();
    const { rows } = await sql<{ name: string }>`
      select name from sqlite_master where name like 'library%'`.execute(db);
    expect(rows).toEqual([]);
    // The courses' documents are still in the full-text index (today's search reads a later
    // migration's index, so the table is asked directly).
    const course = await sql<{ doc_id: string }>`
      select d.doc_id from search_fts join search_documents d on d.seq = search_fts.rowid
      where search_fts match 'fusion'`.execute(db);
    expect(course.rows.map((r) => r.doc_id)).toEqual(['c']);
  });
});
