/**
 * A resumable upload whose owner's sign-in ends while its last PATCH is streaming (deactivated by
 * an admin, or signed out): the upload is refused when it completes (401), nothing is stored or
 * attached, and the staged bytes are gone.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { PDF_HEAD } from './test-files';
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
const TUS = { 'tus-resumable': '1.0.0' };

describe.skipIf(!available)(
  `an upload whose owner is signed out meanwhile (${TEST_DB_KIND})`,
  () => {
    let ctx: TestContext;
    afterEach(async () => {
      await ctx?.close();
    });

    async function start() {
      ctx = await createTestApp();
      const sam = await createTestUser(ctx, { username: 'sam', role: 'student' });
      const ada = await createTestUser(ctx, { username: 'ada', role: 'admin' });
      return {
        sam: { ...sam, token: await signIn(ctx.app, 'sam', sam.password) },
        admin: await signIn(ctx.app, 'ada', ada.password),
      };
    }

    /**
     * Creates an upload and sends all its bytes in one PATCH; `meanwhile` runs once the first half
     * has been taken in (the request was admitted and is streaming), before the rest is sent.
     */
    async function uploadWhile(token: string, meanwhile: () => Promise<void>) {
      const content = Buffer.concat([PDF_HEAD, randomBytes(200_000)]);
      const created = await ctx.app.inject({
        method: 'POST',
        url: '/api/uploads',
        headers: {
          ...bearer(token),
          ...TUS,
          'upload-length': String(content.length),
          'upload-metadata': `filename ${Buffer.from('field.pdf').toString('base64')}`,
        },
      });
      expect(created.statusCode).toBe(201);
      const half = content.length / 2;
      async function* body() {
        yield content.subarray(0, half);
        // Asked for more: the first half is being written, the request long since admitted.
        await meanwhile();
        yield content.subarray(half);
      }
      return ctx.app.inject({
        method: 'PATCH',
        url: String(created.headers.location),
        headers: {
          ...bearer(token),
          ...TUS,
          'upload-offset': '0',
          'content-type': 'application/offset+octet-stream',
          'content-length': String(content.length),
        },
        payload: Readable.from(body()),
      });
    }

    async function nothingKept() {
      expect(await ctx.database.db.selectFrom('files').selectAll().execute()).toEqual([]);
      expect(readdirSync(join(ctx.filesDir, 'uploads'))).toEqual([]);
    }

    it('refuses the upload of an owner deactivated while it streams, and keeps nothing', async () => {
      const { sam, admin } = await start();
      const answer = await uploadWhile(sam.token, async () => {
        const off = await ctx.app.inject({
          method: 'PUT',
          url: `/api/admin/users/${sam.user.id}/active`,
          headers: bearer(admin),
          payload: { active: false },
        });
        expect(off.statusCode).toBe(200);
      });
      expect(answer.statusCode).toBe(401);
      expect(answer.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
      expect(answer.headers['upload-file-id']).toBeUndefined();
      await nothingKept();
    });

    it('refuses the upload of an owner who signed out while it streams, and keeps nothing', async () => {
      const { sam } = await start();
      const answer = await uploadWhile(sam.token, async () => {
        const out = await ctx.app.inject({
          method: 'POST',
          url: '/api/auth/logout',
          headers: bearer(sam.token),
        });
        expect(out.statusCode).toBeLessThan(300);
      });
      expect(answer.statusCode).toBe(401);
      expect(answer.json()).toMatchObject({ code: 'SESSION_EXPIRED' });
      await nothingKept();
    });
  },
);
