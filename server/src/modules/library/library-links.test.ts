import type { LibraryItem } from '@learning-hub/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { insertItem } from './library-repository';
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

/** Addresses a link may not have, each with the host the refusal names (null: not a host rule). */
const REFUSED: [string, string | null][] = [
  ['http://127.1/', '127.0.0.1'],
  ['http://0x7f000001/', '127.0.0.1'],
  ['http://2130706433/', '127.0.0.1'],
  ['http://0177.0.0.1/', '127.0.0.1'],
  ['http://[::1]/', '[::1]'],
  ['http://[::ffff:127.0.0.1]/', '[::ffff:7f00:1]'],
  ['http://[::]/', '[::]'],
  ['http://0.0.0.0/', '0.0.0.0'],
  ['http://0/', '0.0.0.0'],
  ['http://localhost:3000/api', 'localhost'],
  ['http://LOCALHOST./', 'localhost.'],
  ['http://app.localhost/', 'app.localhost'],
  ['http://intranet/', 'intranet'],
  ['http://printer.local/', 'printer.local'],
  ['http://10.1.2.3/', '10.1.2.3'],
  ['http://172.16.0.1/', '172.16.0.1'],
  ['http://192.168.1.1/', '192.168.1.1'],
  ['http://100.64.0.1/', '100.64.0.1'],
  ['http://169.254.169.254/latest/meta-data', '169.254.169.254'],
  ['http://[fe80::1]/', '[fe80::1]'],
  ['http://[fd00::1]/', '[fd00::1]'],
  ['http://[64:ff9b::7f00:1]/', '[64:ff9b::7f00:1]'],
  ['https://127.0.0.1@evil.example/', null],
  ['https://user:secret@example.com/', null],
  ['ftp://example.com/file', null],
  ['javascript:alert(1)', null],
];
const PUBLIC = [
  'https://www.itu.int/rec/T-REC-G.652',
  'http://93.184.216.34/',
  'https://[2606:4700:4700::1111]/',
  'https://fiber.example/guide?x=1#part',
];

const notPublic = (host: string) =>
  `“${host}” is not a public address: links may not go to this server, its network or other internal addresses. An admin can allow internal hosts under Admin → System.`;

