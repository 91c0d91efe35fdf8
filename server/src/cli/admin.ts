/**
 * The operator's command line, to bootstrap and recover without the UI:
 *
 *   npm run admin -- user create --username U --role admin --firstname F --lastname L
 *                                [--email E] [--department NAME] [--password P | --password-stdin]
 *                                [--must-change]
 *   npm run admin -- user set-role <username> <student|instructor|admin>
 *   npm run admin -- user set-password <username> [--password P | --password-stdin] [--must-change]
 *   npm run admin -- user deactivate <username>
 *   npm run admin -- user activate <username>
 *   npm run admin -- user list
 *
 * Without a password option a strong random one is generated, printed once, and flagged so the
 * user must change it at first sign-in. New passwords follow the same policy as the UI.
 */
import { parseArgs } from 'node:util';
import {
  AppError,
  departmentName,
  identityCharacters,
  personName,
  SYSTEM_ROLE_IDS,
} from '@learning-hub/core';
import type { z } from 'zod';
import { recordAccessAudit } from '../platform/access/access-repository';
import {
  createLocalAccount,
  generateOneTimePassword,
  requireKnownRole,
  setAccountActive,
} from '../platform/auth/account-management';
import {
  hashPassword,
  passwordPolicyProblem,
  type PasswordOwner,
} from '../platform/auth/passwords';
import { revokeUserSessions } from '../platform/auth/session-repository';
import {
  findUserByUsername,
  listUsers,
  setPasswordHash,
  setRole,
} from '../platform/auth/user-repository';
import { findOrCreateDepartment } from '../platform/auth/departments';
import { ConfigError, loadConfig } from '../config';
import { migrateToLatest, openDatabase, withoutThreads, type Db } from '../platform/db';
import type { Actor } from '../platform/actor';

class UsageError extends Error {}

const USAGE = `Usage: npm run admin -- user <command> ...
  user create --username U --role ROLE --firstname F --lastname L [--email E]
              [--department NAME] [--password P | --password-stdin] [--must-change]
  user set-role <username> <${SYSTEM_ROLE_IDS.join('|')}|custom role id>
  user set-password <username> [--password P | --password-stdin] [--must-change]
  user deactivate <username>
  user activate <username>
  user list`;

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

async function choosePassword(
  values: { password?: string; 'password-stdin'?: boolean; 'must-change'?: boolean },
  owner: PasswordOwner,
): Promise<{ password: string; generated: boolean; mustChange: boolean }> {
  let password = values.password;
  if (values['password-stdin']) password = await readStdin();
  if (password === undefined) {
    return { password: generateOneTimePassword(), generated: true, mustChange: true };
  }
  const problem = passwordPolicyProblem(password, owner);
  if (problem) throw new UsageError(problem);
  return { password, generated: false, mustChange: values['must-change'] === true };
}

/** A name given on the command line, checked and normalised as the API does, else a usage error. */
function identityArg(schema: z.ZodType<string, string>, value: string): string {
  const result = schema.safeParse(value);
  if (!result.success) throw new UsageError(result.error.issues[0]?.message ?? 'Invalid value.');
  return result.data;
}

/** How the audit trail names changes made with this command line. */
const OPERATOR = 'operator (command line)';

/** The operator as the actor of audit entries. */
const OPERATOR_ACTOR: Actor = { id: null, username: OPERATOR };

/** The domain's refusals (unknown role, name taken, last admin) are usage errors here. */
async function asUsage<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AppError && error.status < 500) throw new UsageError(error.message);
    throw error;
  }
}

/** A system role or one of the custom roles stored in the database. */
const requireRole = (db: Db, role: string) => asUsage(() => requireKnownRole(db, role));

async function requireUser(db: Db, username: string | undefined) {
  if (!username) throw new UsageError('A username is required.');
  const user = await findUserByUsername(db, username);
  if (!user) throw new UsageError(`No user named "${username}".`);
  return user;
}

