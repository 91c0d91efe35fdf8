import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../index';
import { migrationProvider } from './index';

describe('migration 0007: course codes unique whatever their case', () => {
  let dir = '';
  let handle: DatabaseHandle | undefined;
  afterEach(async () => {
    await handle?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('renames the later of two codes that differ only in case, then refuses such a pair', async () => {
    dir = mkdtempSync(join(tmpdir(), 'lh-m0007-'));
    handle = openDatabase({ kind: 'sqlite', path: join(dir, 'm.db') });
    const migrator = new Migrator({ db: handle.db, provider: migrationProvider });
    const before = await migrator.migrateTo('0006-classroom');
    expect(before.error).toBeUndefined();
    const add = (id: string, code: string, at: string) =>
      sql`insert into courses (id, code, title, created_at) values (${id}, ${code}, 'T', ${at})`.execute(
        handle!.db,
      );
    await add('a', 'FO-201', '2026-01-01T00:00:00.000Z');
    await add('b', 'fo-201', '2026-01-02T00:00:00.000Z');
    await add('c', 'Fo-201', '2026-01-03T00:00:00.000Z');
    await add('d', 'fo-201-2', '2026-01-04T00:00:00.000Z');

    expect(await migrateToLatest(handle.db)).toContain('0007-course-code-any-case');
    const { rows } = await sql<{ id: string; code: string }>`
      select id, code from courses order by id
    `.execute(handle.db);
    expect(rows).toEqual([
      { id: 'a', code: 'FO-201' },
      { id: 'b', code: 'fo-201-3' },
      { id: 'c', code: 'Fo-201-4' },
      { id: 'd', code: 'fo-201-2' },
    ]);
    await expect(add('e', 'FO-201-2', '2026-01-05T00:00:00.000Z')).rejects.toThrow(/UNIQUE/i);
  });
});
