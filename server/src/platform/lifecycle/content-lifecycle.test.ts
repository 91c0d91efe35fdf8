import { AppError } from '@learning-hub/core';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { libraryItemAdapter } from '../../modules/library/item-lifecycle';
import { wikiPageAdapter } from '../../modules/wiki/page-lifecycle';
import {
  createTestDatabase,
  TEST_DB_KIND,
  testDatabaseAvailable,
  type TestDatabase,
} from '../../test/helpers';
import type { Db } from '../db';
import { searchIndex } from '../search/search-index';
import type { FileService } from '../storage/file-service';
import { ContentLifecycle, type ContentAdapter, type LifecycleTarget } from './content-lifecycle';

const available = await testDatabaseAvailable();

/** A tiny content type of the test's own: a table, its followers, a child table, one unique key. */
interface Thing extends LifecycleTarget {
  title: string;
}

const AT = Date.parse('2026-11-22T09:00:00.000Z');

async function createThingTables(db: Db): Promise<void> {
  await sql`create table things (
    id text primary key, title text not null, deleted_at text, deleted_by text,
    updated_at text not null, updated_by text not null,
    view_count integer not null default 0, download_count integer not null default 0)`.execute(db);
  await sql`create unique index things_title on things (title) where deleted_at is null`.execute(
    db,
  );
  await sql`create table thing_notes (thing_id text not null, note text not null)`.execute(db);
  await sql`create table thing_follows (thing_id text not null, user_id text not null,
    created_at text not null, primary key (thing_id, user_id))`.execute(db);
}

/** The files `app.files` would own, as a list: listOwned and deleteOwned are all the lifecycle asks. */
function fakeFiles(owned: { id: string; owner: string }[]): FileService {
  return {
    listOwned: ({ id }: { id: string }) =>
      Promise.resolve(owned.filter((f) => f.owner === id).map((f) => ({ id: f.id }))),
    deleteOwned: (fileId: string) => {
      owned.splice(
        owned.findIndex((f) => f.id === fileId),
        1,
      );
      return Promise.resolve();
    },
  } as unknown as FileService;
}