export async function runAdminCommand(db: Db, argv: string[], now = new Date()): Promise<string> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      username: { type: 'string' },
      role: { type: 'string' },
      firstname: { type: 'string' },
      lastname: { type: 'string' },
      email: { type: 'string' },
      department: { type: 'string' },
      password: { type: 'string' },
      'password-stdin': { type: 'boolean' },
      'must-change': { type: 'boolean' },
    },
  });
  const [group, command, ...rest] = positionals;
  if (group !== 'user' || !command) throw new UsageError(USAGE);
  const at = now.toISOString();

  switch (command) {
    case 'create': {
      const { username, role } = values;
      if (!username || !role || !values.firstname || !values.lastname) {
        throw new UsageError('create needs --username, --role, --firstname and --lastname.');
      }
      // The same name rules as the API: no control or bidirectional characters, NFC.
      identityArg(identityCharacters('Username'), username);
      const firstname = identityArg(personName('First name'), values.firstname);
      const lastname = identityArg(personName('Last name'), values.lastname);
      const department =
        values.department === undefined
          ? undefined
          : identityArg(departmentName(), values.department);
      await requireRole(db, role);
      if (await findUserByUsername(db, username)) {
        throw new UsageError(`A user named "${username}" already exists.`);
      }
      let departmentId: string | null = null;
      if (department) {
        departmentId = (await findOrCreateDepartment(db, department, at)).id;
      }
      const chosen = await choosePassword(values, {
        username,
        firstname,
        lastname,
        email: values.email ?? null,
      });
      const { oneTimePassword } = await asUsage(() =>
        createLocalAccount(
          db,
          {
            username,
            role,
            firstname,
            lastname,
            email: values.email ?? null,
            departmentId,
            // Without a password option the domain makes the one-time password itself.
            ...(chosen.generated
              ? {}
              : { password: { value: chosen.password, mustChange: chosen.mustChange } }),
          },
          OPERATOR_ACTOR,
          at,
        ),
      );
      return oneTimePassword
        ? `Created ${role} "${username}" with the one-time password: ${oneTimePassword}\n` +
            'They must change it at first sign-in.'
        : `Created ${role} "${username}".`;
    }
    case 'set-role': {
      const user = await requireUser(db, rest[0]);
      const role = rest[1] ?? '';
      await requireRole(db, role);
      await db.transaction().execute(async (trx) => {
        await setRole(trx, user.id, role, at);
        await recordAccessAudit(trx, at, {
          action: 'role.set',
          actorId: null,
          actorUsername: OPERATOR,
          targetUserId: user.id,
          targetUsername: user.username,
          roleId: role,
          details: { from: user.role, to: role, via: 'admin command line' },
        });
      });
      return `"${user.username}" is now ${role} (was ${user.role}).`;
    }
    case 'set-password': {
      const user = await requireUser(db, rest[0]);
      const chosen = await choosePassword(values, user);
      await setPasswordHash(
        db,
        user.id,
        await hashPassword(chosen.password),
        { isDefaultPassword: chosen.generated, mustChangePassword: chosen.mustChange },
        at,
      );
      const ended = await revokeUserSessions(db, user.id, at, 'password_reset_by_operator');
      const suffix = ` Ended ${ended} active session(s).`;
      return chosen.generated
        ? `New one-time password for "${user.username}": ${chosen.password}\nThey must change it at next sign-in.${suffix}`
        : `Password of "${user.username}" changed.${suffix}`;
    }
    case 'deactivate': {
      const user = await requireUser(db, rest[0]);
      const { endedSessions } = await asUsage(() =>
        setAccountActive(db, user, false, OPERATOR_ACTOR, at),
      );
      return `"${user.username}" is deactivated; ended ${endedSessions} active session(s).`;
    }
    case 'activate': {
      const user = await requireUser(db, rest[0]);
      await asUsage(() => setAccountActive(db, user, true, OPERATOR_ACTOR, at));
      return `"${user.username}" is active again.`;
    }
    case 'list': {
      const users = await listUsers(db);
      return users
        .map(
          (u) =>
            `${u.username.padEnd(24)} ${u.role.padEnd(12)} ${(u.departmentName ?? '-').padEnd(24)} ${u.isActive ? 'active' : 'deactivated'}`,
        )
        .join('\n');
    }
    default:
      throw new UsageError(USAGE);
  }
}

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(1);
  }
  const database = openDatabase(withoutThreads(config.database));
  try {
    await migrateToLatest(database.db);
    console.log(await runAdminCommand(database.db, process.argv.slice(2)));
  } catch (error) {
    if (
      error instanceof UsageError ||
      (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')
    ) {
      console.error((error as Error).message);
      process.exitCode = 2;
    } else {
      console.error(error);
      process.exitCode = 1;
    }
  } finally {
    await database.close();
  }
}

if (process.argv[1] && /admin\.(js|ts)$/.test(process.argv[1])) await main();
