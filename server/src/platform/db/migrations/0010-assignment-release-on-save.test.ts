import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../index';
import { migrationProvider } from './index';

describe('migration 0010: releasing grades on save, per assignment', () => {
  let dir = '';
  let handle: DatabaseHandle | undefined;
  afterEach(async () => {
    await handle?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('leaves existing assignments releasing by hand', async () => {
    dir = mkdtempSync(join(tmpdir(), 'lh-m0010-'));
    handle = openDatabase({ kind: 'sqlite', path: join(dir, 'm.db') });
    const migrator = new Migrator({ db: handle.db, provider: migrationProvider });
    const before = await migrator.migrateTo('0008-enrolment-blocks');
    expect(before.error).toBeUndefined();
    const at = '2026-01-01T00:00:00.000Z';
    await sql`insert into courses (id, code, title, created_at) values ('c', 'C-1', 'C', ${at})`.execute(
      handle.db,
    );
    await sql`
      insert into assignments (id, course_id, title, points, submission_kinds, file_kinds,
        max_file_bytes, late_policy, grades_released, position, created_at, updated_at)
      values ('a', 'c', 'A', 10, '["text"]', '[]', 1024, 'mark_late', 0, 0, ${at}, ${at})
    `.execute(handle.db);

    expect(await migrateToLatest(handle.db)).toContain('0010-assignment-release-on-save');
    const { rows } = await sql<{ id: string; release_on_save: number }>`
      select id, release_on_save from assignments
    `.execute(handle.db);
    expect(rows).toEqual([{ id: 'a', release_on_save: 0 }]);
  });
});