describe.skipIf(!available)(`the content lifecycle over a fake adapter (${TEST_DB_KIND})`, () => {
  let database: TestDatabase;
  let db: Db;
  let files: { id: string; owner: string }[];
  let lifecycle: ContentLifecycle<Thing>;
  const indexed: string[] = [];

  const adapter: ContentAdapter<Thing> = {
    table: 'things',
    fileOwner: 'thing',
    searchType: 'thing',
    counters: ['view_count'],
    ownerOf: (thing) => thing.title,
    touchOnRestore: true,
    follows: { table: 'thing_follows', column: 'thing_id' },
    messages: {
      notFound: 'Thing not found',
      trashed: 'In the trash.',
      notTrashed: 'Not in the trash.',
      mayNotDelete: 'You may not delete this thing.',
      restoreTaken: (thing) => `“${thing.title}” is taken.`,
    },
    index: (_db, id) => {
      indexed.push(id);
      return Promise.resolve();
    },
    deleteDependents: async (trx, id) => {
      await sql`delete from thing_notes where thing_id = ${id}`.execute(trx);
    },
  };

  async function thing(id: string): Promise<Thing & Record<string, unknown>> {
    const { rows } = await sql<
      Record<string, unknown>
    >`select * from things where id = ${id}`.execute(db);
    const row = rows[0];
    if (!row) throw new Error(`no thing ${id}`);
    return { ...row, id, title: String(row.title), deletedAt: (row.deleted_at as string) ?? null };
  }

  async function addThing(id: string, title = id): Promise<Thing> {
    await sql`insert into things (id, title, updated_at, updated_by)
      values (${id}, ${title}, ${'2026-01-01T00:00:00.000Z'}, ${'author'})`.execute(db);
    await sql`insert into thing_notes (thing_id, note) values (${id}, ${'a note'})`.execute(db);
    files.push({ id: `${id}-file`, owner: id });
    return thing(id);
  }

  const refusal = async (promise: Promise<unknown>) => {
    const error = await promise.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AppError);
    return { code: (error as AppError).code, message: (error as AppError).message };
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    db = database.db;
    await createThingTables(db);
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    await sql`delete from things`.execute(db);
    await sql`delete from thing_notes`.execute(db);
    await sql`delete from thing_follows`.execute(db);
    files = [];
    indexed.length = 0;
    lifecycle = new ContentLifecycle(adapter, { db, files: fakeFiles(files) });
  });

  it('trashes once, after the permission, and reindexes in the same change', async () => {
    const a = await addThing('a');
    expect(await refusal(lifecycle.trash(a, 'admin', AT, () => false))).toEqual({
      code: 'FORBIDDEN',
      message: 'You may not delete this thing.',
    });
    expect((await thing('a')).deletedAt).toBeNull();
    await lifecycle.trash(a, 'admin', AT);
    const trashed = await thing('a');
    expect(trashed).toMatchObject({ deletedAt: '2026-11-22T09:00:00.000Z', deleted_by: 'admin' });
    expect(indexed).toEqual(['a']);
    // Asked again (the record read before the first trash, too): it is there already.
    expect(await refusal(lifecycle.trash(trashed, 'admin', AT))).toMatchObject({
      code: 'CONFLICT',
      message: 'In the trash.',
    });
    expect(await refusal(lifecycle.trash(a, 'admin', AT))).toMatchObject({ code: 'CONFLICT' });
  });

  it('restores what is in the trash, touching it, and says why a taken key refuses it', async () => {
    const a = await addThing('a', 'Same');
    await lifecycle.trash(a, 'admin', AT);
    await addThing('b', 'Same');
    expect(await refusal(lifecycle.restore(await thing('a'), 'admin', AT + 1))).toEqual({
      code: 'CONFLICT',
      message: '“Same” is taken.',
    });
    expect((await thing('a')).deletedAt).not.toBeNull();
    await sql`update things set title = 'Other' where id = 'b'`.execute(db);
    await lifecycle.restore(await thing('a'), 'restorer', AT + 1);
    expect(await thing('a')).toMatchObject({
      deletedAt: null,
      deleted_by: null,
      updated_by: 'restorer',
      updated_at: new Date(AT + 1).toISOString(),
    });
    expect(await refusal(lifecycle.restore(await thing('a'), 'admin', AT))).toEqual({
      code: 'CONFLICT',
      message: 'Not in the trash.',
    });
  });

  it('purges only what is in the trash, with its rows, followers, search document and files', async () => {
    const a = await addThing('a');
    await addThing('b');
    await lifecycle.setFollowing(a, 'reader', true, AT);
    expect(await refusal(lifecycle.purge(a))).toEqual({
      code: 'CONFLICT',
      message: 'Not in the trash.',
    });
    await lifecycle.trash(a, 'admin', AT);
    await searchIndex(db).upsert(db, {
      type: 'thing',
      id: 'a',
      courseId: null,
      departmentId: null,
      title: 'a',
      body: '',
    });
    await lifecycle.purge(await thing('a'));
    const left = async (table: string) =>
      (
        await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)}
        where ${sql.ref(table === 'things' ? 'id' : 'thing_id')} = 'a'`.execute(db)
      ).rows[0]?.n;
    expect(Number(await left('things'))).toBe(0);
    expect(Number(await left('thing_notes'))).toBe(0);
    expect(Number(await left('thing_follows'))).toBe(0);
    const documents = await sql<{ n: number | string }>`select count(*) as n from search_documents
      where doc_type = 'thing'`.execute(db);
    expect(Number(documents.rows[0]?.n)).toBe(0);
    expect(files.map((f) => f.id)).toEqual(['b-file']);
    // Read before it went: gone meanwhile is a 404.
    expect(await refusal(lifecycle.purge({ ...a, deletedAt: 'x' }))).toMatchObject({
      code: 'NOT_FOUND',
    });
  });

  it('empties the trash and nothing else', async () => {
    for (const id of ['a', 'b', 'c']) await addThing(id);
    await lifecycle.trash(await thing('a'), 'admin', AT);
    await lifecycle.trash(await thing('c'), 'admin', AT);
    expect(await lifecycle.emptyTrash()).toBe(2);
    expect(files.map((f) => f.id)).toEqual(['b-file']);
    expect((await thing('b')).deletedAt).toBeNull();
    expect(await lifecycle.emptyTrash()).toBe(0);
  });

  it('counts the counters it keeps, not in the trash', async () => {
    const a = await addThing('a');
    await lifecycle.count('a', 'view_count');
    await lifecycle.count('a', 'view_count');
    expect(Number((await thing('a')).view_count)).toBe(2);
    // A view by its owner (here: named by its title) is not counted; anyone else's is.
    await lifecycle.view(a, 'a');
    expect(Number((await thing('a')).view_count)).toBe(2);
    await lifecycle.view(a, 'reader');
    expect(Number((await thing('a')).view_count)).toBe(3);
    await expect(lifecycle.count('a', 'download_count')).rejects.toThrow('keeps no download_count');
    await lifecycle.trash(a, 'admin', AT);
    expect(await refusal(lifecycle.count('a', 'view_count'))).toEqual({
      code: 'NOT_FOUND',
      message: 'Thing not found',
    });
  });

  it('follows and stops following once each, and not what is in the trash', async () => {
    const a = await addThing('a');
    expect(await lifecycle.setFollowing(a, 'r1', true, AT)).toEqual({
      following: true,
      followerCount: 1,
      created: true,
    });
    expect(await lifecycle.setFollowing(a, 'r1', true, AT)).toEqual({
      following: true,
      followerCount: 1,
      created: false,
    });
    expect(await lifecycle.setFollowing(a, 'r2', true, AT)).toEqual({
      following: true,
      followerCount: 2,
      created: true,
    });
    expect(await lifecycle.setFollowing(a, 'r1', false, AT)).toEqual({
      following: false,
      followerCount: 1,
      created: false,
    });
    expect(await lifecycle.setFollowing(a, 'r1', false, AT)).toEqual({
      following: false,
      followerCount: 1,
      created: false,
    });
    await lifecycle.trash(a, 'admin', AT);
    expect(await refusal(lifecycle.setFollowing(await thing('a'), 'r1', true, AT))).toEqual({
      code: 'NOT_FOUND',
      message: 'Thing not found',
    });
  });
});

describe.skipIf(!available)(`the real content adapters (${TEST_DB_KIND})`, () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.close());

  // Their behaviour through HTTP is the library's and the wiki's tests; here, that what each
  // declares names real tables and columns (every statement the lifecycle writes runs once).
  it.each([
    ['library item', libraryItemAdapter as ContentAdapter],
    ['wiki page', wikiPageAdapter as ContentAdapter],
  ])('the %s adapter names its real table, counters and followers', async (_name, adapter) => {
    const lifecycle = new ContentLifecycle(adapter, { db: database.db, files: fakeFiles([]) });
    expect(await lifecycle.emptyTrash()).toBe(0);
    for (const counter of adapter.counters) {
      expect(await refusal(lifecycle.count('missing', counter))).toBe('NOT_FOUND');
    }
    const ghost = { id: 'missing', deletedAt: null };
    expect(await refusal(lifecycle.trash(ghost, 'u', AT))).toBe('CONFLICT');
    expect(await refusal(lifecycle.restore({ ...ghost, deletedAt: 'x' }, 'u', AT))).toBe(
      'CONFLICT',
    );
    if (adapter.follows) {
      expect(await lifecycle.followState('missing', 'u')).toEqual({
        following: false,
        followerCount: 0,
      });
    }
  });

  const refusal = async (promise: Promise<unknown>) =>
    promise.then(
      () => null,
      (e: unknown) => (e instanceof AppError ? e.code : e),
    );
});
