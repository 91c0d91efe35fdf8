/**
 * One's own settings in the browser (docs/settings.md): a change applies at once without a reload,
 * follows the person to another browser, is there before the app on a reload, and decides where
 * sign-in lands. Each test makes its own account: settings are the person's, and a demo account
 * changed here would change every other spec that uses it.
 */
import { expect, test, type Page } from '@playwright/test';
import {
  apiSignIn,
  createAccount,
  expectNoSeriousA11yViolations,
  PHONE_WIDTH,
  signInAs,
  uniqueName,
} from '../support/fixtures';
import { fillSignIn, navigateInApp } from '../support/ui';

const PASSWORD = 'settings e2e password 1';
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/;

function newPerson() {
  return createAccount({ username: uniqueName('settings'), password: PASSWORD });
}

const scheme = (page: Page) => page.locator('html');

/** The Started column of the session in use, on /profile-settings. */
const sessionStarted = (page: Page) =>
  page
    .getByRole('table', { name: /sessions/i })
    .getByRole('row')
    .filter({ hasText: 'This device' })
    .getByRole('cell')
    .nth(1);

test('settings: the colour scheme and date format apply at once, and follow the person to another browser', async ({
  page,
  browser,
}) => {
  const person = newPerson();
  await signInAs(page, person.username, PASSWORD);
  await page.goto('/settings');
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Notifications' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  // Marks this document: a reload would lose it.
  await page.evaluate(() => Object.assign(window, { sameDocument: true }));

  await page
    .getByRole('radiogroup', { name: 'Colour scheme' })
    .getByText('Dark', { exact: true })
    .click();
  await expect(scheme(page)).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();
  await page.getByRole('radio', { name: 'Year, month, day (ISO 8601)' }).check();
  await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();
  // The dark page passes axe too.
  await expectNoSeriousA11yViolations(page);

  await navigateInApp(page, '/profile-settings');
  await expect(sessionStarted(page)).toHaveText(ISO_DATE_TIME);
  expect(await page.evaluate(() => (window as { sameDocument?: boolean }).sameDocument)).toBe(true);

  // Another browser (another device): the same person's settings on its first load.
  const other = await browser.newContext();
  try {
    const second = await other.newPage();
    await signInAs(second, person.username, PASSWORD);
    await second.goto('/profile-settings');
    await expect(scheme(second)).toHaveAttribute('data-mantine-color-scheme', 'dark');
    await expect(sessionStarted(second)).toHaveText(ISO_DATE_TIME);
  } finally {
    await other.close();
  }
});

test('settings: a reload shows the kept colour scheme before the app has loaded', async ({
  page,
}) => {
  const person = newPerson();
  const login = await signInAs(page, person.username, PASSWORD);
  const saved = await page.request.put('/api/settings', {
    headers: { authorization: `Bearer ${login.token}` },
    data: {
      notifications: {},
      colorScheme: 'dark',
      timeZone: null,
      dateFormat: 'locale',
      startPage: '/',
      reducedMotion: 'system',
    },
  });
  expect(saved.status()).toBe(200);
  await page.goto('/');
  await expect(scheme(page)).toHaveAttribute('data-mantine-color-scheme', 'dark');

  // The app's code held back: what paints is index.html's shell, already dark.
  await page.route('**/assets/**/*.js', (route) => route.abort());
  await page.reload();
  await expect(page.locator('#shell-greeting')).toHaveText('Welcome, Erin');
  await expect(scheme(page)).toHaveAttribute('data-mantine-color-scheme', 'dark');
  expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(
    'rgb(36, 36, 36)',
  );
});

test('settings: sign-in lands on the start page, unless a page was waiting', async ({ page }) => {
  const person = createAccount({
    username: uniqueName('start'),
    password: PASSWORD,
    department: 'Field Operations',
  });
  const login = await apiSignIn(page.request, person.username, PASSWORD);
  const settings = await page.request.get('/api/settings', {
    headers: { authorization: `Bearer ${login.token}` },
  });
  const { startPages } = (await settings.json()) as { startPages: { path: string }[] };
  expect(startPages.map((p) => p.path)).toContain('/library');

  await page.goto('/settings');
  await expect(page).toHaveURL('/login?next=%2Fsettings');
  await fillSignIn(page, person.username, PASSWORD);
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  await page.getByRole('combobox', { name: 'Start page' }).click();
  await page.getByRole('option', { name: 'Library' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();

  // Signed out and in again with no page waiting: the library.
  await page.evaluate(() => window.localStorage.removeItem('learning-hub.session'));
  await page.goto('/login');
  await fillSignIn(page, person.username, PASSWORD);
  await expect(page).toHaveURL('/library');
  await expect(page.getByRole('heading', { level: 1, name: 'Library' })).toBeVisible();
  // Home is still Home.
  await page.getByRole('link', { name: 'Learning Hub home' }).click();
  await expect(page).toHaveURL('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome, Erin' })).toBeVisible();
});

test('settings: on a phone, a card per kind of notification', async ({ page }) => {
  const person = newPerson();
  await page.setViewportSize({ width: PHONE_WIDTH, height: 800 });
  await signInAs(page, person.username, PASSWORD);
  await page.goto('/settings');
  const cards = page.getByRole('list', { name: 'Notifications' });
  await expect(cards.getByRole('listitem')).toHaveCount(13);
  await expect(page.getByRole('table', { name: 'Notifications' })).toHaveCount(0);
  const grades = cards.getByRole('listitem').filter({ hasText: 'Grades' });
  await grades.getByText('Email', { exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();
  await expect(grades.getByRole('radio', { name: 'Email' })).toBeChecked();
  await expectNoSeriousA11yViolations(page);
});
