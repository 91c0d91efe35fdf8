import { STALE_REVISION_MESSAGE, type LibraryItem, type LibraryList } from '@learning-hub/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { grantUserPermission, upsertAssignment } from '../../platform/access/access-repository';
import { insertCourse } from '../courses/course-repository';
import { PDF_HEAD, PNG_1X1, multipartBody } from '../../platform/storage/test-files';
import {
  bearer,
  createTestApp,
  createTestUser,
  signIn,
  testDatabaseAvailable,
  TEST_DB_KIND,
  type TestContext,
} from '../../test/helpers';

const available = await testDatabaseAvailable();

const FIELD = 'field-operations';
const COURSE = 'splicing-101';
const OTHER_COURSE = 'safety-201';

interface Person {
  id: string;
  token: string;
}

describe.skipIf(!available)(`library (${TEST_DB_KIND})`, () => {
  let ctx: TestContext;
  let ada: Person; // admin
  let priya: Person; // instructor in Field Operations, may trash her own items
  let omar: Person; // instructor in Customer Support
  let sam: Person; // student in Field Operations, enrolled in COURSE
  let kim: Person; // student in Customer Support, enrolled in OTHER_COURSE only

  beforeEach(async () => {
    ctx = await createTestApp({ env: { JOBS_POLL_INTERVAL_MS: '20' } });
    const db = ctx.database.db;
    const at = new Date(ctx.clock.now()).toISOString();
    const make = async (username: string, role: string, department: string) => {
      const { user, password } = await createTestUser(ctx, {
        username,
        role,
        department,
        firstname: username[0]?.toUpperCase() + username.slice(1),
        lastname: 'Tester',
      });
      return { id: user.id, password };
    };
    const a = await make('ada', 'admin', 'Network Engineering');
    const p = await make('priya', 'instructor', 'Field Operations');
    const o = await make('omar', 'instructor', 'Customer Support');
    const s = await make('sam', 'student', 'Field Operations');
    const k = await make('kim', 'student', 'Customer Support');
    await insertCourse(
      db,
      { id: COURSE, code: 'SP-101', title: 'Splicing', description: '', departmentId: FIELD },
      at,
    );
    await insertCourse(
      db,
      { id: OTHER_COURSE, code: 'SF-201', title: 'Safety', description: '', departmentId: null },
      at,
    );
    const enrol = (userId: string, courseId: string) =>
      upsertAssignment(db, {
        userId,
        context: { type: 'course', courseId },
        roles: ['course-student'],
        directPermissions: [],
        assignedBy: 'test',
        assignedAt: at,
        expiresAt: null,
        isActive: true,
      });
    await enrol(s.id, COURSE);
    await enrol(k.id, OTHER_COURSE);
    await grantUserPermission(db, p.id, 'library.delete', null, at);
    const token = async (username: string, who: { id: string; password: string }) => ({
      id: who.id,
      token: await signIn(ctx.app, username, who.password),
    });
    ada = await token('ada', a);
    priya = await token('priya', p);
    omar = await token('omar', o);
    sam = await token('sam', s);
    kim = await token('kim', k);
  });

  afterEach(async () => {
    await ctx.close();
  });

  const send = (
    who: Person | null,
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    payload?: unknown,
  ) =>
    ctx.app.inject({
      method,
      url,
      headers: who ? bearer(who.token) : {},
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  async function upload(who: Person, name: string, content: Buffer | string, type?: string) {
    const body = multipartBody(name, content, type);
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/files',
      headers: { ...bearer(who.token), ...body.headers },
      payload: body.payload,
    });
    expect(response.statusCode, response.body).toBe(201);
    return (response.json() as { id: string }).id;
  }

  async function create(who: Person, payload: Record<string, unknown>): Promise<LibraryItem> {
    const response = await send(who, 'POST', '/api/library/items', payload);
    expect(response.statusCode, response.body).toBe(201);
    const item = response.json() as LibraryItem;
    expect(response.headers.location).toBe(`/api/library/items/${item.id}`);
    return item;
  }

  const list = async (who: Person, query = '') => {
    const response = await send(who, 'GET', `/api/library/items${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as LibraryList;
  };

  const searchIds = async (who: Person, q: string) => {
    const response = await send(
      who,
      'GET',
      `/api/search?type=library-item&q=${encodeURIComponent(q)}`,
    );
    expect(response.statusCode, response.body).toBe(200);
    return (response.json() as { items: { id: string; courseId: string | null }[] }).items;
  };

  it('adds, lists, shows and changes items; filters, sorts and pages the list', async () => {
    const cat = await send(ada, 'POST', '/api/library/categories', { name: 'Procedures' });
    expect(cat.statusCode).toBe(201);
    const categoryId = (cat.json() as { id: string }).id;
    const link = await create(priya, {
      title: 'OTDR vendor manual',
      url: 'https://example.com/otdr',
      tags: ['OTDR', 'manual', 'otdr'],
      categoryId,
      scope: { type: 'everyone' },
    });
    expect(link).toMatchObject({
      kind: 'link',
      url: 'https://example.com/otdr',
      file: null,
      tags: ['manual', 'otdr'],
      category: { id: categoryId, name: 'Procedures' },
      scope: { type: 'everyone' },
      scopeLabel: null,
      version: 1,
      textState: 'none',
      viewCount: 0,
      createdBy: { id: priya.id, name: 'Priya Tester' },
      deletedAt: null,
      can: { edit: true, delete: true, restore: false, purge: false },
    });
    const fileId = await upload(priya, 'splice.png', PNG_1X1);
    const image = await create(priya, {
      title: 'Splice tray photo',
      fileId,
      scope: { type: 'department', departmentId: FIELD },
    });
    expect(image).toMatchObject({
      kind: 'image',
      url: null,
      file: { fileId, name: 'splice.png', mime: 'image/png', hasThumbnail: true },
      scope: { type: 'department', departmentId: FIELD },
      scopeLabel: 'Field Operations',
    });

    const all = await list(sam);
    expect(all).toMatchObject({ total: 2, canUpload: false, canManage: false });
    expect(all.items.map((i) => i.title)).toEqual(['Splice tray photo', 'OTDR vendor manual']);
    expect((await list(sam, '?sort=title')).items.map((i) => i.title)).toEqual([
      'OTDR vendor manual',
      'Splice tray photo',
    ]);
    expect((await list(sam, '?kind=link')).items.map((i) => i.id)).toEqual([link.id]);
    expect((await list(sam, '?tag=OTDR')).items.map((i) => i.id)).toEqual([link.id]);
    expect((await list(sam, `?categoryId=${categoryId}`)).total).toBe(1);
    expect((await list(sam, '?scope=department')).items.map((i) => i.id)).toEqual([image.id]);
    expect((await list(sam, `?departmentId=${FIELD}`)).total).toBe(1);
    expect((await list(sam, '?search=vendor')).items.map((i) => i.id)).toEqual([link.id]);
    expect((await list(sam, '?search=%2A%2A')).total).toBe(0);
    expect((await list(priya, '?mine=true')).total).toBe(2);
    expect((await list(sam, '?mine=true')).total).toBe(0);
    const paged = await list(sam, '?pageSize=1&page=2');
    expect(paged).toMatchObject({ total: 2, page: 2, pageSize: 1 });
    expect(paged.items).toHaveLength(1);
    expect((await list(sam, '?pageSize=1&page=9')).total).toBe(2);
    expect(await list(priya)).toMatchObject({ canUpload: true, canManage: false });
    expect(await list(ada)).toMatchObject({ canUpload: true, canManage: true });

    expect(link.revision).toBe(1);
    const changed = await send(priya, 'PATCH', `/api/library/items/${link.id}`, {
      title: 'OTDR manual (2026)',
      tags: ['otdr'],
      categoryId: null,
      url: 'https://example.com/otdr-2026',
      revision: 1,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({
      title: 'OTDR manual (2026)',
      tags: ['otdr'],
      category: null,
      url: 'https://example.com/otdr-2026',
      revision: 2,
    });
    expect((await searchIds(sam, 'manual 2026')).map((r) => r.id)).toEqual([link.id]);

    // Students read; they neither add nor change. Another instructor may not change Priya's.
    const shown = await send(sam, 'GET', `/api/library/items/${link.id}`);
    expect(shown.statusCode).toBe(200);
    expect(shown.json()).toMatchObject({
      can: { edit: false, delete: false, restore: false, purge: false },
    });
    expect(
      (await send(sam, 'PATCH', `/api/library/items/${link.id}`, { title: 'x', revision: 2 }))
        .statusCode,
    ).toBe(403);
    expect(
      (
        await send(sam, 'POST', '/api/library/items', {
          title: 'x',
          url: 'https://a.b',
          scope: { type: 'everyone' },
        })
      ).statusCode,
    ).toBe(403);
    const refused = await send(omar, 'PATCH', `/api/library/items/${link.id}`, {
      title: 'x',
      revision: 2,
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ message: 'You may not change this item.' });
    // library.manage (admin) changes anyone's.
    expect(
      (await send(ada, 'PATCH', `/api/library/items/${link.id}`, { title: 'Manual', revision: 2 }))
        .statusCode,
    ).toBe(200);
    expect((await send(sam, 'GET', '/api/library/items/no-such-item')).statusCode).toBe(404);
  });

  it('of two changes based on the same revision at once, exactly one lands', async () => {
    const item = await create(priya, {
      title: 'Splice trays',
      url: 'https://trays.example',
      scope: { type: 'everyone' },
    });
    const url = `/api/library/items/${item.id}`;
    const both = await Promise.all([
      send(priya, 'PATCH', url, { title: 'Priya’s title', revision: item.revision }),
      send(ada, 'PATCH', url, { title: 'Ada’s title', revision: item.revision }),
    ]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const [won, lost] = both[0]?.statusCode === 200 ? both : [both[1], both[0]];
    expect(lost?.json()).toEqual({ code: 'CONFLICT', message: STALE_REVISION_MESSAGE });
    const now = (await send(sam, 'GET', url)).json() as LibraryItem;
    expect(now).toMatchObject({ title: won?.json().title, revision: item.revision + 1 });
    // A stale revision changes nothing, even alone; the one read now goes through.
    const stale = await send(priya, 'PATCH', url, { title: 'Late', revision: item.revision });
    expect(stale.statusCode).toBe(409);
    expect(
      (await send(priya, 'PATCH', url, { title: 'Late', revision: now.revision })).json(),
    ).toMatchObject({ title: 'Late', revision: now.revision + 1 });
    // Without a revision it is no change at all.
    const blind = await send(priya, 'PATCH', url, { title: 'Blind' });
    expect(blind.statusCode).toBe(400);
    expect(blind.json().details.issues[0].path).toBe('body.revision');
  });

  it('keeps every version of a replaced file; of two replacing at once, one lands', async () => {
    const first = await upload(priya, 'plan-v1.txt', 'first plan');
    const item = await create(priya, {
      title: 'Plan',
      fileId: first,
      scope: { type: 'everyone' },
    });
    expect(item).toMatchObject({ kind: 'document', version: 1, textState: 'pending' });
    const second = await upload(priya, 'plan-v2.png', PNG_1X1);
    const replaced = await send(priya, 'PATCH', `/api/library/items/${item.id}`, {
      fileId: second,
      revision: 1,
    });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json()).toMatchObject({
      kind: 'image',
      version: 2,
      file: { fileId: second },
      textState: 'none',
      revision: 2,
    });
    const [a, b] = [await upload(priya, 'a.txt', 'a'), await upload(priya, 'b.txt', 'b')];
    const both = await Promise.all([
      send(priya, 'PATCH', `/api/library/items/${item.id}`, { fileId: a, revision: 2 }),
      send(priya, 'PATCH', `/api/library/items/${item.id}`, { fileId: b, revision: 2 }),
    ]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const [winner, loser] = both[0]?.statusCode === 200 ? [a, b] : [b, a];
    const versions = await send(sam, 'GET', `/api/library/items/${item.id}/versions`);
    expect(versions.statusCode).toBe(200);
    const list = (
      versions.json() as {
        items: { version: number; current: boolean; file: { fileId: string } }[];
      }
    ).items;
    expect(list.map((v) => v.version)).toEqual([3, 2, 1]);
    expect(list.filter((v) => v.current).map((v) => v.version)).toEqual([3]);
    expect(list[0]?.file.fileId).toBe(winner);
    // Every version's file stays readable (attached to the item); the refused one is gone.
    for (const v of list) {
      expect((await send(sam, 'GET', `/api/files/${v.file.fileId}`)).statusCode).toBe(200);
    }
    expect((await send(priya, 'GET', `/api/files/${loser}`)).statusCode).toBe(404);
    // Attaching the same upload again is refused; a link takes no file, a file no address.
    const again = await send(priya, 'PATCH', `/api/library/items/${item.id}`, {
      fileId: winner,
      revision: 3,
    });
    expect(again.statusCode).toBe(409);
    const noUrl = await send(priya, 'PATCH', `/api/library/items/${item.id}`, {
      url: 'https://x.y',
      revision: 3,
    });
    expect(noUrl.statusCode).toBe(400);
    const link = await create(priya, {
      title: 'L',
      url: 'https://x.y',
      scope: { type: 'everyone' },
    });
    const noFile = await send(priya, 'PATCH', `/api/library/items/${link.id}`, {
      fileId: await upload(priya, 'c.txt', 'c'),
      revision: 1,
    });
    expect(noFile.statusCode).toBe(400);
    expect((await send(sam, 'GET', `/api/library/items/${link.id}/versions`)).json()).toEqual({
      items: [],
      total: 0,
      page: 1,
      pageSize: 100,
    });
  });

  it('trashes, restores and purges (with the files); empties the trash', async () => {
    const fileId = await upload(priya, 'notes.txt', 'ferrule cleaning notes');
    const item = await create(priya, {
      title: 'Ferrule notes',
      fileId,
      scope: { type: 'everyone' },
    });
    const url = `/api/library/items/${item.id}`;
    expect((await send(omar, 'DELETE', url)).statusCode).toBe(403);
    const trashed = await send(priya, 'DELETE', url);
    expect(trashed.statusCode, trashed.body).toBe(204);
    expect(trashed.body).toBe('');
    // The item in the trash, as its owner reads it now.
    expect((await send(priya, 'GET', url)).json()).toMatchObject({
      deletedAt: expect.any(String),
      deletedBy: { id: priya.id },
      can: { edit: false, delete: false, restore: true, purge: false },
    });
    expect((await send(priya, 'DELETE', url)).statusCode).toBe(409);
    expect((await list(sam)).total).toBe(0);
    expect(await searchIds(sam, 'ferrule')).toEqual([]);
    expect((await send(sam, 'GET', url)).statusCode).toBe(404);
    expect((await send(sam, 'GET', `/api/files/${fileId}`)).statusCode).toBe(403);
    expect((await list(priya, '?trash=true')).items.map((i) => i.id)).toEqual([item.id]);
    expect((await list(omar, '?trash=true')).total).toBe(0);
    expect((await list(ada, '?trash=true')).total).toBe(1);
    expect((await list(ada, '?trash=true&search=RULE')).total).toBe(1);
    expect((await list(ada, '?trash=true&search=%25')).total).toBe(0);
    const inTrash = await send(priya, 'PATCH', url, { title: 'x', revision: item.revision });
    expect(inTrash.statusCode).toBe(409);
    expect(inTrash.json().message).toBe('This item is in the trash; restore it first.');

    const restored = await send(priya, 'POST', `${url}/restore`);
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json()).toMatchObject({ deletedAt: null, deletedBy: null });
    expect((await send(priya, 'POST', `${url}/restore`)).statusCode).toBe(409);
    expect((await searchIds(sam, 'ferrule')).map((r) => r.id)).toEqual([item.id]);

    // Purging is for the trash, and for library.manage.
    expect((await send(ada, 'DELETE', `/api/library/trash/${item.id}`)).statusCode).toBe(409);
    expect((await send(priya, 'DELETE', url)).statusCode).toBe(204);
    expect((await send(priya, 'DELETE', `/api/library/trash/${item.id}`)).statusCode).toBe(403);
    expect((await send(ada, 'DELETE', `/api/library/trash/${item.id}`)).statusCode).toBe(204);
    expect((await send(ada, 'GET', url)).statusCode).toBe(404);
    expect((await send(priya, 'GET', `/api/files/${fileId}`)).statusCode).toBe(404);

    const other = await create(priya, {
      title: 'Old',
      url: 'https://old.example',
      scope: { type: 'everyone' },
    });
    const withFile = await create(priya, {
      title: 'Old file',
      fileId: await upload(priya, 'old.txt', 'old'),
      scope: { type: 'everyone' },
    });
    await send(priya, 'DELETE', `/api/library/items/${other.id}`);
    await send(priya, 'DELETE', `/api/library/items/${withFile.id}`);
    expect((await send(priya, 'DELETE', '/api/library/trash')).statusCode).toBe(403);
    expect((await send(ada, 'DELETE', '/api/library/trash')).statusCode).toBe(204);
    expect((await list(ada, '?trash=true')).total).toBe(0);
    expect((await send(priya, 'GET', `/api/files/${withFile.file?.fileId ?? ''}`)).statusCode).toBe(
      404,
    );
  });

  it('manages categories: unique names whatever the case, counts, deleting keeps the items', async () => {
    expect(
      (await send(priya, 'POST', '/api/library/categories', { name: 'Safety' })).statusCode,
    ).toBe(403);
    const made = await send(ada, 'POST', '/api/library/categories', { name: 'Safety' });
    expect(made.statusCode).toBe(201);
    expect(made.json()).toMatchObject({ id: expect.any(String), name: 'Safety', itemCount: 0 });
    const id = (made.json() as { id: string }).id;
    expect(
      (await send(ada, 'POST', '/api/library/categories', { name: 'SAFETY' })).statusCode,
    ).toBe(409);
    expect((await send(ada, 'POST', '/api/library/categories', { name: '' })).statusCode).toBe(400);
    const tools = await send(ada, 'POST', '/api/library/categories', { name: 'Tools' });
    expect(
      (await send(ada, 'PATCH', `/api/library/categories/${id}`, { name: 'tools' })).statusCode,
    ).toBe(409);
    const renamed = await send(ada, 'PATCH', `/api/library/categories/${id}`, {
      name: 'Site safety',
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ name: 'Site safety' });
    expect(
      (await send(ada, 'PATCH', '/api/library/categories/nope', { name: 'X' })).statusCode,
    ).toBe(404);
    const item = await create(priya, {
      title: 'Hard hats',
      url: 'https://hats.example',
      categoryId: id,
      scope: { type: 'everyone' },
    });
    const listed = await send(sam, 'GET', '/api/library/categories');
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toEqual({
      items: [
        { id, name: 'Site safety', itemCount: 1 },
        { id: (tools.json() as { id: string }).id, name: 'Tools', itemCount: 0 },
      ],
      total: 2,
      page: 1,
      pageSize: 200,
    });
    // One page of one: the rest is a Link away.
    const first = await send(sam, 'GET', '/api/library/categories?pageSize=1');
    expect(first.json()).toMatchObject({ items: [{ id }], total: 2, page: 1, pageSize: 1 });
    expect(first.headers.link).toBe(
      '</api/library/categories?pageSize=1&page=1>; rel="first", ' +
        '</api/library/categories?pageSize=1&page=2>; rel="next", ' +
        '</api/library/categories?pageSize=1&page=2>; rel="last"',
    );
    expect((await send(ada, 'DELETE', `/api/library/categories/${id}`)).statusCode).toBe(204);
    expect((await send(ada, 'DELETE', `/api/library/categories/${id}`)).statusCode).toBe(404);
    expect((await send(sam, 'GET', `/api/library/items/${item.id}`)).json()).toMatchObject({
      category: null,
    });
  });

  it("counts in a category only the items the caller may open (the list's rule)", async () => {
    const made = await send(ada, 'POST', '/api/library/categories', { name: 'Splicing' });
    const categoryId = (made.json() as { id: string }).id;
    const add = (title: string, scope: Record<string, string>) =>
      create(ada, { title, url: 'https://splice.example', categoryId, scope });
    await add('For everyone', { type: 'everyone' });
    await add('Field only', { type: 'department', departmentId: FIELD });
    await add('Course only', { type: 'course', courseId: COURSE });
    const trashed = await add('Trashed', { type: 'everyone' });
    expect((await send(ada, 'DELETE', `/api/library/items/${trashed.id}`)).statusCode).toBe(204);
    const counts = async (who: Person) => {
      const response = await send(who, 'GET', '/api/library/categories');
      expect(response.statusCode).toBe(200);
      const { items: categories } = response.json() as { items: { itemCount: number }[] };
      return [
        categories.map((c) => c.itemCount),
        (await list(who, `?categoryId=${categoryId}`)).total,
      ];
    };
    // Sam is in Field Operations and the course; Kim in neither; Ada sees all but the trash.
    expect(await counts(sam)).toEqual([[3], 3]);
    expect(await counts(kim)).toEqual([[1], 1]);
    expect(await counts(ada)).toEqual([[3], 3]);
    const renamed = await send(kim, 'PATCH', `/api/library/categories/${categoryId}`, {
      name: 'Joints',
    });
    expect(renamed.statusCode).toBe(403);
  });

  it('counts views and downloads atomically; a download is a signed attachment URL', async () => {
    const fileId = await upload(priya, 'guide.pdf', PDF_HEAD);
    const item = await create(priya, { title: 'Guide', fileId, scope: { type: 'everyone' } });
    expect(item).toMatchObject({ kind: 'document', textState: 'pending' });
    const url = `/api/library/items/${item.id}`;
    const views = await Promise.all(
      Array.from({ length: 5 }, () => send(sam, 'POST', `${url}/view`)),
    );
    expect(views.map((r) => r.statusCode)).toEqual([204, 204, 204, 204, 204]);
    // The owner's own visit is answered but not counted.
    expect((await send(priya, 'POST', `${url}/view`)).statusCode).toBe(204);
    const download = await send(sam, 'GET', `${url}/download`);
    expect(download.statusCode).toBe(303);
    const location = String(download.headers.location);
    expect(location).toMatch(new RegExp(`^/api/files/${fileId}\\?exp=.*&download=1$`));
    const file = await ctx.app.inject({ method: 'GET', url: location });
    expect(file.statusCode).toBe(200);
    expect(String(file.headers['content-disposition'])).toMatch(/^attachment;/);
    expect((await send(sam, 'GET', `${url}/download?version=1`)).statusCode).toBe(303);
    expect((await send(sam, 'GET', `${url}/download?version=7`)).statusCode).toBe(404);
    const shown = (await send(sam, 'GET', url)).json() as LibraryItem;
    expect(shown).toMatchObject({ viewCount: 5, downloadCount: 2 });
    expect((await list(sam, '?sort=views')).items[0]?.id).toBe(item.id);
    // A link's download opens its address.
    const link = await create(priya, {
      title: 'Site',
      url: 'https://site.example/a',
      scope: { type: 'everyone' },
    });
    const opened = await send(sam, 'GET', `/api/library/items/${link.id}/download`);
    expect(opened.statusCode).toBe(303);
    expect(opened.headers.location).toBe('https://site.example/a');
  });

  it('never shows a department or course item to people outside it', async () => {
    const photo = await upload(priya, 'tray.png', PNG_1X1);
    const department = await create(priya, {
      title: 'Zephyr cabinet layout',
      fileId: photo,
      scope: { type: 'department', departmentId: FIELD },
    });
    const exercise = await upload(priya, 'exercise.png', PNG_1X1);
    const course = await create(priya, {
      title: 'Zephyr splice exercise',
      fileId: exercise,
      scope: { type: 'course', courseId: COURSE },
    });
    expect(course).toMatchObject({
      scopeLabel: 'Splicing',
      scope: { type: 'course', courseId: COURSE },
    });
    const everyone = await create(priya, {
      title: 'Zephyr glossary',
      url: 'https://g.example',
      scope: { type: 'everyone' },
    });

    // Sam: a member of Field Operations and a learner of the course: sees all three.
    expect((await list(sam)).items.map((i) => i.id).sort()).toEqual(
      [department.id, course.id, everyone.id].sort(),
    );
    const samFinds = await searchIds(sam, 'zephyr');
    expect(samFinds.map((r) => r.id).sort()).toEqual(
      [department.id, course.id, everyone.id].sort(),
    );
    expect(samFinds.find((r) => r.id === course.id)?.courseId).toBe(COURSE);
    expect(samFinds.find((r) => r.id === department.id)?.courseId).toBeNull();
    expect((await send(sam, 'GET', `/api/files/${photo}/thumbnail`)).statusCode).toBe(200);
    expect((await send(sam, 'GET', `/api/files/${exercise}/thumbnail`)).statusCode).toBe(200);

    // Kim: another department, a learner of another course: only the item of everyone.
    for (const outsider of [kim]) {
      expect((await list(outsider)).items.map((i) => i.id)).toEqual([everyone.id]);
      expect((await list(outsider, `?departmentId=${FIELD}`)).total).toBe(0);
      expect((await list(outsider, `?courseId=${COURSE}`)).total).toBe(0);
      expect((await list(outsider, '?search=zephyr')).items.map((i) => i.id)).toEqual([
        everyone.id,
      ]);
      expect((await searchIds(outsider, 'zephyr')).map((r) => r.id)).toEqual([everyone.id]);
      const all = await send(outsider, 'GET', '/api/search?q=zephyr');
      expect((all.json() as { total: number }).total).toBe(1);
      for (const item of [department, course]) {
        expect((await send(outsider, 'GET', `/api/library/items/${item.id}`)).statusCode).toBe(404);
        expect(
          (await send(outsider, 'GET', `/api/library/items/${item.id}/versions`)).statusCode,
        ).toBe(404);
        expect(
          (await send(outsider, 'POST', `/api/library/items/${item.id}/view`)).statusCode,
        ).toBe(404);
        expect(
          (await send(outsider, 'GET', `/api/library/items/${item.id}/download`)).statusCode,
        ).toBe(404);
      }
      for (const fileId of [photo, exercise]) {
        expect((await send(outsider, 'GET', `/api/files/${fileId}`)).statusCode).toBe(403);
        expect((await send(outsider, 'GET', `/api/files/${fileId}/thumbnail`)).statusCode).toBe(
          403,
        );
      }
    }
    // Omar (an instructor of another department) does not see the department's item either.
    expect((await send(omar, 'GET', `/api/library/items/${department.id}`)).statusCode).toBe(404);
    // The admin sees everything.
    expect((await list(ada)).total).toBe(3);
  });

  it('deletes the library items of a course and their files with the course', async () => {
    const fileId = await upload(priya, 'drill.png', PNG_1X1);
    const item = await create(priya, {
      title: 'Drill sheet',
      fileId,
      scope: { type: 'course', courseId: COURSE },
    });
    expect((await send(ada, 'DELETE', `/api/courses/${COURSE}`)).statusCode).toBe(204);
    expect((await send(ada, 'GET', `/api/library/items/${item.id}`)).statusCode).toBe(404);
    expect((await send(priya, 'GET', `/api/files/${fileId}`)).statusCode).toBe(404);
    expect(await searchIds(ada, 'drill')).toEqual([]);
  });

  it('of two items made from one upload at once, exactly one gets it', async () => {
    const fileId = await upload(priya, 'once.txt', 'once');
    const payload = { title: 'Lorax handbook', fileId, scope: { type: 'everyone' } };
    const both = await Promise.all([
      send(priya, 'POST', '/api/library/items', payload),
      send(priya, 'POST', '/api/library/items', payload),
    ]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    const listed = await list(priya);
    expect(listed.items.map((i) => i.file?.fileId)).toEqual([fileId]);
    expect((await searchIds(priya, 'lorax')).length).toBe(1);
  });

  it('moves an item to another scope only where its editor may add it', async () => {
    const item = await create(priya, {
      title: 'Moving',
      url: 'https://m.example',
      scope: { type: 'everyone' },
    });
    const url = `/api/library/items/${item.id}`;
    // A department she may not see is not there for her.
    const elsewhere = await send(priya, 'PATCH', url, {
      scope: { type: 'department', departmentId: 'customer-support' },
      revision: 1,
    });
    expect(elsewhere.statusCode).toBe(404);
    expect(elsewhere.json()).toEqual({
      code: 'NOT_FOUND',
      message: 'There is no such department.',
    });
    const home = await send(priya, 'PATCH', url, {
      scope: { type: 'department', departmentId: FIELD },
      revision: 1,
    });
    expect(home.statusCode).toBe(200);
    expect(home.json()).toMatchObject({ scopeLabel: 'Field Operations' });
    expect((await searchIds(kim, 'moving')).length).toBe(0);
    expect((await searchIds(sam, 'moving')).length).toBe(1);
    expect((await send(kim, 'GET', url)).statusCode).toBe(404);
    // Omar cannot see it now, so for him it is not there at all.
    expect((await send(omar, 'PATCH', url, { title: 'x', revision: 2 })).statusCode).toBe(404);
  });

  it('refuses bad input with a readable 4xx and sanitises the description', async () => {
    const base = { title: 'Item', url: 'https://a.example', scope: { type: 'everyone' } };
    const post = (who: Person, body: Record<string, unknown>) =>
      send(who, 'POST', '/api/library/items', body);
    const unknownCategory = await post(priya, { ...base, categoryId: 'nope' });
    expect(unknownCategory.statusCode).toBe(400);
    expect(unknownCategory.json()).toMatchObject({ message: 'There is no such category.' });
    const noDepartment = await post(priya, {
      ...base,
      scope: { type: 'department', departmentId: 'nope' },
    });
    expect(noDepartment.statusCode).toBe(404);
    expect(noDepartment.json()).toEqual({
      code: 'NOT_FOUND',
      message: 'There is no such department.',
    });
    const noCourse = await post(priya, { ...base, scope: { type: 'course', courseId: 'nope' } });
    expect(noCourse.statusCode).toBe(404);
    expect(noCourse.json()).toEqual({ code: 'NOT_FOUND', message: 'There is no such course.' });
    // A department the caller may not see answers as one that does not exist.
    const otherDepartment = await post(omar, {
      ...base,
      scope: { type: 'department', departmentId: FIELD },
    });
    expect(otherDepartment.statusCode).toBe(404);
    expect(otherDepartment.json()).toEqual(noDepartment.json());
    // So does a course they may not see (a draft): Kim sees only her own course.
    const draft = await send(ada, 'POST', '/api/courses', { code: 'DR-9', title: 'Draft' });
    expect(draft.statusCode).toBe(201);
    await grantUserPermission(
      ctx.database.db,
      kim.id,
      'library.upload',
      null,
      new Date(ctx.clock.now()).toISOString(),
    );
    const hiddenCourse = await post(kim, {
      ...base,
      scope: { type: 'course', courseId: draft.json().id },
    });
    expect(hiddenCourse.statusCode).toBe(404);
    expect(hiddenCourse.json()).toEqual(noCourse.json());
    // A course needs course.edit there: a learner with library.upload may not.
    await grantUserPermission(
      ctx.database.db,
      sam.id,
      'library.upload',
      null,
      new Date(ctx.clock.now()).toISOString(),
    );
    const learner = await post(sam, { ...base, scope: { type: 'course', courseId: COURSE } });
    expect(learner.statusCode).toBe(403);
    expect(
      (await post(ada, { ...base, scope: { type: 'department', departmentId: FIELD } })).statusCode,
    ).toBe(201);

    const theirs = await upload(omar, 'theirs.txt', 'not yours');
    const stolen = await post(priya, {
      title: 'Theirs',
      fileId: theirs,
      scope: { type: 'everyone' },
    });
    expect(stolen.statusCode).toBe(404);
    expect(
      (await post(priya, { ...base, fileId: await upload(priya, 'x.txt', 'x') })).statusCode,
    ).toBe(400);
    expect((await post(priya, { title: 'Neither', scope: { type: 'everyone' } })).statusCode).toBe(
      400,
    );
    expect((await post(priya, { ...base, title: 'Bell\u0007' })).statusCode).toBe(400);
    expect((await post(priya, { ...base, title: '   ' })).statusCode).toBe(400);
    expect((await post(priya, { ...base, url: 'javascript:alert(1)' })).statusCode).toBe(400);
    expect((await post(priya, { ...base, tags: ['a,b'] })).statusCode).toBe(400);
    const xss = await create(priya, {
      ...base,
      descriptionHtml:
        '<p onclick="alert(1)">Read <b>this</b></p><script>alert(2)</script><img src=x onerror=alert(3)>',
    });
    expect(xss.descriptionHtml).not.toMatch(/script|onclick|onerror|alert/);
    expect(xss.descriptionHtml).toContain('<b>this</b>');
  });

  it('extracts the text of a text document in a job, so search finds words inside it', async () => {
    const fileId = await upload(
      priya,
      'procedure.txt',
      'Always inspect the quixotic ferrule endface before mating.',
    );
    const item = await create(priya, { title: 'Procedure', fileId, scope: { type: 'everyone' } });
    expect(item.textState).toBe('pending');
    expect(await searchIds(sam, 'quixotic')).toEqual([]);
    await ctx.app.jobs.start();
    await vi.waitFor(
      async () => {
        const shown = (
          await send(sam, 'GET', `/api/library/items/${item.id}`)
        ).json() as LibraryItem;
        expect(shown.textState).toBe('extracted');
      },
      { timeout: 15_000, interval: 50 },
    );
    expect((await searchIds(sam, 'quixotic')).map((r) => r.id)).toEqual([item.id]);
    expect((await list(sam, '?search=quixotic')).items.map((i) => i.id)).toEqual([item.id]);
    const versions = (await send(sam, 'GET', `/api/library/items/${item.id}/versions`)).json() as {
      items: { textState: string }[];
    };
    expect(versions.items[0]?.textState).toBe('extracted');
  });
});
