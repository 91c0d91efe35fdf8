/**
 * Shared e2e helpers: sign in through the API (and hand the session to the page the way the app
 * stores it), create accounts with the real admin command line, and run axe.
 */
import { execFileSync } from 'node:child_process';
import axe from 'axe-core';
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
    department: 'Field Operations',
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

/** Puts a session where the app keeps it, before any page of `page` loads (once per tab). */
export async function useSession(page: Page, login: LoginSuccess): Promise<LoginSuccess> {
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

/**
 * Signs in through the API (a new session of its own) and stores it where the app keeps it,
 * before any page loads. For a test that ends its session or must not share it; the others use
 * `signInAsRole`.
 */
export async function signInAs(
  page: Page,
  username: string,
  password: string,
): Promise<LoginSuccess> {
  return useSession(page, await apiSignIn(page.request, username, password));
}

/**
 * The demo users' sessions of this worker: each role signs in once per worker, and every test of
 * the worker that only needs to be that user shares the session (the browser-side equivalent of
 * Playwright's storageState per role and worker). A test that signs out or ends sessions signs in
 * on its own with `signInAs`. Sign-ins through the form are tested once per method
 * (auth/sign-in.spec.ts, auth/providers.spec.ts). See docs/testing.md.
 */
const roleSessions = new Map<SystemRoleId, Promise<LoginSuccess>>();

/** The worker's shared session of a demo role, signed in on first use. */
export function roleSession(request: APIRequestContext, role: SystemRoleId): Promise<LoginSuccess> {
  let login = roleSessions.get(role);
  if (!login) {
    login = apiSignIn(request, DEMO[role].username, DEMO[role].password);
    // A failed sign-in is not kept: the next test tries again (and fails with its own reason).
    login.catch(() => roleSessions.delete(role));
    roleSessions.set(role, login);
  }
  return login;
}

/** Opens `page` as the demo user of `role`, with the worker's shared session of that role. */
export async function signInAsRole(page: Page, role: SystemRoleId): Promise<LoginSuccess> {
  return useSession(page, await roleSession(page.request, role));
}

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

/**
 * Fails on any serious or critical axe violation on the current page. Every rule runs on every
 * element; only the violations are collected (`resultTypes`): axe then skips building selectors
 * and snippets for the thousands of elements that pass, most of a scan's time on a large page.
 *
 * axe-core runs in the page itself (`axe.run`), injected once per document: a test that walks
 * the app in place scans every page with the copy it injected first. (`@axe-core/playwright`
 * evaluated the 580 kB script twice per scan and opened a new browser page to merge the
 * results, a second or more per scan on a loaded two-core machine; docs/testing.md.) Frames the
 * page embeds get their own copy; one axe cannot enter (a PDF viewer) is reported by axe as not
 * tested, as before.
 */
export async function expectNoSeriousA11yViolations(page: Page): Promise<void> {
  for (const frame of page.frames()) {
    const present = await frame
      .evaluate(() => typeof (window as { axe?: { run?: unknown } }).axe?.run === 'function')
      .catch(() => true);
    if (!present) await frame.evaluate(axe.source).catch(() => undefined);
  }
  const violations = await page.evaluate(async () => {
    const { axe: inPage } = window as unknown as { axe: typeof axe };
    const results = await inPage.run(document, { resultTypes: ['violations'] });
    return results.violations.map((v) => ({
      id: v.id,
      help: v.help,
      impact: v.impact,
      targets: v.nodes.map((n) => n.target.join(' ')),
    }));
  });
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.help} (${v.targets.join('; ')})`)).toEqual([]);
  await expectFitsPhone(page);
}

/** The phone width every page must fit without sideways scrolling (issue 19; docs/front-end.md). */
export const PHONE_WIDTH = 375;

/**
 * Every page that axe scans is also laid out at a phone's width: the page itself must not scroll
 * sideways there. Wide content (tables, code) scrolls inside its own box with a visible cue
 * (`lh-scroll-cue`, web/src/app/styles/pages.css). On failure the message names the elements that
 * stick out. The viewport is put back afterwards, so a spec goes on at the size it chose.
 */
export async function expectFitsPhone(page: Page): Promise<void> {
  const before = page.viewportSize();
  const resize = before !== null && before.width !== PHONE_WIDTH;
  if (resize) await page.setViewportSize({ width: PHONE_WIDTH, height: before.height });
  try {
    // Two frames: media-query listeners re-render, then layout settles.
    const overflow = await page.evaluate(async () => {
      await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
      const width = window.innerWidth;
      const scrollWidth = document.documentElement.scrollWidth;
      if (scrollWidth <= width) return null;
      const culprits: string[] = [];
      for (const element of Array.from(document.body.querySelectorAll<HTMLElement>('*'))) {
        const box = element.getBoundingClientRect();
        if (box.right <= width + 1 || box.width === 0) continue;
        // Only the outermost offender: its children stick out because it does.
        const parent = element.parentElement;
        if (
          parent &&
          parent !== document.body &&
          parent.getBoundingClientRect().right > width + 1
        ) {
          continue;
        }
        const name = `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}${
          element.className && typeof element.className === 'string'
            ? `.${element.className.trim().split(/\s+/).slice(0, 2).join('.')}`
            : ''
        }`;
        culprits.push(
          `${name} (right edge ${Math.round(box.right)}px): ${(element.innerText ?? '').slice(0, 60)}`,
        );
        if (culprits.length >= 5) break;
      }
      return { scrollWidth, culprits };
    });
    expect(
      overflow,
      overflow
        ? `${page.url()} is ${overflow.scrollWidth}px wide at ${PHONE_WIDTH}px: ${overflow.culprits.join(' | ')}`
        : '',
    ).toBeNull();
  } finally {
    if (resize) await page.setViewportSize(before);
  }
}
