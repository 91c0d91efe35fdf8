/**
 * Shared e2e helpers: sign in through the API (and hand the session to the page the way the app
 * stores it), create accounts with the real admin command line, and run axe.
 */
import { execFileSync } from 'node:child_process';
import AxeBuilder from '@axe-core/playwright';
import { STORAGE_KEYS, type LoginSuccess, type SystemRoleId } from '@learning-hub/core';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { E2E_DB_PATH, REPO_ROOT } from './env';

export const DEMO: Record<
  SystemRoleId,
  { username: string; password: string; firstname: string; lastname: string; department: string }
> = {
  admin: {
    username: 'admin',
    password: 'admin-demo-pass',
    firstname: 'Alex',
    lastname: 'Morgan',
    department: 'Network Engineering',
  },
  instructor: {
    username: 'instructor',
    password: 'instructor-demo-pass',
    firstname: 'Priya',
    lastname: 'Shah',
    department: 'Field Operations',
  },
  student: {
    username: 'student',
    password: 'student-demo-pass',
    firstname: 'Sam',
    lastname: 'Rivera',
    department: 'Customer Support',
  },
};

/** Signs in through the API; returns the server's response. */
export async function apiSignIn(
  request: APIRequestContext,
  username: string,
  password: string,
): Promise<LoginSuccess> {
  const response = await request.post('/api/auth/local', { data: { username, password } });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as LoginSuccess;
}

/** Signs in through the API and stores the session where the app keeps it, before any page loads. */
export async function signInAs(
  page: Page,
  username: string,
  password: string,
): Promise<LoginSuccess> {
  const login = await apiSignIn(page.request, username, password);
  const session = {
    isAuthenticated: true,
    user: login.user,
    token: login.token,
    expiresAt: login.expiresAt,
  };
  await page.addInitScript(
    ([key, value]) => {
      if (!window.sessionStorage.getItem('e2e-seeded')) {
        window.localStorage.setItem(key, value);
        window.sessionStorage.setItem('e2e-seeded', '1');
      }
    },
    [STORAGE_KEYS.session, JSON.stringify(session)] as const,
  );
  return login;
}

export const signInAsRole = (page: Page, role: SystemRoleId) =>
  signInAs(page, DEMO[role].username, DEMO[role].password);

let counter = 0;
/** A unique username for this test run. */
export function uniqueName(prefix: string): string {
  counter += 1;
  return `${prefix}-${process.pid}-${Date.now().toString(36)}-${counter}`;
}

/** Runs the real admin command line against the e2e database; returns its output. */
export function adminCli(...args: string[]): string {
  return execFileSync(process.execPath, ['server/dist/admin.js', ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, SQLITE_PATH: E2E_DB_PATH, LOG_LEVEL: 'warn' },
    encoding: 'utf8',
  });
}

/** Creates an account with the CLI; without a password it gets a one-time one it must change. */
export function createAccount(options: {
  username: string;
  role?: SystemRoleId;
  password?: string;
  department?: string;
}): { username: string; password: string } {
  const args = [
    'user',
    'create',
    '--username',
    options.username,
    '--role',
    options.role ?? 'student',
    '--firstname',
    'Erin',
    '--lastname',
    'Test',
  ];
  if (options.department) args.push('--department', options.department);
  if (options.password) args.push('--password', options.password);
  const out = adminCli(...args);
  const password = options.password ?? /one-time password: (\S+)/.exec(out)?.[1];
  if (!password) throw new Error(`no password in: ${out}`);
  return { username: options.username, password };
}

/** Fails on any serious or critical axe violation on the current page. */
export async function expectNoSeriousA11yViolations(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter(
    (v) => v.impact === 'serious' || v.impact === 'critical',
  );
  expect(
    serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join('; ')})`),
  ).toEqual([]);
}
