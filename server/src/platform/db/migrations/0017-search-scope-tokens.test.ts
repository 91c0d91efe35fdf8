import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import { afterEach, describe, expect, it } from 'vitest';
import { typeToken } from '../../search/scope-tokens';
import { openDatabase, type DatabaseHandle } from '../index';
import { migrationProvider } from './index';

describe('migration 0017: the search index’s type tokens (SQLite)', () => {
  let dir = '';
  let handle: DatabaseHandle | undefined;
  afterEach(async () => {
    await handle?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('gives the documents that exist the token the live code looks for today', async () => {
    dir = mkdtempSync(join(tmpdir(), 'lh-m0017-'));
    handle = openDatabase({ kind: 'sqlite', path: join(dir, 'm.db') });
    const migrator = new Migrator({ db: handle.db, provider: migrationProvider });
    expect((await migrator.migrateTo('0016-search-scope-index')).error).toBeUndefined();
    await sql`insert into search_documents (doc_type, doc_id, title, body)
      values ('course', 'c', 'Fusion splicing', 'Arcs')`.execute(handle.db);
    expect((await migrator.migrateTo('0017-search-scope-tokens')).error).toBeUndefined();
    const { rows } = await sql<{ scope: string }>`select scope from search_documents`.execute(
      handle.db,
    );
    // The migration keeps its own copy of the token (it is frozen): while the live format is the
    // same, the two agree; a new format needs a new migration, and this test says so.
    expect(rows).toEqual([{ scope: typeToken('course') }]);
  });
});
