import { ERROR_PAGE_SUPPORT_TEXT } from '@learning-hub/core';
import { expect, test } from '@playwright/test';
import { signInAsRole } from '../support/fixtures';

test('errors: a page that fails to load shows the error page, and Try Again recovers', async ({
  page,
}) => {
  await signInAsRole(page, 'student');
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Welcome, Sam' })).toBeVisible();

  // The menu's own code loads at its first opening: open it while the network is still there.
  await page.getByRole('button', { name: 'Open navigation' }).click();
  await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible();
  // The network drops every not-yet-loaded page chunk: the next lazy page cannot load.
  const loaded = new Set(
    await page.evaluate(() =>
      performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname),
    ),
  );
  await page.route('**/assets/*.js', (route) =>
    loaded.has(new URL(route.request().url()).pathname)
      ? route.continue()
      : route.abort('internetdisconnected'),
  );
  await page
    .getByRole('navigation', { name: 'Main navigation' })
    .getByRole('link', { name: 'Library' })
    .click();

  await expect(page.getByRole('heading', { level: 1, name: 'Connection Error' })).toBeVisible();
  await expect(page.getByText('DATA_001')).toBeVisible();
  await expect(page.getByText(/ERR-[0-9A-Z]+-[0-9A-Z]{6}/)).toBeVisible();
  await expect(page.getByText(ERROR_PAGE_SUPPORT_TEXT)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Go to Home' })).toBeVisible();

  await page.unroute('**/assets/*.js');
  await page.getByRole('button', { name: 'Try Again' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Library' })).toBeVisible();
});

test('errors: Go to Home leaves the error page', async ({ page }) => {
  await signInAsRole(page, 'student');
  await page.goto('/');
  await page.getByRole('button', { name: 'Open navigation' }).click();
  await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible();
  const loaded = new Set(
    await page.evaluate(() =>
      performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname),
    ),
  );
  await page.route('**/assets/*.js', (route) =>
    loaded.has(new URL(route.request().url()).pathname) ? route.continue() : route.abort('failed'),
  );
  await page
    .getByRole('navigation', { name: 'Main navigation' })
    .getByRole('link', { name: 'Settings' })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Connection Error' })).toBeVisible();
  await page.getByRole('button', { name: 'Go to Home' }).click();
  await expect(page).toHaveURL('/');
  await expect(page.getByRole('heading', { name: 'Welcome, Sam' })).toBeVisible();
});