describe.skipIf(!available)(`library links (${TEST_DB_KIND})`, () => {
  let ctx: TestContext;
  let ada: { id: string; token: string }; // admin
  let priya: { id: string; token: string }; // instructor

  beforeEach(async () => {
    ctx = await createTestApp();
    const person = async (username: string, role: string) => {
      const { user, password } = await createTestUser(ctx, { username, role });
      return { id: user.id, token: await signIn(ctx.app, username, password) };
    };
    ada = await person('ada', 'admin');
    priya = await person('priya', 'instructor');
  });
  afterEach(async () => {
    await ctx.close();
  });

  const send = (
    who: { token: string },
    method: 'GET' | 'POST' | 'PATCH' | 'PUT',
    url: string,
    payload?: object,
  ) => ctx.app.inject({ method, url, headers: bearer(who.token), ...(payload ? { payload } : {}) });
  const addLink = (url: string) =>
    send(priya, 'POST', '/api/library/items', {
      title: 'A link',
      url,
      scope: { type: 'everyone' },
    });
  const download = (itemId: string) => send(priya, 'GET', `/api/library/items/${itemId}/download`);
  const allow = (hosts: string[]) =>
    send(ada, 'PUT', '/api/admin/settings', { allowedInternalLinkHosts: hosts });

  it('refuses links to internal or non-http addresses in any form, when added and when changed', async () => {
    for (const [url, host] of REFUSED) {
      const response = await addLink(url);
      expect(response.statusCode, url).toBe(400);
      const body = response.json() as { code: string; message: string; details?: unknown };
      expect(body.code, url).toBe('VALIDATION_ERROR');
      if (host) expect(body.message, url).toBe(notPublic(host));
    }
    expect((await addLink('https://127.0.0.1@evil.example/')).json()).toMatchObject({
      details: {
        issues: [
          {
            path: 'body.url',
            message: 'A web address cannot carry a user name or password (user:password@…).',
          },
        ],
      },
    });
    for (const url of PUBLIC) expect((await addLink(url)).statusCode, url).toBe(201);

    const item = (await addLink('https://fiber.example/')).json() as LibraryItem;
    const changed = await send(priya, 'PATCH', `/api/library/items/${item.id}`, {
      url: 'http://2130706433:8080/admin',
      revision: item.revision,
    });
    expect(changed.statusCode).toBe(400);
    expect(changed.json()).toEqual({ code: 'VALIDATION_ERROR', message: notPublic('127.0.0.1') });
    const followed = await download(item.id);
    expect(followed.statusCode).toBe(303);
    expect(followed.headers.location).toBe('https://fiber.example/');
  });

  it('lets an admin allow internal hosts (audited); a link is checked again when followed', async () => {
    expect((await send(priya, 'GET', '/api/admin/settings')).statusCode).toBe(403);
    expect(
      (await send(priya, 'PUT', '/api/admin/settings', { allowedInternalLinkHosts: [] }))
        .statusCode,
    ).toBe(403);
    expect((await send(ada, 'GET', '/api/admin/settings')).json()).toEqual({
      allowedInternalLinkHosts: [],
      updatedAt: null,
      updatedBy: null,
    });
    const bad = await allow(['wiki.corp.internal', 'http://x.example/', 'host:8080']);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: {
        issues: [
          {
            path: 'body.allowedInternalLinkHosts.1',
            message:
              '“http://x.example/” is not a host name or IP address (no scheme, port, path or user name).',
          },
          { path: 'body.allowedInternalLinkHosts.2' },
        ],
      },
    });
    const saved = await allow([
      'Wiki.Corp.Internal.',
      '10.1.2.3',
      '*.lab.internal',
      '[::1]',
      '10.1.2.3',
    ]);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({
      allowedInternalLinkHosts: ['wiki.corp.internal', '10.1.2.3', '*.lab.internal', '::1'],
      updatedAt: expect.any(String),
      updatedBy: 'ada',
    });
    const audit = await ctx.database.db
      .selectFrom('access_audit')
      .select(['action', 'actor_username', 'details'])
      .where('action', '=', 'system_settings.update')
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]?.actor_username).toBe('ada');
    expect(JSON.parse(audit[0]?.details ?? '{}')).toEqual({
      allowedInternalLinkHosts: {
        before: [],
        after: ['wiki.corp.internal', '10.1.2.3', '*.lab.internal', '::1'],
      },
    });

    for (const url of [
      'http://wiki.corp.internal/page',
      'http://10.1.2.3:8080/',
      'https://a.b.lab.internal/',
      'http://[::1]/',
    ]) {
      expect((await addLink(url)).statusCode, url).toBe(201);
    }
    for (const url of ['http://10.1.2.4/', 'http://lab.internal/', 'http://127.0.0.1/']) {
      expect((await addLink(url)).statusCode, url).toBe(400);
    }

    // Followed while allowed; refused once the host is off the list.
    const wiki = (await addLink('http://wiki.corp.internal/page')).json() as LibraryItem;
    expect((await download(wiki.id)).headers.location).toBe('http://wiki.corp.internal/page');
    expect((await allow(['10.1.2.3'])).statusCode).toBe(200);
    const refused = await download(wiki.id);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ code: 'FORBIDDEN', message: notPublic('wiki.corp.internal') });
    expect(refused.headers.location).toBeUndefined();

    // An item saved before the rule existed is refused too, and its download is not counted.
    await insertItem(
      ctx.database.db,
      {
        id: 'old-link',
        kind: 'link',
        title: 'Old',
        descriptionHtml: '',
        categoryId: null,
        scope: { type: 'everyone' },
        url: 'http://0x7f000001:3000/api/admin/users',
        tags: [],
        createdBy: priya.id,
      },
      new Date(ctx.clock.now()).toISOString(),
    );
    const old = await download('old-link');
    expect(old.statusCode).toBe(403);
    expect(old.json()).toEqual({ code: 'FORBIDDEN', message: notPublic('127.0.0.1') });
    expect((await send(priya, 'GET', '/api/library/items/old-link')).json()).toMatchObject({
      downloadCount: 0,
    });
  });
});
