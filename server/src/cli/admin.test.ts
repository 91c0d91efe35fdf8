import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { insertCustomRole, listAccessAudit } from '../platform/access/access-repository';
import { findUserByUsername } from '../platform/auth/user-repository';
import { seedDemoData, DEMO_ACCOUNTS } from '../seed';
import {
  bearer,
  createTestApp,
  signIn,
  testDatabaseAvailable,
  TEST_DB_KIND,
  type TestContext,
} from '../test/helpers';
import { runAdminCommand } from './admin';

const available = await testDatabaseAvailable();

describe.skipIf(!available)(`admin command line (${TEST_DB_KIND})`, () => {
  let ctx: TestContext;
  beforeEach(async () => {
    ctx = await createTestApp();
  });
  afterEach(async () => {
    await ctx.close();
  });
  // On the test clock, like the sessions the tests sign in with.
  const run = (...args: string[]) =>
    runAdminCommand(ctx.database.db, args, new Date(ctx.clock.now()));

  it('creates the first admin, who can then sign in', async () => {
    const out = await run(
      'user',
      'create',
      '--username',
      'root-ops',
      '--role',
      'admin',
      '--firstname',
      'Ops',
      '--lastname',
      'Lead',
      '--department',
      'Network Operations',
      '--password',
      'bootstrap the hub',
    );
    expect(out).toBe('Created admin "root-ops".');
    const token = await signIn(ctx.app, 'root-ops', 'bootstrap the hub');
    const me = await ctx.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(token) });
    expect(me.json().user).toMatchObject({
      role: 'admin',
      department: 'Network Operations',
      mustChangePassword: false,
    });
  });

  it('generates a one-time password that must be changed when none is given', async () => {
    const out = await run(
      'user',
      'create',
      '--username',
      'newbie',
      '--role',
      'student',
      '--firstname',
      'N',
      '--lastname',
      'B',
    );
    const password = /one-time password: (\S+)/.exec(out)?.[1];
    expect(password).toBeDefined();
    const user = await findUserByUsername(ctx.database.db, 'newbie');
    expect(user).toMatchObject({ isDefaultPassword: true, role: 'student' });
    const token = await signIn(ctx.app, 'newbie', password!);
    const blocked = await ctx.app.inject({
      method: 'PUT',
      url: '/api/auth/profile',
      headers: bearer(token),
      payload: { firstname: 'X' },
    });
    expect(blocked.json().code).toBe('PASSWORD_CHANGE_REQUIRED');
  });

  it('applies the password policy', async () => {
    await expect(
      run(
        'user',
        'create',
        '--username',
        'weak',
        '--role',
        'student',
        '--firstname',
        'W',
        '--lastname',
        'K',
        '--password',
        'password',
      ),
    ).rejects.toThrow('This password is too common. Choose a less common one.');
  });

  it('sets roles, resets passwords (ending sessions) and deactivates', async () => {
    await seedDemoData(ctx.database.db);
    const demo = DEMO_ACCOUNTS[2];
    const token = await signIn(ctx.app, demo.username, demo.password);

    expect(await run('user', 'set-role', 'student', 'instructor')).toBe(
      '"student" is now instructor (was student).',
    );
    await expect(run('user', 'set-role', 'student', 'wizard')).rejects.toThrow(
      'Unknown role "wizard"',
    );

    const reset = await run(
      'user',
      'set-password',
      'student',
      '--password',
      'a brand new passphrase',
    );
    expect(reset).toContain('Ended 1 active session(s).');
    const me = await ctx.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(token) });
    expect(me.statusCode).toBe(401);

    await signIn(ctx.app, 'student', 'a brand new passphrase');
    expect(await run('user', 'deactivate', 'student')).toBe(
      '"student" is deactivated; ended 1 active session(s).',
    );
    const login = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/local',
      payload: { username: 'student', password: 'a brand new passphrase' },
    });
    expect(login.statusCode).toBe(403);
    expect(await run('user', 'list')).toMatch(
      /student\s+instructor\s+Field Operations\s+deactivated/,
    );
  });

  it('gives custom roles too, and writes the change to the access audit trail', async () => {
    await seedDemoData(ctx.database.db);
    await insertCustomRole(
      ctx.database.db,
      'field-trainer',
      {
        displayName: 'Field trainer',
        description: '',
        inherits: 'instructor',
        permissions: [],
        priority: 20,
      },
      null,
      new Date().toISOString(),
    );
    expect(await run('user', 'set-role', 'student', 'field-trainer')).toBe(
      '"student" is now field-trainer (was student).',
    );
    const { entries } = await listAccessAudit(ctx.database.db, {
      action: 'role.set',
      offset: 0,
      limit: 5,
    });
    expect(entries[0]).toMatchObject({
      actorUsername: 'operator (command line)',
      targetUsername: 'student',
      roleId: 'field-trainer',
    });
  });

  it('creates, deactivates and reactivates through the same domain as the admin area, audited', async () => {
    await run(
      'user',
      'create',
      '--username',
      'only-admin',
      '--role',
      'admin',
      '--firstname',
      'Only',
      '--lastname',
      'Admin',
      '--password',
      'bootstrap the hub',
    );
    const out = await run(
      'user',
      'create',
      '--username',
      'crew',
      '--role',
      'student',
      '--firstname',
      'Crew',
      '--lastname',
      'Member',
    );
    const password = /one-time password: (\S+)/.exec(out)?.[1] as string;
    await signIn(ctx.app, 'crew', password);
    await expect(
      run(
        'user',
        'create',
        '--username',
        'CREW',
        '--role',
        'student',
        '--firstname',
        'C',
        '--lastname',
        'M',
      ),
    ).rejects.toThrow('A user named "CREW" already exists.');

    // The last active admin stays, whoever asks.
    await expect(run('user', 'deactivate', 'only-admin')).rejects.toThrow(
      'At least one active admin must remain.',
    );
    expect(await run('user', 'deactivate', 'crew')).toBe(
      '"crew" is deactivated; ended 1 active session(s).',
    );
    expect(await run('user', 'activate', 'crew')).toBe('"crew" is active again.');

    const { entries } = await listAccessAudit(ctx.database.db, { offset: 0, limit: 10 });
    expect(entries.map((e) => [e.action, e.targetUsername, e.actorUsername])).toEqual([
      ['user.reactivate', 'crew', 'operator (command line)'],
      ['user.deactivate', 'crew', 'operator (command line)'],
      ['user.create', 'crew', 'operator (command line)'],
      ['user.create', 'only-admin', 'operator (command line)'],
    ]);
    expect(JSON.stringify(entries)).not.toContain(password);
  });

  it('explains bad usage', async () => {
    await expect(run('user')).rejects.toThrow('Usage: npm run admin');
    await expect(run('user', 'set-role', 'nobody', 'admin')).rejects.toThrow(
      'No user named "nobody".',
    );
  });
});

describe.skipIf(!available)(`demo seed (${TEST_DB_KIND})`, () => {
  it('seeds an empty database once, with working demo accounts', async () => {
    const ctx = await createTestApp();
    try {
      expect(await seedDemoData(ctx.database.db)).toBe(true);
      expect(await seedDemoData(ctx.database.db)).toBe(false);
      for (const account of DEMO_ACCOUNTS) {
        const token = await signIn(ctx.app, account.username, account.password);
        const me = await ctx.app.inject({
          method: 'GET',
          url: '/api/auth/me',
          headers: bearer(token),
        });
        expect(me.json().user).toMatchObject({
          role: account.role,
          department: account.department,
          isDefaultPassword: false,
        });
      }
    } finally {
      await ctx.close();
    }
  });
});
