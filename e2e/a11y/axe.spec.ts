import { ROUTES } from '@learning-hub/core';
import { expect, test, type Locator, type Page } from '@playwright/test';
import {
  createAccount,
  expectNoSeriousA11yViolations,
  signInAs,
  signInAsRole,
  uniqueName,
} from '../support/fixtures';
import { navigateInApp } from '../support/ui';

test('a11y: the sign-in page', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
});

test('a11y: home, profile, the menus, the notice of a denied page and Not Found', async ({
  page,
}) => {
  // Seven axe scans: each takes seconds on a busy two-core machine.
  test.slow();
  await signInAsRole(page, 'student');
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Welcome, Sam' })).toBeVisible();
  // The start page's courses (the demo student is enrolled in two).
  await expect(page.getByRole('heading', { level: 2, name: 'Your courses' })).toBeVisible();
  await expect(page.getByRole('article').first()).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  await page.getByRole('button', { name: 'Open navigation' }).click();
  await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await page.getByRole('button', { name: 'Close navigation' }).click();

  await page.getByRole('button', { name: /^Account menu for / }).click();
  await expect(page.getByRole('menu')).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await page.keyboard.press('Escape');

  await page.goto('/profile-settings');
  await expect(page.getByRole('heading', { name: 'Active sessions' })).toBeVisible();
  await expect(page.getByRole('cell', { name: 'This device' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  await page.goto('/auth-test');
  await expect(page).toHaveURL('/');
  await expect(
    page.getByRole('alert').filter({ hasText: 'You do not have access to Authentication Test' }),
  ).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  await page.goto('/nowhere');
  await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
});

test('a11y: the start page of someone who teaches', async ({ page }) => {
  await signInAsRole(page, 'instructor');
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Welcome, Priya' })).toBeVisible();
  // The demo instructor's courses have hand-ins waiting for a grade.
  const toGrade = page.getByRole('region', { name: 'To grade' });
  await expect(toGrade.getByRole('listitem').first()).toBeVisible();
  await expect(page.getByRole('region', { name: 'Courses you teach' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Your courses' })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);
});

/**
 * What shows once a built page has loaded its data, so axe scans the page and not its loader.
 * (The classroom's pages, dialogs and roles are scanned in e2e/classroom/classroom-a11y.spec.ts.)
 */
const LOADED: Record<string, (page: Page) => Locator> = {
  // The admin's start page: the latest failed sign-ins (the demo data has some).
  '/': (page) =>
    page.getByRole('region', { name: 'Latest sign-in failures' }).getByRole('listitem').first(),
  '/departments': (page) => page.getByRole('article').first(),
  '/departments/:deptName': (page) => page.getByRole('table', { name: 'Members' }),
  '/classroom': (page) => page.getByRole('list', { name: 'Courses' }),
  '/learning-management': (page) => page.getByRole('heading', { level: 2, name: 'Your courses' }),
  '/course/create': (page) => page.getByRole('textbox', { name: 'Course code' }),
  '/course-creator': (page) => page.getByRole('textbox', { name: 'Course code' }),
  '/wiki': (page) => page.getByRole('navigation', { name: 'Spaces' }),
  '/wiki/create': (page) => page.getByRole('textbox', { name: 'Title' }),
  '/wiki-creator': (page) => page.getByRole('textbox', { name: 'Title' }),
  '/settings': (page) => page.getByRole('table', { name: 'Notifications' }),
  // The demo's announcements, with their states and counts.
  '/announcement-manager': (page) => page.getByRole('table', { name: 'Announcements' }),
};

/**
 * Every guarded route as admin, in a few walks (one page load each, then inside the app; between
 * two routes the Not Found page, so a scan never sees the page before: support/ui.ts).
 */
const GUARDED = ROUTES.filter((r) => r.access === 'authenticated');
const WALKS = 4;
for (let walk = 0; walk < WALKS; walk++) {
  const routes = GUARDED.filter((_, index) => index % WALKS === walk);
  test(`a11y: ${routes.map((r) => r.path).join(', ')} as admin`, async ({ page }) => {
    // Six or seven axe scans, each seconds long on a busy two-core machine.
    test.slow();
    await signInAsRole(page, 'admin');
    for (const [index, route] of routes.entries()) {
      await test.step(route.path, async () => {
        const url = route.path.replace(':deptName', 'network-engineering');
        if (index === 0) {
          await page.goto(url);
        } else {
          await navigateInApp(page, '/no/such/place');
          await expect(
            page.getByRole('heading', { level: 1, name: 'Page Not Found' }),
          ).toBeVisible();
          await navigateInApp(page, url);
        }
        await expect(page.getByRole('heading', { level: 1, name: 'Page Not Found' })).toHaveCount(
          0,
        );
        await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
        const loaded = LOADED[route.path];
        if (loaded) await expect(loaded(page)).toBeVisible();
        await expectNoSeriousA11yViolations(page);
      });
    }
  });
}

test('a11y: the dark colour scheme', async ({ page }) => {
  // The header's button saves the scheme as the person's setting (docs/settings.md): an account
  // of this test's own, so no other test's student turns dark.
  const person = createAccount({ username: uniqueName('dark'), password: 'a11y dark password 1' });
  await signInAs(page, person.username, person.password);
  await page.goto('/');
  await page.getByRole('button', { name: /Switch to dark colour scheme/ }).click();
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await expectNoSeriousA11yViolations(page);
  await page.goto('/profile-settings');
  await expect(page.getByRole('heading', { name: 'Active sessions' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await expectNoSeriousA11yViolations(page);
});
