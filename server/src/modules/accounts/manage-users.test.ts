import type { PermissionId } from '@learning-hub/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { insertCustomRole, upsertAssignment } from '../../platform/access/access-repository';
import { insertProvider } from '../../platform/auth/provider-repository';
import { createSession } from '../../platform/auth/session-repository';
import {
  countActiveAdmins,
  createUser,
  findUserByUsername,
} from '../../platform/auth/user-repository';
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

describe.skipIf(!available)(`admin: managing accounts (${TEST_DB_KIND})`, () => {
  let ctx: TestContext;
  let adminId: string;
  let adminToken: string;
  let sam: { id: string; password: string };

  beforeEach(async () => {
    ctx = await createTestApp();
    const admin = await createTestUser(ctx, {
      username: 'boss',
      role: 'admin',
      firstname: 'Ada',
      lastname: 'Boss',
      department: 'Network Engineering',
    });
    adminId = admin.user.id;
    adminToken = await signIn(ctx.app, 'boss', admin.password);
    const s = await createTestUser(ctx, {
      username: 'sam',
      firstname: 'Sam',
      lastname: 'Rivera',
      email: 'sam.rivera@fiberco.example',
      department: 'Customer Support',
    });
    sam = { id: s.user.id, password: s.password };
    await createTestUser(ctx, { username: 'fo-anchor', department: 'Field Operations' });
  });
  afterEach(async () => {
    await ctx.close();
  });

  const as = (token: string | null) => {
    const headers = token ? bearer(token) : {};
    return {
      get: (url: string) => ctx.app.inject({ method: 'GET', url, headers }),
      post: (url: string, payload: object) =>
        ctx.app.inject({ method: 'POST', url, headers, payload }),
      patch: (url: string, payload: object) =>
        ctx.app.inject({ method: 'PATCH', url, headers, payload }),
      put: (url: string, payload: object) =>
        ctx.app.inject({ method: 'PUT', url, headers, payload }),
    };
  };
  const admin = () => as(adminToken);
  const newUser = (overrides: Record<string, unknown> = {}) => ({
    username: 'erin.tech',
    firstname: 'Erin',
    lastname: 'Tech',
    email: 'erin@fiberco.example',
    departmentId: 'field-operations',
    ...overrides,
  });
  const auditOf = async (userId: string) =>
    (await admin().get(`/api/admin/access/audit?userId=${userId}`)).json().items as {
      action: string;
      actorUsername: string | null;
      details: Record<string, unknown>;
    }[];

  /** A user with a custom role holding exactly `permissions` (on top of student). */
  async function withCustomRole(username: string, permissions: PermissionId[]) {
    const at = new Date(ctx.clock.now()).toISOString();
    const roleId = `${username}-role`;
    await insertCustomRole(
      ctx.database.db,
      roleId,
      { displayName: roleId, description: '', inherits: 'student', permissions, priority: 20 },
      null,
      at,
    );
    const { user, password } = await createTestUser(ctx, { username, role: roleId });
    return { id: user.id, token: await signIn(ctx.app, username, password) };
  }

  describe('creating a local account', () => {
    it('shows a one-time password once, which must be changed at first sign-in', async () => {
      const res = await admin().post('/api/admin/users', newUser());
      expect(res.statusCode).toBe(201);
      expect(res.headers['cache-control']).toBe('no-store');
      // The user itself, with the password beside its fields.
      const { oneTimePassword, ...user } = res.json();
      expect(res.headers.location).toBe(`/api/admin/users/${user.id}`);
      expect(user).toMatchObject({
        username: 'erin.tech',
        firstname: 'Erin',
        lastname: 'Tech',
        email: 'erin@fiberco.example',
        department: 'Field Operations',
        role: 'student',
        authMethod: 'local',
        isActive: true,
        isDefaultPassword: true,
        mustChangePassword: true,
      });
      expect(oneTimePassword).toMatch(/^[A-Za-z2-9]{20}$/);
      expect(res.body).not.toContain('argon2');

      // Nowhere else: not in the user as read back, not in the audit trail.
      const read = await admin().get(`/api/admin/users/${user.id}`);
      expect(read.body).not.toContain(oneTimePassword);
      const [entry] = await auditOf(user.id);
      expect(entry).toMatchObject({
        action: 'user.create',
        actorUsername: 'boss',
        details: { role: 'student', department: 'Field Operations', oneTimePassword: true },
      });
      expect(JSON.stringify(entry)).not.toContain(oneTimePassword);

      const token = await signIn(ctx.app, 'erin.tech', oneTimePassword);
      const blocked = await as(token).get('/api/courses');
      expect(blocked.json().code).toBe('PASSWORD_CHANGE_REQUIRED');
      const changed = await as(token).post('/api/auth/change-password', {
        currentPassword: oneTimePassword,
        newPassword: 'splicing fibre all day',
      });
      expect(changed.statusCode).toBe(200);
      const me = await as(token).get('/api/auth/me');
      expect(me.json().user).toMatchObject({ isDefaultPassword: false, mustChangePassword: false });
    });

    it('answers 409 for a username taken in any case or width, also when two creations race', async () => {
      const taken = await admin().post('/api/admin/users', newUser({ username: 'SAM' }));
      expect(taken.statusCode).toBe(409);
      expect(taken.json()).toEqual({
        code: 'CONFLICT',
        message: 'A user named "SAM" already exists. Choose another username.',
      });
      // Full-width letters are the same name once normalised (NFKC).
      const wide = await admin().post('/api/admin/users', newUser({ username: 'ｓａｍ' }));
      expect(wide.statusCode).toBe(409);

      const racing = await Promise.all(
        Array.from({ length: 4 }, (_, i) =>
          admin().post('/api/admin/users', newUser({ username: 'twin', firstname: `Twin${i}` })),
        ),
      );
      const statuses = racing.map((r) => r.statusCode).sort();
      expect(statuses).toEqual([201, 409, 409, 409]);
      for (const r of racing.filter((x) => x.statusCode === 409)) {
        expect(r.json().message).toBe(
          'A user named "twin" already exists. Choose another username.',
        );
      }
      const listed = await admin().get('/api/admin/users?search=twin');
      expect(listed.json().total).toBe(1);
    });

    it('refuses bad input with a clear 400', async () => {
      const cases: [Record<string, unknown>, string][] = [
        [newUser({ username: 'a' }), 'Username must be 2 to 64 characters'],
        [newUser({ username: 'two words' }), 'Use letters, digits and . _ - @'],
        [newUser({ username: '\u202eevil' }), 'Use letters, digits and . _ - @'],
        [newUser({ firstname: '   ' }), 'First name is required'],
        [newUser({ lastname: 'Tech\u2066' }), 'Last name'],
        [newUser({ email: 'not-an-email' }), 'Enter a valid email address'],
        [newUser({ extra: true }), ''],
        [newUser({ departmentId: 'atlantis' }), 'No such department: atlantis'],
        [newUser({ role: 'wizard' }), 'Unknown role "wizard"'],
      ];
      for (const [body, message] of cases) {
        const res = await admin().post('/api/admin/users', body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json().message).toContain(message);
      }
      expect(await findUserByUsername(ctx.database.db, 'erin.tech')).toBeNull();
    });

    it('needs user.create, and a role other than the default needs the right to grant it', async () => {
      const student = await signIn(ctx.app, 'sam', sam.password);
      const denied = await as(student).post('/api/admin/users', newUser());
      expect(denied.statusCode).toBe(403);
      expect(denied.json().message).toBe('Missing required permission: user.create');
      expect((await as(null).post('/api/admin/users', newUser())).statusCode).toBe(401);

      const clerk = await withCustomRole('clerk', ['user.view', 'user.create']);
      const plain = await as(clerk.token).post('/api/admin/users', newUser());
      expect(plain.statusCode).toBe(201);
      expect(plain.json().role).toBe('student');
      // The grant rules of core/access: never admin, only roles whose permissions they hold.
      for (const [role, reason] of [
        ['admin', 'Only an admin can grant the admin role'],
        ['instructor', 'Cannot grant permissions you do not hold: course.create'],
      ] as const) {
        const res = await as(clerk.token).post(
          '/api/admin/users',
          newUser({ username: `x-${role}`, role }),
        );
        expect(res.statusCode, role).toBe(403);
        expect(res.json().message).toContain(reason);
        expect(await findUserByUsername(ctx.database.db, `x-${role}`)).toBeNull();
      }
      const peer = await as(clerk.token).post(
        '/api/admin/users',
        newUser({ username: 'x-peer', role: 'clerk-role' }),
      );
      expect(peer.statusCode).toBe(201);

      const byAdmin = await admin().post(
        '/api/admin/users',
        newUser({ username: 'new-boss', role: 'admin' }),
      );
      expect(byAdmin.statusCode).toBe(201);
      expect(byAdmin.json().role).toBe('admin');
    });
  });

  describe('editing an account', () => {
    it('changes names, email and department, recorded with before and after', async () => {
      const res = await admin().patch(`/api/admin/users/${sam.id}`, {
        firstname: ' Samuel ',
        email: null,
        departmentId: 'field-operations',
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        firstname: 'Samuel',
        lastname: 'Rivera',
        email: null,
        department: 'Field Operations',
      });
      const [entry] = await auditOf(sam.id);
      expect(entry).toMatchObject({
        action: 'user.update',
        actorUsername: 'boss',
        details: {
          before: {
            firstname: 'Sam',
            email: 'sam.rivera@fiberco.example',
            departmentId: 'customer-support',
          },
          after: { firstname: 'Samuel', email: null, departmentId: 'field-operations' },
        },
      });
      // The new department opens to Sam on the next request (own-department membership).
      const token = await signIn(ctx.app, 'sam', sam.password);
      const dept = await as(token).get('/api/departments/field-operations');
      expect(dept.statusCode).toBe(200);

      // Unchanged values are no change and leave no entry.
      const same = await admin().patch(`/api/admin/users/${sam.id}`, { lastname: 'Rivera' });
      expect(same.statusCode).toBe(200);
      expect(await auditOf(sam.id)).toHaveLength(1);

      expect((await admin().patch(`/api/admin/users/${sam.id}`, {})).statusCode).toBe(400);
      // Names follow the identity-text rules: no bidirectional controls that disguise them.
      const disguised = await admin().patch(`/api/admin/users/${sam.id}`, {
        lastname: '\u202egnp.exe',
      });
      expect(disguised.statusCode).toBe(400);
      expect((await admin().patch(`/api/admin/users/nobody`, { lastname: 'X' })).statusCode).toBe(
        404,
      );
      expect(
        (await admin().patch(`/api/admin/users/${sam.id}`, { departmentId: 'atlantis' }))
          .statusCode,
      ).toBe(400);
    });

    it("checks user.edit in the user's context, and only admins change admins", async () => {
      const student = await signIn(ctx.app, 'sam', sam.password);
      const denied = await as(student).patch(`/api/admin/users/${adminId}`, { firstname: 'X' });
      expect(denied.statusCode).toBe(403);
      expect(denied.json().message).toBe('Missing required permission: user.edit');

      // user.edit held in the context of one user only: that user, and nobody else.
      const mentor = await withCustomRole('mentor', ['user.view']);
      const other = await createTestUser(ctx, { username: 'other' });
      await upsertAssignment(ctx.database.db, {
        userId: mentor.id,
        context: { type: 'user', userId: sam.id },
        roles: [],
        directPermissions: ['user.edit'],
        assignedBy: adminId,
        assignedAt: new Date(ctx.clock.now()).toISOString(),
        expiresAt: null,
        isActive: true,
      });
      const own = await as(mentor.token).patch(`/api/admin/users/${sam.id}`, {
        firstname: 'Sammy',
      });
      expect(own.statusCode).toBe(200);
      const elsewhere = await as(mentor.token).patch(`/api/admin/users/${other.user.id}`, {
        firstname: 'Y',
      });
      expect(elsewhere.statusCode).toBe(403);

      const editor = await withCustomRole('editor', ['user.view', 'user.edit', 'user.delete']);
      const onAdmin = await as(editor.token).patch(`/api/admin/users/${adminId}`, {
        firstname: 'Hacked',
      });
      expect(onAdmin.statusCode).toBe(403);
      const offAdmin = await as(editor.token).put(`/api/admin/users/${adminId}/active`, {
        active: false,
      });
      expect(offAdmin.statusCode).toBe(403);
      const account = await as(editor.token).get(`/api/admin/users/${adminId}/account`);
      expect(account.json().abilities.edit.allowed).toBe(false);
      expect(account.json().abilities.deactivate.allowed).toBe(false);
      const onSam = await as(editor.token).patch(`/api/admin/users/${sam.id}`, { lastname: 'R' });
      expect(onSam.statusCode).toBe(200);
    });

    it('shows the fields a directory, Moodle or SSO account gets from its provider read-only and refuses to change them', async () => {
      const at = new Date(ctx.clock.now()).toISOString();
      await insertProvider(
        ctx.database.db,
        {
          id: 'corp-ldap',
          method: 'ldap',
          label: 'Corporate directory',
          enabled: true,
          settings: { attributes: { department: 'ou' } },
          secrets: {},
        },
        at,
      );
      const bob = await createUser(
        ctx.database.db,
        {
          username: 'bob',
          firstname: 'Bob',
          lastname: 'Builder',
          email: 'bob@corp.example',
          role: 'student',
          passwordHash: null,
          authMethod: 'ldap',
          provider: { authSource: 'corp-ldap', externalId: 'uid=bob', ldapGroups: [] },
        },
        at,
      );
      const noah = await createUser(
        ctx.database.db,
        {
          username: 'noah',
          firstname: 'Noah',
          lastname: 'Moodle',
          role: 'student',
          passwordHash: null,
          authMethod: 'moodle',
          provider: { authSource: 'campus', externalId: '7', moodleId: 7 },
        },
        at,
      );

      const bobAccount = await admin().get(`/api/admin/users/${bob.id}/account`);
      expect(bobAccount.statusCode).toBe(200);
      expect(bobAccount.json()).toMatchObject({
        authMethod: 'ldap',
        provider: { id: 'corp-ldap', label: 'Corporate directory' },
        providerOwned: ['firstname', 'lastname', 'email', 'department'],
      });
      for (const body of [
        { firstname: 'Robert' },
        { email: 'other@corp.example' },
        { departmentId: 'field-operations' },
      ]) {
        const res = await admin().patch(`/api/admin/users/${bob.id}`, body);
        expect(res.statusCode, JSON.stringify(body)).toBe(409);
      }
      const refused = await admin().patch(`/api/admin/users/${bob.id}`, {
        firstname: 'Robert',
        lastname: 'B',
      });
      expect(refused.json()).toEqual({
        code: 'CONFLICT',
        message:
          'The first name, The last name of this account come from Corporate directory and can only be changed there.',
        details: { fields: ['firstname', 'lastname'] },
      });
      // Sending a field's current value is no change.
      expect(
        (await admin().patch(`/api/admin/users/${bob.id}`, { firstname: 'Bob' })).statusCode,
      ).toBe(200);

      // Moodle gives names only: the email and department stay the admin's to set.
      const noahAccount = await admin().get(`/api/admin/users/${noah.id}/account`);
      expect(noahAccount.json()).toMatchObject({
        provider: { id: 'campus', label: 'campus' },
        providerOwned: ['firstname', 'lastname'],
      });
      expect(
        (await admin().patch(`/api/admin/users/${noah.id}`, { lastname: 'X' })).statusCode,
      ).toBe(409);
      const email = await admin().patch(`/api/admin/users/${noah.id}`, {
        email: 'noah@campus.example',
        departmentId: 'field-operations',
      });
      expect(email.statusCode).toBe(200);
      expect(email.json()).toMatchObject({
        email: 'noah@campus.example',
        department: 'Field Operations',
      });

      const local = await admin().get(`/api/admin/users/${sam.id}/account`);
      expect(local.json()).toMatchObject({
        authMethod: 'local',
        provider: null,
        providerOwned: [],
      });
    });
  });

  describe("a user's own profile", () => {
    it('follows the same rule: what the provider owns is read-only for its user too', async () => {
      const at = new Date(ctx.clock.now()).toISOString();
      const noah = await createUser(
        ctx.database.db,
        {
          username: 'noah',
          firstname: 'Noah',
          lastname: 'Moodle',
          role: 'student',
          passwordHash: null,
          authMethod: 'moodle',
          provider: { authSource: 'campus', externalId: '7', moodleId: 7 },
        },
        at,
      );
      const { token } = await createSession(ctx.database.db, {
        userId: noah.id,
        method: 'moodle',
        now: new Date(ctx.clock.now()),
        lifetimeMs: 3_600_000,
        ipAddress: '127.0.0.1',
        userAgent: 'test',
      });
      const source = await as(token).get('/api/auth/profile');
      expect(source.statusCode).toBe(200);
      expect(source.json()).toEqual({
        provider: { id: 'campus', label: 'campus' },
        providerOwned: ['firstname', 'lastname'],
      });
      const refused = await as(token).put('/api/auth/profile', { firstname: 'Noa' });
      expect(refused.statusCode).toBe(409);
      expect(refused.json().message).toBe(
        'The first name of this account comes from campus and can only be changed there.',
      );
      const email = await as(token).put('/api/auth/profile', {
        firstname: 'Noah',
        email: 'noah@campus.example',
      });
      expect(email.statusCode).toBe(200);
      expect(email.json().user).toMatchObject({ firstname: 'Noah', email: 'noah@campus.example' });

      const local = await signIn(ctx.app, 'sam', sam.password);
      expect((await as(local).get('/api/auth/profile')).json()).toEqual({
        provider: null,
        providerOwned: [],
      });
      const saved = await as(local).put('/api/auth/profile', { firstname: 'Samuel' });
      expect(saved.json().user.firstname).toBe('Samuel');
    });
  });

  describe('deactivating and reactivating', () => {
    it('ends every session at once, refuses sign-in, and reactivation lets the user back', async () => {
      const token = await signIn(ctx.app, 'sam', sam.password);
      const second = await signIn(ctx.app, 'sam', sam.password, '10.0.0.2');
      expect((await as(token).get('/api/auth/me')).statusCode).toBe(200);

      const off = await admin().put(`/api/admin/users/${sam.id}/active`, { active: false });
      expect(off.statusCode).toBe(200);
      expect(off.json()).toMatchObject({ id: sam.id, isActive: false, endedSessions: 2 });
      expect((await as(token).get('/api/auth/me')).statusCode).toBe(401);
      expect((await as(second).get('/api/auth/me')).statusCode).toBe(401);
      const login = await ctx.app.inject({
        method: 'POST',
        url: '/api/auth/local',
        payload: { username: 'sam', password: sam.password },
      });
      expect(login.statusCode).toBe(403);
      expect(login.json().code).toBe('ACCOUNT_DISABLED');

      // Again: nothing to do, nothing recorded.
      const again = await admin().put(`/api/admin/users/${sam.id}/active`, { active: false });
      expect(again.json()).toMatchObject({ id: sam.id, isActive: false, endedSessions: 0 });

      const account = await admin().get(`/api/admin/users/${sam.id}/account`);
      expect(account.json().abilities).toMatchObject({
        deactivate: { allowed: false },
        reactivate: { allowed: true },
      });

      const on = await admin().put(`/api/admin/users/${sam.id}/active`, { active: true });
      expect(on.statusCode).toBe(200);
      expect(on.json().isActive).toBe(true);
      const back = await signIn(ctx.app, 'sam', sam.password);
      expect((await as(back).get('/api/auth/me')).statusCode).toBe(200);
      // The sessions ended by the deactivation stay ended.
      expect((await as(token).get('/api/auth/me')).statusCode).toBe(401);

      const entries = await auditOf(sam.id);
      expect(entries.map((e) => e.action)).toEqual(['user.reactivate', 'user.deactivate']);
      expect(entries[1]).toMatchObject({ actorUsername: 'boss', details: { endedSessions: 2 } });
    });

    it('needs user.delete; nobody deactivates themselves; the developer account stays', async () => {
      const student = await signIn(ctx.app, 'sam', sam.password);
      const denied = await as(student).put(`/api/admin/users/${sam.id}/active`, { active: false });
      expect(denied.statusCode).toBe(403);
      expect(denied.json().message).toBe('Missing required permission: user.delete');

      const self = await admin().put(`/api/admin/users/${adminId}/active`, { active: false });
      expect(self.statusCode).toBe(409);
      expect(self.json().message).toBe('You cannot deactivate your own account.');
      const mine = await admin().get(`/api/admin/users/${adminId}/account`);
      expect(mine.json().abilities.deactivate).toEqual({
        allowed: false,
        reason: 'You cannot deactivate your own account.',
      });

      const developer = await createUser(
        ctx.database.db,
        {
          username: 'developer',
          firstname: 'Developer',
          lastname: 'Admin',
          role: 'admin',
          passwordHash: null,
          authMethod: 'disabled',
        },
        new Date(ctx.clock.now()).toISOString(),
      );
      const dev = await admin().put(`/api/admin/users/${developer.id}/active`, { active: false });
      expect(dev.statusCode).toBe(409);
      expect((await admin().put(`/api/admin/users/${sam.id}/active`, {})).statusCode).toBe(400);
    });

    it('keeps one active admin when two admins deactivate each other at the same moment', async () => {
      let survivor = { id: adminId, token: adminToken };
      for (let round = 0; round < 5; round++) {
        const other = await createTestUser(ctx, { username: `boss-${round}`, role: 'admin' });
        const otherToken = await signIn(ctx.app, `boss-${round}`, other.password);
        const [a, b] = await Promise.all([
          as(survivor.token).put(`/api/admin/users/${other.user.id}/active`, { active: false }),
          as(otherToken).put(`/api/admin/users/${survivor.id}/active`, { active: false }),
        ]);
        const statuses = [a.statusCode, b.statusCode].sort();
        expect(statuses[0]).toBe(200);
        // The loser was refused as the last admin, or its own session had just been ended.
        expect([401, 409]).toContain(statuses[1]);
        expect(await countActiveAdmins(ctx.database.db)).toBe(1);
        if (b.statusCode === 200) survivor = { id: other.user.id, token: otherToken };
      }
    });
  });
});
