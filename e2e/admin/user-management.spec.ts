import { ACCOUNT_REFUSALS } from '@learning-hub/core';
import { expect, test, type Page } from '@playwright/test';
import { SERVICE_ACCOUNTS } from '../support/env';
import { expectNoSeriousA11yViolations, signInAsRole, uniqueName } from '../support/fixtures';
import { fillSignIn } from '../support/ui';

const PHONE = { width: 390, height: 844 };

/** Opens the Create user dialog from the users list and fills it in. */
async function fillCreateDialog(
  page: Page,
  user: { username: string; firstname: string; lastname: string },
) {
  await page.goto('/admin');
  await page.getByRole('button', { name: 'Create user' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create a user' });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel(/^Username/).fill(user.username);
  await dialog.getByLabel(/^First name/).fill(user.firstname);
  await dialog.getByLabel(/^Last name/).fill(user.lastname);
  await dialog.getByRole('combobox', { name: 'Department' }).click();
  await page.getByRole('option', { name: 'Field Operations' }).click();
  return dialog;
}

/** Creates the user through the dialog; answers the one-time password shown. */
async function createThroughDialog(
  page: Page,
  user: { username: string; firstname: string; lastname: string },
  scan = false,
): Promise<string> {
  const dialog = await fillCreateDialog(page, user);
  if (scan) await expectNoSeriousA11yViolations(page);
  await dialog.getByRole('button', { name: 'Create user' }).click();
  const created = page.getByRole('dialog', { name: 'User created' });
  await expect(created).toBeVisible();
  const password = await created.getByLabel('One-time password').inputValue();
  expect(password).toMatch(/^[A-Za-z2-9]{20}$/);
  if (scan) await expectNoSeriousA11yViolations(page);
  await created.getByRole('link', { name: 'Open the user' }).click();
  await expect(
    page.getByRole('heading', { level: 2, name: `${user.firstname} ${user.lastname}` }),
  ).toBeVisible();
  return password;
}

test('admin: create a user, who must change the one-time password; edit, deactivate (their session ends) and reactivate', async ({
  page,
  browser,
}) => {
  // Five axe scans and two browsers on a small shared machine.
  test.setTimeout(180_000);
  const person = { username: uniqueName('hire'), firstname: 'Dana', lastname: 'Okafor' };
  await signInAsRole(page, 'admin');
  const oneTime = await createThroughDialog(page, person, true);

  // The new user signs in with it and must choose their own password before anything else.
  const userContext = await browser.newContext();
  const userPage = await userContext.newPage();
  await userPage.goto('/library');
  await fillSignIn(userPage, person.username, oneTime);
  await expect(userPage).toHaveURL(/\/profile-settings/);
  await expect(
    userPage.getByText('You must change your password before continuing.'),
  ).toBeVisible();
  const chosen = 'copper strands under the river';
  await userPage.getByLabel(/^Current password/).fill(oneTime);
  await userPage.getByLabel(/^New password/).fill(chosen);
  await userPage.getByLabel(/^Confirm new password/).fill(chosen);
  await userPage.getByRole('button', { name: 'Change password' }).click();
  await expect(userPage).not.toHaveURL(/\/profile-settings/);
  await expect(userPage.getByRole('heading', { level: 1, name: 'Library' })).toBeVisible();

  // The admin edits the names on the Account tab.
  await page.getByRole('tab', { name: 'Account' }).click();
  await expect(page.getByRole('heading', { name: 'Details' })).toBeVisible();
  await expect(page.getByText('Active', { exact: true })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await page.getByLabel(/^First name/).fill('Danielle');
  await page.getByRole('button', { name: 'Save details' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Danielle Okafor' })).toBeVisible();
  await userPage.reload();
  await expect(
    userPage.getByRole('button', { name: 'Account menu for Danielle Okafor, DO' }),
  ).toBeVisible();

  // Deactivated: the user's open session ends at once and they cannot sign in.
  await page.getByRole('button', { name: 'Deactivate' }).click();
  const confirm = page.getByRole('dialog', { name: 'Deactivate Danielle Okafor?' });
  await expect(confirm).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await confirm.getByRole('button', { name: 'Deactivate' }).click();
  await expect(
    page.getByText(/Danielle Okafor is deactivated; 1 session was ended\./),
  ).toBeVisible();
  await expect(page.getByText('Deactivated', { exact: true })).toBeVisible();
  await userPage.goto('/library');
  await expect(userPage).toHaveURL(/\/login/);
  await fillSignIn(userPage, person.username, chosen);
  await expect(userPage.getByText(ACCOUNT_REFUSALS.deactivated)).toBeVisible();

  // Reactivated: they sign in again with their own password.
  await page.getByRole('button', { name: 'Reactivate' }).click();
  await page
    .getByRole('dialog', { name: 'Reactivate Danielle Okafor?' })
    .getByRole('button', { name: 'Reactivate' })
    .click();
  await expect(page.getByText('Danielle Okafor can sign in again.')).toBeVisible();
  await fillSignIn(userPage, person.username, chosen);
  await expect(userPage).not.toHaveURL(/\/login/);
  await expect(
    userPage.getByRole('button', { name: 'Account menu for Danielle Okafor, DO' }),
  ).toBeVisible();

  // Every step is in the durable trail.
  await page.getByRole('tab', { name: 'Activity' }).click();
  for (const label of [
    'User created',
    'User details changed',
    'User deactivated',
    'User reactivated',
  ]) {
    await expect(page.getByText(label).first()).toBeVisible();
  }
  await userContext.close();
});

test('admin: a Moodle account shows the fields Moodle owns read-only, the others editable', async ({
  page,
}) => {
  test.setTimeout(120_000);
  // noah signs in once through Moodle, which creates his account.
  const config = await page.request.get('/api/auth/config');
  const moodle = ((await config.json()) as { providers: { moodle: { id: string }[] } }).providers
    .moodle[0];
  expect(moodle, 'the e2e server configures the Moodle stand-in').toBeDefined();
  const { username, password } = SERVICE_ACCOUNTS.moodle;
  const signIn = await page.request.post('/api/auth/moodle', {
    data: { credentials: { username, password }, moodleConfig: moodle?.id },
  });
  expect(signIn.status(), await signIn.text()).toBe(200);
  const noah = ((await signIn.json()) as { user: { id: string } }).user;

  await signInAsRole(page, 'admin');
  await page.goto(`/admin/users/${noah.id}?tab=account`);
  await expect(page.getByRole('heading', { name: 'Details' })).toBeVisible();
  for (const label of [/^First name/, /^Last name/]) {
    await expect(page.getByLabel(label)).toHaveAttribute('readonly', '');
  }
  await expect(page.getByText(/: change it there\./)).toHaveCount(2);
  await expect(page.getByLabel('Email')).not.toHaveAttribute('readonly', '');
  await expectNoSeriousA11yViolations(page);
});

test.describe('at a phone-sized viewport', () => {
  test.use({ viewport: PHONE });

  test('admin: the create dialog, the one-time password and the account page pass axe', async ({
    page,
  }) => {
    test.setTimeout(180_000);
    await signInAsRole(page, 'admin');
    await createThroughDialog(
      page,
      { username: uniqueName('phone'), firstname: 'Mo', lastname: 'Reyes' },
      true,
    );
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('tab', { name: 'Account' }).click();
    await expect(page.getByRole('heading', { name: 'Details' })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('button', { name: 'Deactivate' }).click();
    await expect(page.getByRole('dialog', { name: 'Deactivate Mo Reyes?' })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  });
});
