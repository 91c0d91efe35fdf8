import { ROUTES, type SystemRoleId } from '@learning-hub/core';
import { expect, test, type Page } from '@playwright/test';
import { signInAsRole } from '../support/fixtures';
import { navigateInApp } from '../support/ui';

/**
 * Every route of the spec's table, as anonymous, student, instructor and admin. The outcome per
 * role is written out from the spec (§2, and §6's denial reasons), not computed with the app's
 * own functions: `ok` shows the page; any other outcome is the reason of a denial, which sends
 * the user to `/` with the spec's Access Denied panel and a line naming the page and that reason
 * (one way for every route, docs/spec-readings.md).
 */
type Outcome = 'ok' | string;
const NOTICE = /^You do not have access to /;
const NO_ADMIN = 'Missing required permission: system.admin';
const adminTool = (url: string) => ({ url, student: NO_ADMIN, instructor: NO_ADMIN, admin: 'ok' });
const TABLE: Record<
  string,
  { url: string; student: Outcome; instructor: Outcome; admin: Outcome }
> = {
  '/': { url: '/', student: 'ok', instructor: 'ok', admin: 'ok' },
  '/departments': { url: '/departments', student: 'ok', instructor: 'ok', admin: 'ok' },
  // The demo student and instructor work in Field Operations: another department sends them
  // home (their own opening is departments.spec.ts's); an admin opens every department.
  '/departments/:deptName': {
    url: '/departments/customer-support',
    student: 'Missing required permission: department.view',
    instructor: 'Missing required permission: department.view',
    admin: 'ok',
  },
  '/library': { url: '/library', student: 'ok', instructor: 'ok', admin: 'ok' },
  '/classroom': { url: '/classroom', student: 'ok', instructor: 'ok', admin: 'ok' },
  '/learning-management': {
    url: '/learning-management',
    student: 'ok',
    instructor: 'ok',
    admin: 'ok',
  },
  // Not in the spec's table: the header's full search results (docs/spec-readings.md).
  '/search': { url: '/search?q=fibre', student: 'ok', instructor: 'ok', admin: 'ok' },
  '/dashboard': { url: '/dashboard', student: 'ok', instructor: 'ok', admin: 'ok' },
  '/wiki': { url: '/wiki', student: 'ok', instructor: 'ok', admin: 'ok' },
  '/wiki/create': {
    url: '/wiki/create',
    student: 'Missing required permission: wiki.create',
    instructor: 'ok',
    admin: 'ok',
  },
  '/wiki-creator': {
    url: '/wiki-creator',
    student: 'Missing required permission: wiki.create',
    instructor: 'ok',
    admin: 'ok',
  },
  '/course/create': {
    url: '/course/create',
    student: 'Missing required permission: course.create',
    instructor: 'ok',
    admin: 'ok',
  },
  '/course-creator': {
    url: '/course-creator',
    student: 'Missing required permission: course.create',
    instructor: 'ok',
    admin: 'ok',
  },
  '/admin': adminTool('/admin'),
  '/admin-test': adminTool('/admin-test'),
  '/wiki-test': adminTool('/wiki-test'),
  '/rich-text-diagnostics': adminTool('/rich-text-diagnostics'),
  '/test-suite': adminTool('/test-suite'),
  '/notification-demo': adminTool('/notification-demo'),
  '/announcement-manager': adminTool('/announcement-manager'),
  '/auth-test': adminTool('/auth-test'),
  '/image-test': adminTool('/image-test'),
  '/media-test': adminTool('/media-test'),
  '/profile-settings': { url: '/profile-settings', student: 'ok', instructor: 'ok', admin: 'ok' },
  '/settings': { url: '/settings', student: 'ok', instructor: 'ok', admin: 'ok' },
  '/instructor-settings': {
    url: '/instructor-settings',
    student: 'Missing any of required permissions: course.create, library.upload',
    instructor: 'ok',
    admin: 'ok',
  },
};

test('routes: the table covers every guarded route of the app', () => {
  const guarded = ROUTES.filter((r) => r.access === 'authenticated').map((r) => r.path);
  expect(Object.keys(TABLE).sort()).toEqual(guarded.sort());
});

