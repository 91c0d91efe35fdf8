import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import { afterEach, describe, expect, it } from 'vitest';
import { richTextToPlainText } from '../../rich-text/sanitize';
import { searchIndex } from '../../search/search-index';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../index';
import { plainTextOf } from './0013-search';
import { migrationProvider } from './index';

describe('migration 0013: the search index', () => {
  let dir = '';
  let handle: DatabaseHandle | undefined;
  afterEach(async () => {
    await handle?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('indexes the courses and lessons that exist (lesson text without its tags)', async () => {
    dir = mkdtempSync(join(tmpdir(), 'lh-m0013-'));
    handle = openDatabase({ kind: 'sqlite', path: join(dir, 'm.db') });
    const migrator = new Migrator({ db: handle.db, provider: migrationProvider });
    expect((await migrator.migrateTo('0011-submissions-recent-index')).error).toBeUndefined();
    const at = '2026-01-01T00:00:00.000Z';
    await sql`insert into courses (id, code, title, description, created_at)
      values ('c', 'FO-1', 'Fusion splicing', 'Arcs', ${at})`.execute(handle.db);
    await sql`insert into course_sections (id, course_id, title, position, created_at)
      values ('s', 'c', 'S', 0, ${at})`.execute(handle.db);
    await sql`insert into lessons (id, course_id, section_id, title, body_html, position,
        created_at, updated_at)
      values ('l', 'c', 's', 'Cleaving', '<p>The <strong>cleaver</strong> cuts.</p>', 0, ${at}, ${at})
    `.execute(handle.db);

    expect(await migrateToLatest(handle.db)).toContain('0013-search');
    const everything = [
      { type: 'course', where: sql<boolean>`1 = 1` },
      { type: 'lesson', where: sql<boolean>`1 = 1` },
    ];
    const found = await searchIndex(handle.db).search(handle.db, {
      query: 'cleavers',
      scopes: everything,
      offset: 0,
      limit: 10,
    });
    expect(found.hits).toMatchObject([
      { type: 'lesson', id: 'l', courseId: 'c', courseTitle: 'Fusion splicing' },
    ]);
    expect(found.hits[0]?.snippet.text).toBe('The cleaver cuts.');
    const course = await searchIndex(handle.db).search(handle.db, {
      query: 'fo-1 arc',
      scopes: everything,
      offset: 0,
      limit: 10,
    });
    expect(course.hits.map((h) => h.id)).toEqual(['c']);
  });

  it('extracts a lesson’s text as the live code does today (its frozen copy)', () => {
    for (const html of [
      '<p>The <strong>cleaver</strong> cuts.</p><p>Then&nbsp;splice &amp;lt;here&gt;.</p>',
      '<h2>Steps</h2><ul><li>Strip</li><li>Clean</li></ul><br/><pre>a\t \n</pre>',
      '<table><tr><td>1</td></tr></table><blockquote>q</blockquote><p></p><p></p><p></p>x',
    ]) {
      expect(plainTextOf(html)).toBe(richTextToPlainText(html));
    }
  });
});
