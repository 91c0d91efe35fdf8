import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '.';
import { sql, type RawBuilder } from 'kysely';
import { writtenTables } from './change-tracker';

describe('writtenTables', () => {
  const handle = openDatabase({ kind: 'sqlite', path: ':memory:' });
  const { db } = handle;
  const node = (q: { toOperationNode(): unknown }) =>
    q.toOperationNode() as Parameters<typeof writtenTables>[0];

  it('sees inserts, updates and deletes, and nothing in selects', () => {
    expect(writtenTables(node(db.selectFrom('users').selectAll()))).toEqual([]);
    expect(writtenTables(node(db.insertInto('sessions').values({} as never)))).toEqual([
      'sessions',
    ]);
    expect(writtenTables(node(db.updateTable('users').set({ role: 'admin' })))).toEqual(['users']);
    expect(writtenTables(node(db.deleteFrom('departments')))).toEqual(['departments']);
    expect(writtenTables(node(db.updateTable('sessions as s').set({ revoked_at: 'x' })))).toEqual([
      'sessions',
    ]);
  });

  it("ignores only a session's last-used time", () => {
    expect(writtenTables(node(db.updateTable('sessions').set({ last_used_at: 'x' })))).toEqual([]);
    expect(
      writtenTables(node(db.updateTable('sessions').set({ last_used_at: 'x', revoked_at: 'y' }))),
    ).toEqual(['sessions']);
  });

  it('sees the table of one raw insert, update or delete, and assumes any other raw write touches everything', () => {
    const raw = (q: RawBuilder<unknown>) =>
      q.toOperationNode() as Parameters<typeof writtenTables>[0];
    expect(
      writtenTables(
        raw(sql`
    insert into search_documents (doc_type, doc_id) values (${'a'}, ${'b'})
    on conflict (doc_type, doc_id) do update set title = excluded.title`),
      ),
    ).toEqual(['search_documents']);
    expect(writtenTables(raw(sql`update "users" set role = ${'x'}`))).toEqual(['users']);
    expect(writtenTables(raw(sql`delete from sessions where id = ${'x'}`))).toEqual(['sessions']);
    expect(writtenTables(raw(sql`select 1`))).toEqual([]);
    expect(writtenTables(raw(sql`vacuum`))).toEqual(['*']);
    expect(writtenTables(raw(sql`delete from sessions; delete from users`))).toEqual(['*']);
  });

  it('assumes schema changes touch everything', () => {
    expect(writtenTables(node(db.schema.createTable('x').addColumn('a', 'text')))).toEqual(['*']);
  });
});

describe('change tracking on SQLite', () => {
  let dir: string;
  let a: DatabaseHandle;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'lh-ct-'));
    a = openDatabase({ kind: 'sqlite', path: join(dir, 'x.db') });
    await migrateToLatest(a.db);
  });
  afterEach(async () => {
    await a.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('changes the version on writes to the watched tables only', async () => {
    const tables = ['users', 'departments'];
    const v0 = a.changes?.version(tables);
    await a.db.selectFrom('users').selectAll().execute();
    expect(a.changes?.version(tables)).toBe(v0);
    await a.db
      .insertInto('login_throttle')
      .values({ key: 'k', failures: 1, last_failure_at: 'x', blocked_until: null })
      .execute();
    expect(a.changes?.version(tables)).toBe(v0);
    await a.db
      .insertInto('departments')
      .values({ id: 'd', name: 'D', description: '', created_at: 'x' })
      .execute();
    expect(a.changes?.version(tables)).not.toBe(v0);
  });

  it('sees writes made by another connection (another process, e.g. the admin CLI)', async () => {
    const b = openDatabase({ kind: 'sqlite', path: join(dir, 'x.db') });
    try {
      const v0 = a.changes?.version(['users']);
      await b.db
        .insertInto('login_throttle')
        .values({ key: 'k', failures: 1, last_failure_at: 'x', blocked_until: null })
        .execute();
      await new Promise((r) => setTimeout(r, 2));
      expect(a.changes?.version(['users'])).not.toBe(v0);
    } finally {
      await b.close();
    }
  });

  it('reports null on PostgreSQL, where other instances write unseen', () => {
    const pg = openDatabase({ kind: 'postgres', url: 'postgres://nobody@127.0.0.1:1/none' });
    expect(pg.changes).toBeNull();
    void pg.close();
  });
});
