import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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

describe.skipIf(!available)(`admin: system information (${TEST_DB_KIND})`, () => {
  let ctx: TestContext;

  beforeEach(async () => {
    ctx = await createTestApp();
  });
  afterEach(async () => {
    await ctx.close();
  });

  it('tells an admin the Node.js version, platform, database and uptime', async () => {
    const admin = await createTestUser(ctx, { username: 'root', role: 'admin' });
    const token = await signIn(ctx.app, 'root', admin.password);
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/api/admin/system',
      headers: bearer(token),
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      node: process.version,
      supportedNodeLines: [22, 24, 26],
      platform: process.platform,
      arch: process.arch,
      database: TEST_DB_KIND,
    });
    expect(body.uptimeSeconds).toBeGreaterThanOrEqual(0);
    // The API reference, as a link signed for this session (plugins/api-reference.ts).
    expect(body.apiReferenceUrl).toMatch(/^\/api\/docs\?exp=\d+&sid=[^&]+&sig=[\w-]+$/);
    expect(Date.parse(body.startedAt)).toBeLessThanOrEqual(Date.now());
  });

  it('is refused without system.view, and without a session', async () => {
    const student = await createTestUser(ctx, { username: 'learner', role: 'student' });
    const token = await signIn(ctx.app, 'learner', student.password);
    const denied = await ctx.app.inject({
      method: 'GET',
      url: '/api/admin/system',
      headers: bearer(token),
    });
    expect(denied.statusCode).toBe(403);
    const anonymous = await ctx.app.inject({ method: 'GET', url: '/api/admin/system' });
    expect(anonymous.statusCode).toBe(401);
  });

  describe('storage used per person', () => {
    let fileCount = 0;
    /** A stored file's row (the bytes themselves do not matter here). */
    async function storeFile(userId: string, size: number, attached: boolean) {
      fileCount += 1;
      const at = new Date(ctx.clock.now()).toISOString();
      await ctx.database.db
        .insertInto('files')
        .values({
          id: `file-${fileCount}`,
          storage_key: `key-${fileCount}`,
          original_name: 'notes.txt',
          mime: 'text/plain',
          size,
          sha256: 'x',
          uploaded_by: userId,
          created_at: at,
          owner_type: attached ? 'lesson' : null,
          owner_id: attached ? 'lesson-1' : null,
          attached_at: attached ? at : null,
          thumbnail_key: null,
        })
        .execute();
    }

    async function setUp() {
      const admin = await createTestUser(ctx, { username: 'root', role: 'admin' });
      const sam = await createTestUser(ctx, { username: 'sam', firstname: 'Sam', lastname: 'Ode' });
      const kim = await createTestUser(ctx, { username: 'kim' });
      const lee = await createTestUser(ctx, { username: 'lee' });
      await storeFile(sam.user.id, 1000, true);
      await storeFile(sam.user.id, 500, false);
      await storeFile(sam.user.id, 250, false);
      await storeFile(kim.user.id, 5000, true);
      await storeFile(lee.user.id, 900, false);
      const token = await signIn(ctx.app, 'root', admin.password);
      const get = (query = '') =>
        ctx.app.inject({
          method: 'GET',
          url: `/api/admin/storage${query}`,
          headers: bearer(token),
        });
      return { sam, kim, lee, get };
    }

    it('lists each person’s files and bytes, most stored first, with totals and the limits', async () => {
      const { sam, get } = await setUp();
      const res = await get();
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.items.map((u: { username: string }) => u.username)).toEqual([
        'kim',
        'sam',
        'lee',
      ]);
      expect(body.items[1]).toEqual({
        userId: sam.user.id,
        username: 'sam',
        firstname: 'Sam',
        lastname: 'Ode',
        isActive: true,
        files: 3,
        storedBytes: 1750,
        unattachedBytes: 750,
      });
      expect(body).toMatchObject({
        total: 3,
        page: 1,
        pageSize: 25,
        totals: { files: 5, storedBytes: 7650, unattachedBytes: 1650 },
        limits: {
          maxFileBytes: 100 * 1024 ** 2,
          maxUnattachedBytes: 5 * 1024 ** 3,
          maxStoredBytes: 20 * 1024 ** 3,
          rate: { uploads: 60, windowSeconds: 600 },
          unattachedHours: 24,
        },
      });
    });

    it('orders by unattached or stored bytes either way, a page at a time', async () => {
      const { get } = await setUp();
      const names = async (query: string) =>
        (await get(query)).json().items.map((u: { username: string }) => u.username);
      expect(await names('?sort=unattached')).toEqual(['lee', 'sam', 'kim']);
      expect(await names('?sort=stored&order=asc')).toEqual(['lee', 'sam', 'kim']);
      expect(await names('?sort=unattached&order=asc')).toEqual(['kim', 'sam', 'lee']);
      const second = (await get('?pageSize=1&page=2')).json();
      expect(second).toMatchObject({ total: 3, page: 2, pageSize: 1 });
      expect(second.items.map((u: { username: string }) => u.username)).toEqual(['sam']);
      expect((await get('?page=9')).json().items).toEqual([]);
      const bad = await get('?sort=name');
      expect(bad.statusCode).toBe(400);
      expect(bad.json().code).toBe('VALIDATION_ERROR');
    });

    it('is refused to anyone but an admin, and without a session', async () => {
      await setUp();
      const student = await createTestUser(ctx, { username: 'learner', role: 'student' });
      const teacher = await createTestUser(ctx, { username: 'teacher', role: 'instructor' });
      for (const [name, password] of [
        ['learner', student.password],
        ['teacher', teacher.password],
      ] as const) {
        const token = await signIn(ctx.app, name, password);
        const denied = await ctx.app.inject({
          method: 'GET',
          url: '/api/admin/storage',
          headers: bearer(token),
        });
        expect(denied.statusCode).toBe(403);
        expect(denied.json().code).toBe('FORBIDDEN');
      }
      const anonymous = await ctx.app.inject({ method: 'GET', url: '/api/admin/storage' });
      expect(anonymous.statusCode).toBe(401);
    });
  });
});
