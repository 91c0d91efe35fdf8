/**
 * Names and labels refuse bidirectional controls, control characters and lone surrogates with a
 * 400 naming the field and are stored in NFC; names that arrive from Moodle or an identity
 * provider are cleaned, and a provider's username holding such characters is refused clearly,
 * never with a 500. On SQLite and PostgreSQL.
 */
import { MoodleSettingsSchema, SsoSettingsSchema } from '@learning-hub/core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  driveLogin,
  startMoodle,
  startOidcProvider,
  type MoodleFixture,
  type OidcFixture,
} from '../../../../scripts/fixtures';
import { listAuthEvents } from '../../platform/auth/auth-event-repository';
import { UNACCEPTABLE_USERNAME } from '../../platform/auth/identity-mapping';
import { insertProvider } from '../../platform/auth/provider-repository';
import { findUserByUsername } from '../../platform/auth/user-repository';
import { runAdminCommand } from '../../cli/admin';
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
const PUBLIC_URL = 'http://127.0.0.1:3999';
const BIDI_MESSAGE = (label: string) =>
  `${label} must not contain invisible characters that change the text direction (such as U+202E).`;

describe.skipIf(!available)(`identity text (${TEST_DB_KIND})`, () => {
  let ctx: TestContext;
  let token: string;
  let moodle: MoodleFixture;
  let idp: OidcFixture;

  beforeAll(async () => {
    moodle = await startMoodle();
    idp = await startOidcProvider({ redirectUris: [`${PUBLIC_URL}/api/auth/sso/callback`] });
  }, 30_000);
  afterAll(async () => {
    await moodle?.stop();
    await idp?.stop();
  });
  beforeEach(async () => {
    ctx = await createTestApp({ env: { PUBLIC_URL } });
    const admin = await createTestUser(ctx, { username: 'root', role: 'admin' });
    token = await signIn(ctx.app, 'root', admin.password);
  });
  afterEach(async () => {
    await ctx.close();
  });

  /** Sends the JSON text as it is, so it can hold escapes such as a lone "\ud800". */
  const send = (method: 'PUT' | 'POST', url: string, json: string) =>
    ctx.app.inject({
      method,
      url,
      headers: { ...bearer(token), 'content-type': 'application/json' },
      payload: json,
    });

  describe('profile names', () => {
    it.each([
      ['a right-to-left override', '"\\u202egnp.exe"', BIDI_MESSAGE('First name')],
      ['an isolate', '"Ann\\u2067a"', BIDI_MESSAGE('First name')],
      ['a right-to-left mark', '"Ann\\u200fa"', BIDI_MESSAGE('First name')],
      [
        'a lone surrogate',
        '"Ann\\ud800a"',
        'First name contains a broken character (an unpaired UTF-16 surrogate).',
      ],
      ['a line break', '"Ann\\na"', 'First name contains characters that are not allowed'],
    ])('refuses %s with a 400 naming the field', async (_name, value, message) => {
      const res = await send('PUT', '/api/auth/profile', `{"firstname":${value}}`);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR', message });
      expect(res.json().details.issues[0].path).toBe('body.firstname');
      const me = await ctx.app.inject({
        method: 'GET',
        url: '/api/auth/me',
        headers: bearer(token),
      });
      expect(me.json().user.firstname).toBe('Test');
    });

    it('stores names in NFC, and any script', async () => {
      const res = await send(
        'PUT',
        '/api/auth/profile',
        JSON.stringify({ firstname: ' Ame\u0301lie ', lastname: 'محمد' }),
      );
      expect(res.statusCode).toBe(200);
      expect(res.json().user).toMatchObject({ firstname: 'Am\u00e9lie', lastname: 'محمد' });
    });
  });

  it('refuses bidi controls in a custom role display name and a provider label', async () => {
    const role = await send(
      'POST',
      '/api/admin/roles',
      JSON.stringify({
        id: 'spoofed',
        displayName: 'Admin\u202e',
        inherits: 'student',
        permissions: [],
      }),
    );
    expect(role.statusCode).toBe(400);
    expect(role.json().message).toBe(BIDI_MESSAGE('Display name'));

    const provider = await send(
      'POST',
      '/api/admin/auth/providers',
      JSON.stringify({
        id: 'lms2',
        method: 'moodle',
        label: 'Moodle \u2066login\u2069',
        settings: { siteUrl: 'http://127.0.0.1:9' },
      }),
    );
    expect(provider.statusCode).toBe(400);
    expect(provider.json().message).toBe(BIDI_MESSAGE('Label'));
  });

  it('the command line refuses such names too', async () => {
    await expect(
      runAdminCommand(ctx.database.db, [
        'user',
        'create',
        '--username',
        'spoof',
        '--role',
        'student',
        '--firstname',
        '\u202egnp.exe',
        '--lastname',
        'X',
      ]),
    ).rejects.toThrow(BIDI_MESSAGE('First name'));
    expect(await findUserByUsername(ctx.database.db, 'spoof')).toBeNull();
  });

  it('cleans names that arrive from Moodle instead of failing the sign-in', async () => {
    await insertProvider(
      ctx.database.db,
      {
        id: 'lms',
        method: 'moodle',
        label: 'Training Moodle',
        enabled: true,
        settings: MoodleSettingsSchema.parse({ siteUrl: moodle.url, timeoutMs: 2000 }),
        secrets: {},
      },
      new Date(ctx.clock.now()).toISOString(),
    );
    moodle.setUser({
      userid: 91,
      username: 'mallory',
      password: 'Mallory-moodle-1!',
      firstname: '\u202egnp.exe',
      lastname: 'Null\u0000Byte\ud800',
      email: 'mallory@fiberco.example',
    });
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/moodle',
      payload: { credentials: { username: 'mallory', password: 'Mallory-moodle-1!' } },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({ firstname: 'gnp.exe', lastname: 'Null Byte' });
  });

  describe('single sign-on', () => {
    beforeEach(async () => {
      await insertProvider(
        ctx.database.db,
        {
          id: 'idp',
          method: 'sso',
          label: 'Company SSO',
          enabled: true,
          settings: SsoSettingsSchema.parse({
            issuer: idp.issuer,
            clientId: 'learning-hub',
            scopes: ['openid', 'profile', 'email', 'groups'],
            departmentClaim: 'department',
            allowInsecureHttp: true,
          }),
          secrets: {},
        },
        new Date(ctx.clock.now()).toISOString(),
      );
    });

    async function signInAtProvider(login: string) {
      const start = await ctx.app.inject({
        method: 'GET',
        url: '/api/auth/sso/start?provider=idp',
      });
      const callback = await driveLogin(String(start.headers.location), login);
      const back = await ctx.app.inject({
        method: 'GET',
        url: `${callback.pathname}${callback.search}`,
      });
      return new URL(String(back.headers.location), PUBLIC_URL);
    }

    it('cleans names and department from the claims', async () => {
      idp.setAccount('trudy', {
        sub: 'c0ffee00-0000-4000-8000-00000000beef',
        preferred_username: 'trudy',
        given_name: 'Tru\u202edy',
        family_name: 'Line\nBreak',
        email: 'trudy@fiberco.example',
        department: 'Field\u2067 Operations',
      });
      const target = await signInAtProvider('trudy');
      const code = target.searchParams.get('sso_code');
      expect(code, target.href).toBeTruthy();
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/auth/sso',
        payload: { credentials: code, ssoConfig: 'idp' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().user).toMatchObject({
        username: 'trudy',
        firstname: 'Trudy',
        lastname: 'Line Break',
        department: 'Field Operations',
      });
    });

    it.each([
      ['a bidi override', 'eve\u202egnp'],
      ['a NUL', 'eve\u0000x'],
    ])('refuses a username with %s clearly, without a server error', async (_name, username) => {
      idp.setAccount('eve', {
        sub: 'c0ffee00-0000-4000-8000-00000000e5e5',
        preferred_username: username,
        given_name: 'Eve',
        family_name: 'Dropper',
      });
      const target = await signInAtProvider('eve');
      expect(target.pathname).toBe('/login');
      expect(target.searchParams.get('sso_error')).toBe('not_allowed');
      const [event] = await listAuthEvents(ctx.database.db, { limit: 1 });
      expect(event).toMatchObject({ success: false, error: UNACCEPTABLE_USERNAME });
      const users = await ctx.database.db.selectFrom('users').select('firstname').execute();
      expect(users.map((u) => u.firstname)).not.toContain('Eve');
    });
  });
});
