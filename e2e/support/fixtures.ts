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
 * sideways there. Wide content (code, a table without a card form) scrolls inside its own box with
 * a visible cue (`lh-scroll-cue`, web/src/app/styles/pages.css). On failure the message names the
 * elements that stick out. The viewport is put back afterwards, so a spec goes on at the size it
 * chose. Two more checks (docs/front-end.md, "On a phone"):
 *
 * - where a page opens, at the size the spec chose, at the first scan of each page opened (a
 *   history entry): the element with the focus must be on the screen (not under the fixed
 *   header), and with nothing focused the page must be at its top. A page that opens scrolled
 *   down (the previous page's position, a view replacing a long form) fails here;
 * - at the phone's width, a list that has a card form (`DataList`, `data-card-list`) must not be
 *   a table wider than the screen: a table cut off at the side is what the cards replace.
 */
export async function expectFitsPhone(page: Page): Promise<void> {
  const place = await page.evaluate(placeOnOpening);
  expect(place, `${page.url()}: ${place ?? ''}`).toBeNull();
  const before = page.viewportSize();
  const resize = before !== null && before.width !== PHONE_WIDTH;
  if (resize) await page.setViewportSize({ width: PHONE_WIDTH, height: before.height });
  try {
    // Two frames: media-query listeners re-render, then layout settles.
    const overflow = await page.evaluate(async () => {
      await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
      const width = window.innerWidth;
      const scrollWidth = document.documentElement.scrollWidth;
      // A list with a card form shows cards here: a table of it wider than the screen is cut off
      // at the side, even inside its own scroll box (which keeps the page itself narrow).
      const tables = Array.from(
        document.querySelectorAll<HTMLElement>('[data-card-list="table"]'),
      ).filter((table) => table.getBoundingClientRect().width > width + 1);
      if (tables.length > 0) {
        return {
          scrollWidth,
          culprits: tables.map(
            (table) =>
              `a table ${Math.round(table.getBoundingClientRect().width)}px wide in a list with a card form (${table.getAttribute('aria-label') ?? table.getAttribute('aria-labelledby') ?? ''})`,
          ),
        };
      }
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

/**
 * In the page: null when the page is where a reader expects it, else why not. The focused element
 * must be on the screen below the app's fixed header; with nothing focused, the page must be at
 * its top. Checked at the first scan of each history entry only. (Run in the browser: it may use
 * nothing from this module.)
 */
function placeOnOpening(): string | null {
  // Once per opened page (history entry): later scans follow the spec's own scrolling and clicks.
  const seen = ((window as { __lhOpened?: Set<string> }).__lhOpened ??= new Set<string>());
  const entry = `${(window.history.state as { key?: string } | null)?.key ?? ''} ${location.href}`;
  if (seen.has(entry)) return null;
  seen.add(entry);
  const focused = document.activeElement;
  const header = document.querySelector('.mantine-AppShell-header');
  const top = header ? header.getBoundingClientRect().bottom : 0;
  if (focused && focused !== document.body && focused !== document.documentElement) {
    const box = focused.getBoundingClientRect();
    const fixed = focused.closest('[role="dialog"], [role="listbox"], [role="menu"], header');
    if (fixed || (box.width === 0 && box.height === 0)) return null;
    if (box.bottom > top && box.top < window.innerHeight) return null;
    const name =
      focused.getAttribute('aria-label') ??
      (focused as HTMLElement).innerText?.trim().slice(0, 40) ??
      focused.tagName.toLowerCase();
    return `the focused element (${focused.tagName.toLowerCase()} “${name}”) is off the screen (its top at ${Math.round(box.top)}px, the screen ${window.innerHeight}px high, scrolled to ${Math.round(window.scrollY)}px)`;
  }
  if (window.scrollY > 0) {
    return `the page is scrolled to ${Math.round(window.scrollY)}px with nothing focused: a page opens at its top or at its focus target`;
  }
  return null;
}
