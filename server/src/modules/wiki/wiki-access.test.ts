import type { WikiPage } from '@learning-hub/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createTestApp,
  testDatabaseAvailable,
  TEST_DB_KIND,
  type TestContext,
} from '../../test/helpers';
import {
  call,
  createPage,
  FIELD_SPACE,
  savePage,
  uploadImage,
  wikiPeople,
  type Method,
  type Person,
  type WikiPeople,
} from './test-fixture';

const available = await testDatabaseAvailable();

type Who = 'anonymous' | 'student' | 'instructor' | 'admin' | 'other department';

describe.skipIf(!available)(`who sees and does what in the wiki (${TEST_DB_KIND})`, () => {
  let ctx: TestContext;
  let p: WikiPeople;

  beforeEach(async () => {
    ctx = await createTestApp();
    p = await wikiPeople(ctx);
  });
  afterEach(async () => {
    await ctx.close();
  });

  it('answers every wiki route as the permission model says, for each kind of user', async () => {
    const people: Record<Who, Person | null> = {
      anonymous: null,
      student: p.sam,
      instructor: p.priya,
      admin: p.ada,
      'other department': p.kim,
    };
    const page = await createPage(ctx, p.priya, { title: 'Reading an OTDR trace' });
    const trashed = await createPage(ctx, p.priya, { title: 'Old page' });
    await call(ctx, p.ada, 'DELETE', `/api/wiki/pages/${trashed.id}`);
    const revision = async () =>
      ((await call(ctx, p.ada, 'GET', `/api/wiki/pages/${page.id}`)).json() as WikiPage).revision;
    const url = `/api/wiki/pages/${page.id}`;
    let made = 0;
    let victims = 0;

    /** Route, request, and the status each kind of user gets (401 for anonymous everywhere). */
    const cases: {
      route: string;
      request: () => Promise<[Method, string, unknown?]>;
      expected: Record<Exclude<Who, 'anonymous'>, number>;
      before?: () => Promise<void>;
    }[] = [
      {
        route: 'GET /api/wiki/spaces',
        request: async () => ['GET', '/api/wiki/spaces'],
        expected: { student: 200, instructor: 200, admin: 200, 'other department': 200 },
      },
      {
        route: 'GET /api/wiki/tree',
        request: async () => ['GET', '/api/wiki/tree?space=company'],
        expected: { student: 200, instructor: 200, admin: 200, 'other department': 200 },
      },
      {
        route: 'GET /api/wiki/resolve',
        request: async () => [
          'GET',
          '/api/wiki/resolve?space=company&title=reading%20an%20otdr%20trace',
        ],
        expected: { student: 200, instructor: 200, admin: 200, 'other department': 200 },
      },
      {
        route: 'GET /api/wiki/pages',
        request: async () => ['GET', '/api/wiki/pages?trash=true'],
        expected: { student: 200, instructor: 200, admin: 200, 'other department': 200 },
      },
      {
        route: 'POST /api/wiki/pages',
        request: async () => [
          'POST',
          '/api/wiki/pages',
          { title: `New ${(made += 1)}`, space: 'company', html: '' },
        ],
        expected: { student: 403, instructor: 201, admin: 201, 'other department': 403 },
      },
      {
        route: 'GET /api/wiki/pages/:pageId',
        request: async () => ['GET', url],
        expected: { student: 200, instructor: 200, admin: 200, 'other department': 200 },
      },
      {
        route: 'PUT /api/wiki/pages/:pageId',
        request: async () => [
          'PUT',
          url,
          { baseRevision: await revision(), title: page.title, html: '<p>x</p>' },
        ],
        expected: { student: 403, instructor: 200, admin: 200, 'other department': 403 },
      },
      {
        route: 'GET /api/wiki/pages/:pageId/revisions',
        request: async () => ['GET', `${url}/revisions`],
        expected: { student: 200, instructor: 200, admin: 200, 'other department': 200 },
      },
      {
        route: 'GET /api/wiki/pages/:pageId/revisions/:revisionId',
        request: async () => ['GET', `${url}/revisions/1`],
        expected: { student: 200, instructor: 200, admin: 200, 'other department': 200 },
      },
      {
        route: 'GET /api/wiki/pages/:pageId/diff',
        request: async () => ['GET', `${url}/diff?from=1&to=2`],
        expected: { student: 200, instructor: 200, admin: 200, 'other department': 200 },
      },
      {
        route: 'POST /api/wiki/pages/:pageId/revisions/:revisionId/restore',
        request: async () => {
          // Something to restore: a page that already has revision 1's text is a 409.
          await call(ctx, p.ada, 'PUT', url, {
            baseRevision: await revision(),
            title: page.title,
            html: `<p>Before a restore at revision ${await revision()}.</p>`,
          });
          return ['POST', `${url}/revisions/1/restore`, {}];
        },
        expected: { student: 403, instructor: 200, admin: 200, 'other department': 403 },
      },
      {
        route: 'PUT /api/wiki/pages/:pageId/follow',
        request: async () => ['PUT', `${url}/follow`],
        // Each starts following: created.
        expected: { student: 201, instructor: 201, admin: 201, 'other department': 201 },
      },
      {
        route: 'DELETE /api/wiki/pages/:pageId/follow',
        request: async () => ['DELETE', `${url}/follow`],
        expected: { student: 204, instructor: 204, admin: 204, 'other department': 204 },
      },
      {
        route: 'POST /api/wiki/pages/:pageId/view',
        request: async () => ['POST', `${url}/view`],
        expected: { student: 204, instructor: 204, admin: 204, 'other department': 204 },
      },
      {
        route: 'POST /api/wiki/pages/:pageId/move',
        request: async () => [
          'POST',
          `${url}/move`,
          { space: 'company', parentId: null, position: 0 },
        ],
        expected: { student: 403, instructor: 403, admin: 200, 'other department': 403 },
      },
      {
        route: 'DELETE /api/wiki/pages/:pageId',
        request: async () => {
          const victim = await createPage(ctx, p.ada, { title: `Victim ${(victims += 1)}` });
          return ['DELETE', `/api/wiki/pages/${victim.id}`];
        },
        expected: { student: 403, instructor: 403, admin: 204, 'other department': 403 },
      },
      {
        route: 'POST /api/wiki/pages/:pageId/restore',
        request: async () => ['POST', `/api/wiki/pages/${trashed.id}/restore`],
        expected: { student: 403, instructor: 403, admin: 200, 'other department': 403 },
        before: async () => {
          await call(ctx, p.ada, 'DELETE', `/api/wiki/pages/${trashed.id}`);
        },
      },
      {
        route: 'DELETE /api/wiki/trash/:pageId',
        request: async () => ['DELETE', `/api/wiki/trash/${trashed.id}`],
        expected: { student: 403, instructor: 403, admin: 204, 'other department': 403 },
        before: async () => {
          await call(ctx, p.ada, 'DELETE', `/api/wiki/pages/${trashed.id}`);
        },
      },
      {
        route: 'DELETE /api/wiki/trash',
        request: async () => ['DELETE', '/api/wiki/trash'],
        expected: { student: 403, instructor: 403, admin: 204, 'other department': 403 },
      },
    ];
    // Every wiki route has its row.
    const routes = [...ctx.app.routeAccess.keys()].filter(
      (key) => key.includes('/api/wiki') && !key.startsWith('HEAD '),
    );
    expect(cases.map((c) => c.route).sort()).toEqual([...routes].sort());

    const failures: string[] = [];
    for (const c of cases) {
      for (const [who, person] of Object.entries(people) as [Who, Person | null][]) {
        await c.before?.();
        const [method, path, payload] = await c.request();
        const response = await call(ctx, person, method, path, payload);
        const expected = who === 'anonymous' ? 401 : c.expected[who];
        if (response.statusCode !== expected) {
          failures.push(`${c.route} as ${who}: ${response.statusCode} ${response.body}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('never shows anything of a department page to a user of another department', async () => {
    const image = await uploadImage(ctx, p.priya);
    const secret = await createPage(ctx, p.priya, {
      title: 'Field splicing secrets',
      space: FIELD_SPACE,
      html: `<h2>Fusion settings</h2><p>Arc power 42.</p><p><img src="/api/files/${image}" /></p>`,
    });
    const v2 = await savePage(ctx, p.priya, secret, {
      html: `<h2>Fusion settings</h2><p>Arc power 43.</p><p><img src="/api/files/${image}" /></p>`,
    });
    // A public page the secret page links to: its backlinks must not name the secret page.
    const open = await createPage(ctx, p.priya, { title: 'Fusion splicing' });
    await savePage(ctx, p.priya, v2, {
      html: `<p>See <a href="/wiki/pages/${open.id}">fusion</a>. Arc power 43.</p><p><img src="/api/files/${image}" /></p>`,
    });
    // Omar copies the image's address into a company page: it opens nothing to Kim.
    const copy = await createPage(ctx, p.omar, {
      title: 'Copied picture',
      html: `<p><img src="/api/files/${image}" /></p>`,
    });

    // Sam (Field Operations) sees all of it.
    expect((await call(ctx, p.sam, 'GET', `/api/wiki/pages/${secret.id}`)).statusCode).toBe(200);
    expect((await call(ctx, p.sam, 'GET', `/api/files/${image}`)).statusCode).toBe(200);

    const id = secret.id;
    for (const outsider of [p.kim, p.omar]) {
      for (const [method, path] of [
        ['GET', `/api/wiki/pages/${id}`],
        ['GET', `/api/wiki/pages/${id}/revisions`],
        ['GET', `/api/wiki/pages/${id}/revisions/1`],
        ['GET', `/api/wiki/pages/${id}/diff?from=1&to=2`],
        ['PUT', `/api/wiki/pages/${id}/follow`],
        ['DELETE', `/api/wiki/pages/${id}/follow`],
        ['POST', `/api/wiki/pages/${id}/view`],
        ['GET', `/api/wiki/tree?space=${FIELD_SPACE}`],
        ['GET', `/api/wiki/resolve?space=${FIELD_SPACE}&title=Field%20splicing%20secrets`],
      ] as const) {
        const response = await call(ctx, outsider, method, path);
        expect(response.statusCode, `${method} ${path}`).toBe(404);
      }
      const list = (await call(ctx, outsider, 'GET', '/api/wiki/pages')).json() as {
        items: { id: string }[];
      };
      expect(list.items.map((x) => x.id)).not.toContain(id);
      const spaces = (await call(ctx, outsider, 'GET', '/api/wiki/spaces')).json() as {
        items: { key: string }[];
      };
      expect(spaces.items.map((s) => s.key)).not.toContain(FIELD_SPACE);
      const search = (await call(ctx, outsider, 'GET', '/api/search?q=arc%20power')).json() as {
        total: number;
      };
      expect(search.total).toBe(0);
      const searchList = (
        await call(ctx, outsider, 'GET', '/api/wiki/pages?search=arc')
      ).json() as {
        total: number;
      };
      expect(searchList.total).toBe(0);
      const backlinks = (
        (await call(ctx, outsider, 'GET', `/api/wiki/pages/${open.id}`)).json() as WikiPage
      ).backlinks;
      expect(backlinks).toEqual([]);
      expect((await call(ctx, outsider, 'GET', `/api/files/${image}`)).statusCode).toBe(403);
      expect((await call(ctx, outsider, 'GET', `/api/files/${image}/thumbnail`)).statusCode).toBe(
        403,
      );
    }
    // Omar may write in the company space but not in a department he cannot see.
    const edit = await call(ctx, p.omar, 'PUT', `/api/wiki/pages/${id}`, {
      baseRevision: 3,
      title: 'Mine now',
      html: '<p>x</p>',
    });
    expect(edit.statusCode).toBe(404);
    // Sam sees the backlink; Kim's copy of the address shows an image she cannot load.
    expect(
      ((await call(ctx, p.sam, 'GET', `/api/wiki/pages/${open.id}`)).json() as WikiPage).backlinks,
    ).toEqual([{ id, title: 'Field splicing secrets', spaceName: 'Field Operations' }]);
    expect((await call(ctx, p.kim, 'GET', `/api/wiki/pages/${copy.id}`)).statusCode).toBe(200);
  });
});
