/**
 * Directory sign-in against a real OpenLDAP slapd started by the test (people, groups, nested
 * departments; see scripts/fixtures/slapd.ts).
 */
import { LdapSettingsSchema, type LdapSettings } from '@learning-hub/core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  isSlapdAvailable,
  startSlapd,
  unusedLdapUrl,
  type SlapdFixture,
} from '../../../../scripts/fixtures';
import { listAssignments } from '../../platform/access/access-repository';
import { listAuthEvents } from '../../platform/auth/auth-event-repository';
import { insertProvider } from '../../platform/auth/provider-repository';
import { authenticateLdap } from '../../platform/auth/providers/ldap';
import { NO_TRACE } from '../../platform/auth/providers/types';
import { findUserByUsername } from '../../platform/auth/user-repository';
import { insertCourse } from '../courses/course-repository';
import {
  bearer,
  createTestApp,
  createTestUser,
  requireTool,
  testDatabaseAvailable,
  TEST_DB_KIND,
  type TestContext,
} from '../../test/helpers';

const available =
  (await testDatabaseAvailable()) &&
  requireTool('slapd', isSlapdAvailable(), 'apt-get install -y slapd ldap-utils');

describe.skipIf(!available)(`directory sign-in against slapd (${TEST_DB_KIND})`, () => {
  let slapd: SlapdFixture;
  let ctx: TestContext;

  beforeAll(async () => {
    slapd = await startSlapd();
  }, 30_000);
  afterAll(async () => {
    await slapd?.stop();
  });

  const settingsFor = (
    overrides: Partial<Record<keyof LdapSettings, unknown>> = {},
  ): LdapSettings =>
    LdapSettingsSchema.parse({
      urls: [slapd.url],
      bindDn: slapd.serviceDn,
      userSearchBases: [slapd.peopleBase, slapd.contractorsBase],
      attributes: {
        email: 'mail',
        firstname: 'givenName',
        lastname: 'sn',
        department: 'departmentNumber',
      },
      roleMapping: [
        { group: 'hub-admins', role: 'admin' },
        { group: 'hub-instructors', role: 'instructor' },
      ],
      contextMapping: [
        {
          group: 'otdr-assistants',
          context: { type: 'course', courseId: 'otdr-101' },
          roles: ['course-assistant'],
        },
        {
          group: 'field-leads',
          context: { type: 'department', departmentId: 'field-operations' },
          roles: ['department-manager'],
        },
      ],
      timeoutMs: 2000,
      ...overrides,
    });

  async function configure(
    overrides: Partial<Record<keyof LdapSettings, unknown>> = {},
    id = 'corp',
  ) {
    await insertProvider(
      ctx.database.db,
      {
        id,
        method: 'ldap',
        label: 'Company directory',
        enabled: true,
        settings: settingsFor(overrides),
        secrets: { bindPassword: slapd.servicePassword },
      },
      new Date(ctx.clock.now()).toISOString(),
    );
  }

  beforeEach(async () => {
    ctx = await createTestApp();
    await insertCourse(
      ctx.database.db,
      { id: 'otdr-101', code: 'FO-210', title: 'OTDR', description: '', departmentId: null },
      new Date(ctx.clock.now()).toISOString(),
    );
    await configure();
  });
  afterEach(async () => {
    await ctx.close();
  });

  const login = (
    username: string,
    password: string,
    ldapConfig?: unknown,
    remoteAddress = '127.0.0.1',
  ) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/auth/ldap',
      payload: {
        credentials: { username, password },
        ...(ldapConfig === undefined ? {} : { ldapConfig }),
      },
      remoteAddress,
    });
  const me = (token: string) =>
    ctx.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(token) });

  it('signs in, creates the account from the directory, maps groups to roles, 8-hour session', async () => {
    const res = await login('bob', 'bob-secret');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Date.parse(body.expiresAt) - ctx.clock.now()).toBe(8 * 3_600_000);
    expect(body.user).toMatchObject({
      username: 'bob',
      role: 'instructor',
      department: 'Field Operations',
      authMethod: 'ldap',
      ldapGroups: expect.arrayContaining([
        'hub-instructors',
        'field-operations',
        'otdr-assistants',
        'field-leads',
      ]),
      ldapAttributes: expect.objectContaining({ uid: 'bob', departmentNumber: 'Field Operations' }),
    });
    expect(body.user.email).toMatch(/bob/);
    const assignments = await listAssignments(ctx.database.db, body.user.id);
    expect(assignments.map((a) => [a.context, a.roles, a.assignedBy])).toEqual([
      [{ type: 'course', courseId: 'otdr-101' }, ['course-assistant'], 'ldap:corp'],
      [
        { type: 'department', departmentId: 'field-operations' },
        ['department-manager'],
        'ldap:corp',
      ],
    ]);
    const session = (await me(body.token)).json();
    expect(session.session.method).toBe('ldap');
  });

  it('answers a wrong password, an unknown user and an empty password alike, and records them', async () => {
    const wrong = await login('bob', 'not-bobs');
    const unknown = await login('nobody', 'whatever');
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json()).toMatchObject({ success: false, message: 'Invalid username or password' });
    expect((await login('bob', '')).statusCode).toBe(400);
    await expect(
      authenticateLdap(
        'corp',
        settingsFor(),
        { bindPassword: slapd.servicePassword },
        'bob',
        '',
        NO_TRACE,
      ),
    ).rejects.toMatchObject({ kind: 'invalid_credentials' });
    const events = await listAuthEvents(ctx.database.db, { username: 'bob' });
    expect(events[0]).toMatchObject({ event: 'login_failure', authMethod: 'ldap', success: false });
  });

  it.each(['*', ')(uid=*', 'bob)(|(uid=*', '*)(objectClass=*', 'b*'])(
    'never signs anyone in with the injection %j',
    async (username) => {
      for (const password of ['bob-secret', 'alice-secret', 'x']) {
        const res = await login(
          username,
          password,
          undefined,
          `10.1.2.${Math.floor(Math.random() * 250)}`,
        );
        expect(res.statusCode).toBe(401);
      }
    },
  );

  it('refuses a NUL in the username before it reaches the directory', async () => {
    const res = await login('bo\u0000b', 'bob-secret');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Username contains characters that are not allowed');
    await expect(
      authenticateLdap(
        'corp',
        settingsFor(),
        { bindPassword: slapd.servicePassword },
        'bo\u0000b',
        'bob-secret',
        NO_TRACE,
      ),
    ).rejects.toMatchObject({ kind: 'invalid_credentials' });
  });

  it('signs in a user whose uid needs escaping', async () => {
    const res = await login('erin (ext),ops+1', 'erin-secret');
    expect(res.statusCode).toBe(200);
    expect(res.json().user.username).toBe('erin (ext),ops+1');
  });

  it('gives a user in no mapped group the default role, or refuses them when a mapped group is required', async () => {
    const dave = await login('dave', 'dave-secret');
    expect(dave.statusCode).toBe(200);
    expect(dave.json().user).toMatchObject({
      role: 'student',
      department: 'Logistics',
      ldapGroups: [],
    });
    expect(await listAssignments(ctx.database.db, dave.json().user.id)).toEqual([]);

    await configure({ requireMappedGroup: true }, 'strict');
    const refused = await login('dave', 'dave-secret', 'strict');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('Your directory account is not allowed to sign in here');
  });

  it('withdraws the role and assignments whose group membership is gone at the next sign-in', async () => {
    const first = (await login('bob', 'bob-secret')).json();
    const participants = () =>
      ctx.app.inject({
        method: 'GET',
        url: '/api/courses/otdr-101/participants',
        headers: bearer(first.token),
      });
    expect((await participants()).statusCode).toBe(200);

    // A groupOfNames keeps at least one member: someone else stays in the groups bob leaves.
    await slapd.addToGroup('hub-instructors', 'carol');
    await slapd.addToGroup('otdr-assistants', 'carol');
    await slapd.removeFromGroup('hub-instructors', 'bob');
    await slapd.removeFromGroup('otdr-assistants', 'bob');
    try {
      const second = (await login('bob', 'bob-secret')).json();
      expect(second.user.role).toBe('student');
      expect(second.user.ldapGroups).not.toContain('otdr-assistants');
      const assignments = await listAssignments(ctx.database.db, second.user.id);
      expect(assignments.map((a) => a.context)).toEqual([
        { type: 'department', departmentId: 'field-operations' },
      ]);
      // The older session sees it too, at its next request.
      expect((await participants()).statusCode).toBe(403);
    } finally {
      await slapd.addToGroup('hub-instructors', 'bob');
      await slapd.addToGroup('otdr-assistants', 'bob');
      await slapd.removeFromGroup('hub-instructors', 'carol');
      await slapd.removeFromGroup('otdr-assistants', 'carol');
    }
  });

  it('leaves assignments an admin made by hand alone', async () => {
    const bob = (await login('bob', 'bob-secret')).json();
    const { upsertAssignment } = await import('../../platform/access/access-repository');
    await upsertAssignment(ctx.database.db, {
      userId: bob.user.id,
      context: { type: 'course', courseId: 'manual-course' },
      roles: ['course-student'],
      directPermissions: [],
      assignedBy: 'some-admin',
      assignedAt: new Date(ctx.clock.now()).toISOString(),
      expiresAt: null,
      isActive: true,
    });
    await login('bob', 'bob-secret');
    const keys = (await listAssignments(ctx.database.db, bob.user.id)).map((a) => a.assignedBy);
    expect(keys).toContain('some-admin');
  });

  it('reads groupOfUniqueNames groups by searching them', async () => {
    await configure(
      { groups: { mode: 'groupOfUniqueNames', searchBase: slapd.baseDn, nameAttribute: 'cn' } },
      'unique',
    );
    const alice = await login('alice', 'alice-secret', 'unique');
    expect(alice.json().user.ldapGroups).toEqual(['course-reviewers']);
    await configure(
      { groups: { mode: 'groupOfNames', searchBase: slapd.baseDn, nameAttribute: 'cn' } },
      'names',
    );
    const bob = await login('bob', 'bob-secret', 'names');
    expect(bob.json().user.ldapGroups).toEqual(
      expect.arrayContaining([
        'hub-instructors',
        'field-operations',
        'otdr-assistants',
        'field-leads',
        'splicers',
      ]),
    );
  });

  it('fails over to the next server when the first cannot be reached', async () => {
    await configure({ urls: [await unusedLdapUrl(), slapd.url] }, 'failover');
    const res = await login('bob', 'bob-secret', 'failover');
    expect(res.statusCode).toBe(200);
  });

  it('answers clearly and within the timeout when no server can be reached', async () => {
    await configure({ urls: [await unusedLdapUrl()] }, 'down');
    const start = Date.now();
    const res = await login('bob', 'bob-secret', 'down');
    expect(res.statusCode).toBe(503);
    expect(res.json().message).toMatch(/^No directory server could be reached/);
    expect(Date.now() - start).toBeLessThan(2500);

    await configure({ timeoutMs: 700 }, 'slow');
    await slapd.freeze();
    try {
      const frozenStart = Date.now();
      const frozen = await login('bob', 'bob-secret', 'slow');
      expect(frozen.statusCode).toBe(504);
      expect(Date.now() - frozenStart).toBeLessThan(2500);
    } finally {
      await slapd.thaw();
    }
  });

  it('accepts only the name of a configured directory from the client', async () => {
    const object = await login('bob', 'bob-secret', {
      url: 'ldap://evil.example',
      bindDN: 'cn=admin',
    });
    expect(object.statusCode).toBe(400);
    expect(object.json().message).toBe('ldapConfig may only name a configured directory');
    const unknown = await login('bob', 'bob-secret', 'ldap://evil.example:389');
    expect(unknown.statusCode).toBe(400);
    expect((await login('bob', 'bob-secret', { name: 'corp' })).statusCode).toBe(200);
  });

  it('throttles repeated failures like local sign-ins', async () => {
    for (let i = 0; i < 5; i++) await login('carol', `guess-${i}`, undefined, '10.3.3.1');
    const blocked = await login('carol', 'carol-secret', undefined, '10.3.3.1');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().code).toBe('TOO_MANY_ATTEMPTS');
    // The owner, elsewhere, is not held back by one guessing address.
    expect((await login('carol', 'carol-secret', undefined, '10.3.3.2')).statusCode).toBe(200);
  });

  it('refuses a directory account whose username belongs to a local account', async () => {
    const { createUser } = await import('../../platform/auth/user-repository');
    await createUser(
      ctx.database.db,
      {
        username: 'carol',
        firstname: 'Local',
        lastname: 'Carol',
        role: 'admin',
        passwordHash: null,
      },
      new Date(ctx.clock.now()).toISOString(),
    );
    const res = await login('carol', 'carol-secret');
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toMatch(/already signs in another way/);
    expect((await findUserByUsername(ctx.database.db, 'carol'))?.role).toBe('admin');
  });
  it('lets an admin dry-run a directory sign-in: every step, the mapped access, nothing stored', async () => {
    const admin = await createTestUser(ctx, { username: 'root', role: 'admin' });
    const adminLogin = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/local',
      payload: { username: 'root', password: admin.password },
    });
    const dryRun = (payload: object) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/admin/auth/test',
        headers: bearer(adminLogin.json().token as string),
        payload,
      });

    const res = await dryRun({ provider: 'corp', username: 'bob', password: 'bob-secret' });
    expect(res.statusCode).toBe(200);
    const result = res.json();
    expect(result).toMatchObject({
      ok: true,
      provider: 'corp',
      method: 'ldap',
      role: 'instructor',
      groups: expect.arrayContaining(['hub-instructors', 'otdr-assistants', 'field-leads']),
      user: { username: 'bob', firstname: 'Bob', authMethod: 'ldap' },
    });
    expect(result.assignments).toContainEqual({
      context: 'course:otdr-101',
      label: 'FO-210 · OTDR',
      roles: ['course-assistant'],
    });
    expect(result.steps.map((s: { name: string }) => s.name)).toEqual(
      expect.arrayContaining(['Search the user', 'Bind as the user', 'Read the groups']),
    );
    expect(result.steps.every((s: { ms: number }) => s.ms >= 0)).toBe(true);
    // A dry run: no account was created.
    expect(await findUserByUsername(ctx.database.db, 'bob')).toBeNull();

    const wrong = (await dryRun({ provider: 'corp', username: 'bob', password: 'nope' })).json();
    expect(wrong.ok).toBe(false);
    expect(wrong.steps.at(-1)).toMatchObject({ ok: false, error: 'Invalid username or password' });
    expect(wrong.user).toBeNull();

    expect((await dryRun({ provider: 'nowhere', username: 'bob', password: 'x' })).statusCode).toBe(
      404,
    );
    const student = await createTestUser(ctx, { username: 'pupil', role: 'student' });
    const studentLogin = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/local',
      payload: { username: 'pupil', password: student.password },
    });
    const denied = await ctx.app.inject({
      method: 'POST',
      url: '/api/admin/auth/test',
      headers: bearer(studentLogin.json().token as string),
      payload: { provider: 'corp', username: 'bob', password: 'bob-secret' },
    });
    expect(denied.statusCode).toBe(403);
  });
});
