import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { ConfigError, loadConfig } from '../../config';
import {
  createClock,
  createTestDatabase,
  testDatabaseAvailable,
  TEST_DB_KIND,
  type TestDatabase,
} from '../../test/helpers';
import type { FastifyInstance } from 'fastify';

const available = await testDatabaseAvailable();

describe('dev mode configuration', () => {
  it('is refused in production', () => {
    expect(() => loadConfig({ DEV_MODE: 'true', NODE_ENV: 'production' })).toThrow(ConfigError);
    expect(loadConfig({ DEV_MODE: 'true', NODE_ENV: 'development' }).devMode).toBe(true);
    expect(loadConfig({}).devMode).toBe(false);
  });
});

describe.skipIf(!available)(`dev mode (${TEST_DB_KIND})`, () => {
  let database: TestDatabase;
  let app: FastifyInstance;
  beforeAll(async () => {
    database = await createTestDatabase();
    const config = loadConfig({
      NODE_ENV: 'development',
      DEV_MODE: 'true',
      WEB_DIST_DIR: '/nonexistent',
    });
    app = await buildApp({
      config,
      db: database.db,
      changes: database.changes,
      now: createClock().now,
      logger: false,
    });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('treats every request as the built-in developer admin', async () => {
    const me = await app.inject({ method: 'GET', url: '/api/auth/me' });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({
      user: { username: 'developer', role: 'admin', authMethod: 'disabled' },
      session: { method: 'disabled' },
    });
    expect((await app.inject({ method: 'GET', url: '/api/admin/users' })).statusCode).toBe(200);
  });

  it("saves the developer admin's profile without any token (no stored session in dev mode)", async () => {
    const saved = await app.inject({
      method: 'PUT',
      url: '/api/auth/profile',
      payload: { firstname: 'Dana', email: 'dana@fiberco.example' },
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().user).toMatchObject({
      username: 'developer',
      firstname: 'Dana',
      email: 'dana@fiberco.example',
    });
    const me = await app.inject({ method: 'GET', url: '/api/auth/me' });
    expect(me.json().user).toMatchObject({ firstname: 'Dana', lastname: 'Admin' });
    // It has no password: a change is refused with a clear 4xx, never a 500.
    const change = await app.inject({
      method: 'POST',
      url: '/api/auth/change-password',
      payload: { currentPassword: 'x', newPassword: 'a long new passphrase' },
    });
    expect(change.statusCode).toBe(400);
    expect(change.json().code).toBe('BAD_REQUEST');
  });

  it('says so on the sign-in page and refuses every sign-in with the spec message', async () => {
    expect((await app.inject({ method: 'GET', url: '/api/auth/config' })).json()).toMatchObject({
      methods: ['disabled'],
      defaultMethod: 'disabled',
      devMode: true,
    });
    for (const [url, payload] of [
      ['/api/auth/local', { username: 'a', password: 'b' }],
      ['/api/auth/ldap', { credentials: { username: 'a', password: 'b' } }],
      ['/api/auth/moodle', { credentials: { username: 'a', password: 'b' } }],
      ['/api/auth/sso', { credentials: 'code', ssoConfig: 'x' }],
      ['/api/auth/kerberos', {}],
    ] as const) {
      const res = await app.inject({ method: 'POST', url, payload });
      expect(res.statusCode, url).toBe(400);
      expect(res.json(), url).toMatchObject({
        success: false,
        message: 'Authentication is disabled in development mode',
      });
    }
  });
});
