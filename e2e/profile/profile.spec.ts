import { expect, test } from '@playwright/test';
import { apiSignIn, createAccount, signInAs, uniqueName } from '../support/fixtures';

test('profile: edit names and email; the avatar follows', async ({ page }) => {
  const account = createAccount({
    username: uniqueName('editor'),
    password: 'editing my own profile',
    department: 'Customer Support',
  });
  await signInAs(page, account.username, account.password);
  await page.goto('/profile-settings');
  await expect(page.getByRole('heading', { level: 1, name: 'Profile Settings' })).toBeVisible();

  await page.getByLabel(/^First name/).fill('Noor');
  await page.getByLabel(/^Last name/).fill('Haddad');
  await page.getByLabel(/^Email/).fill('not-an-email');
  await page.getByRole('button', { name: 'Save profile' }).click();
  await expect(page.getByText('Enter a valid email address')).toBeVisible();

  await page.getByLabel(/^Email/).fill('noor.haddad@fiberco.example');
  await page.getByRole('button', { name: 'Save profile' }).click();
  await expect(page.getByRole('button', { name: 'Account menu for Noor Haddad, NH' })).toHaveText(
    'NH',
  );

  await page.reload();
  await expect(page.getByLabel(/^First name/)).toHaveValue('Noor');
  await expect(page.getByLabel(/^Email/)).toHaveValue('noor.haddad@fiberco.example');
});

test('profile: change the password; other sessions end, this one stays', async ({
  page,
  playwright,
}) => {
  const account = createAccount({
    username: uniqueName('rotate'),
    password: 'the first passphrase',
  });
  const elsewhere = await playwright.request.newContext({
    baseURL: test.info().project.use.baseURL,
  });
  const other = await apiSignIn(elsewhere, account.username, account.password);

  await signInAs(page, account.username, account.password);
  await page.goto('/profile-settings');
  await page.getByLabel(/^Current password/).fill('wrong current password');
  await page.getByLabel(/^New password/).fill('the second passphrase');
  await page.getByLabel(/^Confirm new password/).fill('the second passphrase');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('Current password is incorrect')).toBeVisible();

  await page.getByLabel(/^Current password/).fill('the first passphrase');
  await page.getByLabel(/^Confirm new password/).fill('a different passphrase');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText(/do not match/i)).toBeVisible();

  await page.getByLabel(/^Confirm new password/).fill('the second passphrase');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText(/password (was )?changed/i).first()).toBeVisible();

  const me = await elsewhere.get('/api/auth/me', {
    headers: { authorization: `Bearer ${other.token}` },
  });
  expect(me.status()).toBe(401);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Profile Settings' })).toBeVisible();
  await elsewhere.dispose();
});

test('profile: see the active sessions and end the others', async ({ page, playwright }) => {
  const account = createAccount({
    username: uniqueName('sessions'),
    password: 'many devices here',
  });
  const laptop = await playwright.request.newContext({
    baseURL: test.info().project.use.baseURL,
    userAgent: 'Laptop/1.0',
  });
  const phone = await playwright.request.newContext({
    baseURL: test.info().project.use.baseURL,
    userAgent: 'Phone/2.0',
  });
  const laptopLogin = await apiSignIn(laptop, account.username, account.password);
  const phoneLogin = await apiSignIn(phone, account.username, account.password);

  await signInAs(page, account.username, account.password);
  await page.goto('/profile-settings');
  const table = page.getByRole('table', { name: 'Active sessions' });
  await expect(table.getByRole('row')).toHaveCount(4);
  await expect(table).toContainText('Laptop/1.0');
  await expect(table).toContainText('This device');

  await table
    .getByRole('row', { name: /Laptop\/1\.0/ })
    .getByRole('button', { name: 'End session' })
    .click();
  await page.getByRole('dialog').getByRole('button', { name: 'End session' }).click();
  await expect(table.getByRole('row')).toHaveCount(3);
  expect(
    (
      await laptop.get('/api/auth/me', {
        headers: { authorization: `Bearer ${laptopLogin.token}` },
      })
    ).status(),
  ).toBe(401);

  await page.getByRole('button', { name: 'End all other sessions' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'End all other sessions' }).click();
  await expect(table.getByRole('row')).toHaveCount(2);
  expect(
    (
      await phone.get('/api/auth/me', { headers: { authorization: `Bearer ${phoneLogin.token}` } })
    ).status(),
  ).toBe(401);
  await laptop.dispose();
  await phone.dispose();
});
