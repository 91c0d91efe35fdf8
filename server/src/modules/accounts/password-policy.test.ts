/**
 * The password policy wherever a password is set (own change, operator command line), and the
 * Unicode normalisation of passwords, against the real API on SQLite and PostgreSQL.
 */
import { hash } from '@node-rs/argon2';
import { PASSWORD_MESSAGES } from '@learning-hub/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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

describe.skipIf(!available)(`password policy (${TEST_DB_KIND})`, () => {
  let ctx: TestContext;
  beforeEach(async () => {
    ctx = await createTestApp();
  });
  afterEach(async () => {
    await ctx.close();
  });

  const login = (username: string, password: string) =>
    ctx.app.inject({ method: 'POST', url: '/api/auth/local', payload: { username, password } });
  const change = (token: string, currentPassword: string, newPassword: string) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/auth/change-password',
      headers: bearer(token),
      payload: { currentPassword, newPassword },
    });
  const run = (...args: string[]) =>
    runAdminCommand(ctx.database.db, args, new Date(ctx.clock.now()));

  describe('changing one’s own password refuses the weak passwords of the report', () => {
    it.each([
      ['eight spaces', ' '.repeat(8), PASSWORD_MESSAGES.onlySpaces],
      ['eight NUL characters', '\u0000'.repeat(8), PASSWORD_MESSAGES.controlCharacters],
      ['aaaaaaaa', 'aaaaaaaa', PASSWORD_MESSAGES.repeated],
      ['the username plus a digit', 'tuser101', PASSWORD_MESSAGES.containsUsername],
      ['the username in full width', 'ＴＵＳＥＲ１０!', PASSWORD_MESSAGES.containsUsername],
      ['MUSTCHG1', 'MUSTCHG1', PASSWORD_MESSAGES.siteWord],
      ['abcdefgh', 'abcdefgh', PASSWORD_MESSAGES.sequence],
      ['12345678', '12345678', PASSWORD_MESSAGES.sequence],
      ['qwertyui', 'qwertyui', PASSWORD_MESSAGES.sequence],
      ['the first name', 'Gwendolyn 2024', PASSWORD_MESSAGES.containsName],
      ['the last name', 'xx-okonkwo-xx', PASSWORD_MESSAGES.containsName],
      ['a common password with a suffix', 'Sunshine2024!', PASSWORD_MESSAGES.tooCommon],
      ['a common password with swaps', 'p@ssw0rd!', PASSWORD_MESSAGES.tooCommon],
      ['changeme', 'Changeme!', PASSWORD_MESSAGES.tooCommon],
      ['a lone surrogate', 'fiber \ud800 splice', PASSWORD_MESSAGES.brokenCharacter],
      [
        'the current one in full width',
        'ｃｏｒｒｅｃｔ ｆｉｂｅｒ ｓｐｌｉｃｅ',
        PASSWORD_MESSAGES.sameAsCurrent,
      ],
    ])('refuses %s', async (_name, newPassword, message) => {
      const { password } = await createTestUser(ctx, {
        username: 'tuser10',
        firstname: 'Gwendolyn',
        lastname: 'Okonkwo',
        password: 'correct fiber splice',
      });
      const token = await signIn(ctx.app, 'tuser10', password);
      const res = await change(token, password, newPassword);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ code: 'PASSWORD_POLICY', message });
      expect((await login('tuser10', password)).statusCode).toBe(200);
    });

    it('keeps accepting passphrases and any other Unicode', async () => {
      let { password } = await createTestUser(ctx, { username: 'tuser11', firstname: 'Gwen' });
      for (const phrase of [
        'splice the fiber at dawn',
        'ñandú 光ファイバー 🔌🔌 and more',
        'كلمة سر طويلة جدا',
        '  spaces  around  ',
      ]) {
        const token = await signIn(ctx.app, 'tuser11', password);
        const res = await change(token, password, phrase);
        expect(res.statusCode, phrase).toBe(200);
        password = phrase;
      }
    });
  });

  describe('normalisation (NFKC)', () => {
    it('a password set in full-width letters signs in typed in plain ones, and back', async () => {
      const { password } = await createTestUser(ctx, { username: 'wide' });
      const token = await signIn(ctx.app, 'wide', password);
      expect((await change(token, password, 'ｆｉｂｅｒ ｏｎ ｔｈｅ ｐｏｌｅ')).statusCode).toBe(
        200,
      );
      expect((await login('wide', 'fiber on the pole')).statusCode).toBe(200);
      expect((await login('wide', 'ｆｉｂｅｒ ｏｎ ｔｈｅ ｐｏｌｅ')).statusCode).toBe(200);
    });

    it('a hash made before normalisation still signs in as typed, and is then replaced', async () => {
      const typed = 'ﬁber ｓｐｌｉｃｅ at dawn'; // a ligature and full-width letters
      const { user } = await createTestUser(ctx, { username: 'legacy' });
      // As the old code stored it: the argon2id hash of the password exactly as typed.
      const oldHash = await hash(typed, {
        algorithm: 2,
        memoryCost: 19_456,
        timeCost: 2,
        parallelism: 1,
      });
      await ctx.database.db
        .updateTable('users')
        .set({ password_hash: oldHash })
        .where('id', '=', user.id)
        .execute();

      expect((await login('legacy', 'fiber splice at dawn')).statusCode).toBe(401);
      expect((await login('legacy', typed)).statusCode).toBe(200);
      const after = await findUserByUsername(ctx.database.db, 'legacy');
      expect(after?.passwordHash).not.toBe(oldHash);
      // Now stored normalised: both forms sign in.
      expect((await login('legacy', 'fiber splice at dawn')).statusCode).toBe(200);
      expect((await login('legacy', typed)).statusCode).toBe(200);
    });
  });

  describe('the operator command line applies the same policy', () => {
    it.each([
      ['eight spaces', ' '.repeat(8), PASSWORD_MESSAGES.onlySpaces],
      ['eight NUL characters', '\u0000'.repeat(8), PASSWORD_MESSAGES.controlCharacters],
      ['aaaaaaaa', 'aaaaaaaa', PASSWORD_MESSAGES.repeated],
      ['MUSTCHG1', 'MUSTCHG1', PASSWORD_MESSAGES.siteWord],
      ['the username plus a digit', 'opsuser7', PASSWORD_MESSAGES.containsUsername],
      ['the last name', 'Hallorann!!', PASSWORD_MESSAGES.containsName],
    ])('create refuses %s', async (_name, password, message) => {
      await expect(
        run(
          'user',
          'create',
          '--username',
          'opsuser',
          '--role',
          'student',
          '--firstname',
          'Dick',
          '--lastname',
          'Hallorann',
          '--password',
          password,
        ),
      ).rejects.toThrow(message);
      expect(await findUserByUsername(ctx.database.db, 'opsuser')).toBeNull();
    });

    it('set-password refuses MUSTCHG1 and the username, and takes a passphrase', async () => {
      await createTestUser(ctx, { username: 'resetme', firstname: 'Ada', lastname: 'Byron' });
      await expect(
        run('user', 'set-password', 'resetme', '--password', 'MUSTCHG1'),
      ).rejects.toThrow(PASSWORD_MESSAGES.siteWord);
      await expect(
        run('user', 'set-password', 'resetme', '--password', 'resetme1'),
      ).rejects.toThrow(PASSWORD_MESSAGES.containsUsername);
      await expect(
        run('user', 'set-password', 'resetme', '--password', 'byron lord of fiber'),
      ).rejects.toThrow(PASSWORD_MESSAGES.containsName);
      await run('user', 'set-password', 'resetme', '--password', 'a brand new passphrase');
      expect((await login('resetme', 'a brand new passphrase')).statusCode).toBe(200);
    });
  });
});