const titleOf = (path: string) => ROUTES.find((r) => r.path === path)?.title ?? '';

async function expectOutcome(page: Page, path: string, url: string, outcome: Outcome) {
  if (outcome !== 'ok') {
    await expect(page).toHaveURL('/');
    await expect(page.getByRole('heading', { level: 1, name: /^Welcome, / })).toBeVisible();
    const panel = page.getByRole('alert').filter({ hasText: 'Access Denied' });
    await expect(panel.getByRole('heading', { name: 'Access Denied' })).toBeVisible();
    await expect(panel.getByText(NOTICE)).toHaveText(
      `You do not have access to ${titleOf(path)}: ${outcome}`,
    );
    return;
  }
  await expect(page).toHaveURL(url);
  const heading =
    path === '/' ? /^Welcome, / : path === '/departments/:deptName' ? /.+/ : titleOf(path);
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
  await expect(page.getByText(NOTICE)).toHaveCount(0);
  // A built page (the classroom's, the start page, …) is the page, not the placeholder.
  if (ROUTES.find((r) => r.path === path)?.built) {
    await expect(page.getByText('This area is not available yet.')).toHaveCount(0);
  }
}

/**
 * One walk per role over the whole table: the first route is a real page load (a deep link), the
 * others are reached inside the app, where the same guard decides (support/ui.ts, navigateInApp).
 * Between two routes the walk passes the Not Found page, so what a step sees can only be the
 * outcome of its own route, never the page the step before left on screen.
 */
async function walkTo(page: Page, url: string, first: boolean) {
  if (first) {
    await page.goto(url);
    return;
  }
  await navigateInApp(page, '/no/such/place');
  await expect(page.getByRole('heading', { level: 1, name: 'Page Not Found' })).toBeVisible();
  await navigateInApp(page, url);
}

test('routes: anonymous visitors are sent to /login with the page remembered', async ({ page }) => {
  for (const [index, { url }] of Object.values(TABLE).entries()) {
    await test.step(url, async () => {
      await walkTo(page, url, index === 0);
      await expect(page).toHaveURL(`/login?next=${encodeURIComponent(url)}`);
      await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    });
  }
});

for (const role of ['student', 'instructor', 'admin'] as SystemRoleId[]) {
  test(`routes: ${role} gets exactly the spec's outcome on every route`, async ({ page }) => {
    await signInAsRole(page, role);
    for (const [index, [path, row]] of Object.entries(TABLE).entries()) {
      await test.step(`${row.url} → ${row[role]}`, async () => {
        await walkTo(page, row.url, index === 0);
        await expectOutcome(page, path, row.url, row[role]);
      });
    }
  });
}

test('routes: the Access Denied panel of a refused page can be dismissed, and a reload does not bring it back', async ({
  page,
}) => {
  await signInAsRole(page, 'instructor');
  await page.goto('/auth-test');
  await expect(page).toHaveURL('/');
  const notice = page.getByRole('alert').filter({ hasText: 'Access Denied' });
  await expect(notice).toContainText('You do not have permission to access this resource.');
  await expect(notice.getByText(NOTICE)).toHaveText(
    `You do not have access to Authentication Test: ${NO_ADMIN}`,
  );
  await notice.getByRole('button', { name: 'Dismiss' }).click();
  await expect(notice).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Welcome, Priya' })).toBeVisible();
  await expect(page.getByText(NOTICE)).toHaveCount(0);
});

test('routes: pages not built yet say so plainly', async ({ page }) => {
  await signInAsRole(page, 'admin');
  await page.goto('/wiki-test');
  await expect(page.getByRole('heading', { level: 1, name: 'Wiki Test' })).toBeVisible();
  await expect(page.getByText('This area is not available yet.')).toBeVisible();
});

test('routes: an unknown path shows the Not Found page', async ({ page }) => {
  await signInAsRole(page, 'student');
  await page.goto('/no/such/place');
  await expect(page.getByRole('heading', { level: 1, name: 'Page Not Found' })).toBeVisible();
  await page.getByRole('link', { name: /home/i }).first().click();
  await expect(page).toHaveURL('/');
});
