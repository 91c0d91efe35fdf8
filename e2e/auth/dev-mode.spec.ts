/**
 * Dev mode (DEV_MODE=true, never in production): nobody signs in, every request is the built-in
 * developer admin, and the UI says so. Runs against the second e2e server (port E2E_PORT + 1).
 */
import { STORAGE_KEYS } from '@learning-hub/core';
import { expect, test } from '@playwright/test';
import { DEV_BASE_URL } from '../support/env';
import { expectNoSeriousA11yViolations } from '../support/fixtures';
import { openAvatarMenu } from '../support/ui';

test.use({ baseURL: DEV_BASE_URL });

test('dev mode: no sign-in, the developer admin, and the Dev Mode banner', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(`${DEV_BASE_URL}/`);
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome, Developer' })).toBeVisible();
  await expect(page.getByText('Dev Mode', { exact: true })).toBeVisible();
  expect(await page.evaluate((k) => localStorage.getItem(k), STORAGE_KEYS.authMethod)).toBe(
    'disabled',
  );
  await expectNoSeriousA11yViolations(page);

  // Admin pages open without any token.
  await page.goto('/admin/authentication');
  await expect(page.getByText('Development mode is on')).toBeVisible();
  await expect(page.getByRole('switch', { name: /^Development mode/ })).toBeChecked();

  // The sign-in page says why there is nothing to sign in to.
  await page.goto('/login');
  await expect(page.getByText('Authentication is disabled in development mode')).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await page.getByRole('link', { name: 'Go to Home' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome, Developer' })).toBeVisible();

  // Logout cannot sign the developer out.
  await openAvatarMenu(page);
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await page.goto('/');
  await expect(page.getByText('Dev Mode', { exact: true })).toBeVisible();
});

test('dev mode: a sign-in attempt is refused with the spec text', async ({ request }) => {
  const response = await request.post('/api/auth/local', {
    data: { username: 'admin', password: 'admin-demo-pass' },
  });
  expect(response.status()).toBe(400);
  expect(await response.json()).toMatchObject({
    code: 'AUTH_METHOD_DISABLED',
    error: 'Authentication is disabled in development mode',
  });
});

test("dev mode: the developer's profile saves, and the page says it has no password", async ({
  page,
}) => {
  await page.goto('/profile-settings');
  await expect(page.getByRole('heading', { level: 1, name: 'Profile Settings' })).toBeVisible();
  await expect(
    page.getByText(
      'You are signed in as the built-in developer account of dev mode. It has no password, so there is nothing to change here.',
    ),
  ).toBeVisible();
  await expect(page.getByLabel(/^Current password/)).toHaveCount(0);

  await page.getByLabel(/^Last name/).fill('Tester');
  await page.getByRole('button', { name: 'Save profile' }).click();
  await expect(page.getByText('Your profile has been saved.')).toBeVisible();
  await expect(page.getByText('User not authenticated')).toHaveCount(0);
  await page.reload();
  await expect(
    page.getByRole('button', { name: 'Account menu for Developer Tester, DT' }),
  ).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  // Put it back for the other dev-mode tests.
  await page.getByLabel(/^Last name/).fill('Admin');
  await page.getByRole('button', { name: 'Save profile' }).click();
  await expect(page.getByText('Your profile has been saved.').first()).toBeVisible();
});
