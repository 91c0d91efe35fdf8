/**
 * Sign-in with a directory, a Moodle site and single sign-on, from the sign-in page, against the
 * real test services the e2e server started (scripts/e2e-server.mjs): a throwaway OpenLDAP slapd,
 * the Moodle stand-in and an oidc-provider identity provider.
 */
import { readFileSync } from 'node:fs';
import { STORAGE_KEYS } from '@learning-hub/core';
import { expect, test, type Page } from '@playwright/test';
import { BASE_URL, SERVICE_ACCOUNTS, SERVICES_FILE } from '../support/env';
import { expectNoSeriousA11yViolations } from '../support/fixtures';
import { fillSignIn, logout, openAvatarMenu } from '../support/ui';

interface Services {
  ldap: { url: string } | null;
  moodle: { url: string };
  oidc: { issuer: string };
}

const services = JSON.parse(readFileSync(SERVICES_FILE, 'utf8')) as Services;
const inCi = process.env.CI === 'true' || process.env.CI === '1';
if (!services.ldap && !inCi) {
  console.warn(
    '\n*** slapd is not installed: the directory sign-in browser tests are SKIPPED ***\n' +
      '*** install it with: apt-get install -y slapd ldap-utils                      ***\n',
  );
}

const storedMethod = (page: Page) =>
  page.evaluate((key) => localStorage.getItem(key), STORAGE_KEYS.authMethod);

async function chooseMethod(page: Page, label: string): Promise<void> {
  await page.getByRole('combobox', { name: 'Authentication method' }).click();
  await page.getByRole('option', { name: label }).click();
}

/** The identity provider's own pages (oidc-provider's devInteractions): login, then consent. */
async function signInAtIdentityProvider(page: Page, login: string): Promise<void> {
  await expect(page).toHaveURL(new RegExp(`^${services.oidc.issuer}`));
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('any-password');
  await page.locator('button[type="submit"]').click();
  await page.getByRole('button', { name: 'Continue' }).click();
}

test.describe('sign-in with a provider', () => {
  test('ldap: a directory account signs in from the form, and the method is remembered', async ({
    page,
  }) => {
    test.skip(!services.ldap && !inCi, 'slapd is not installed');
    const { username, password, firstname } = SERVICE_ACCOUNTS.ldap;
    await page.goto('/login');
    await chooseMethod(page, 'Company directory (LDAP)');
    expect(await storedMethod(page)).toBe('ldap');

    await fillSignIn(page, username, 'not-the-password');
    await expect(page.getByRole('alert')).toHaveText(
      'LDAP authentication error: Invalid username or password',
    );

    await fillSignIn(page, username, password);
    await expect(
      page.getByRole('heading', { level: 1, name: `Welcome, ${firstname}` }),
    ).toBeVisible();
    // The directory group hub-instructors maps to the instructor role.
    await page.getByRole('button', { name: 'Open navigation' }).click();
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    await expect(nav.getByRole('link', { name: 'Instructor Settings' })).toBeVisible();
    await page.getByRole('button', { name: 'Close navigation' }).click();
    const session = await page.evaluate((key) => localStorage.getItem(key), STORAGE_KEYS.session);
    expect(JSON.parse(session ?? '{}').user).toMatchObject({
      authMethod: 'ldap',
      role: 'instructor',
    });

    await logout(page);
    // Remembered: the sign-in page opens on the directory method.
    await page.reload();
    await expect(page.getByRole('combobox', { name: 'Authentication method' })).toHaveValue(
      'Company directory (LDAP)',
    );
    expect(await storedMethod(page)).toBe('ldap');
  });

  test('moodle: a Moodle account signs in, and signing out goes to the Moodle logout page', async ({
    page,
  }) => {
    const { username, password } = SERVICE_ACCOUNTS.moodle;
    await page.goto('/login');
    await chooseMethod(page, 'Moodle');

    await fillSignIn(page, username, 'wrong-password');
    await expect(page.getByRole('alert')).toHaveText(/^Moodle authentication error: /);

    await fillSignIn(page, username, password);
    await expect(page.getByRole('heading', { level: 1, name: 'Welcome, Noah' })).toBeVisible();
    expect(await storedMethod(page)).toBe('moodle');

    await openAvatarMenu(page);
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await expect(page).toHaveURL(`${services.moodle.url}/login/logout.php`);
    await expect(page.getByText('You have been logged out.')).toBeVisible();

    // The session is gone from the app and from the server.
    await page.goto('/');
    await expect(page).toHaveURL(/\/login\?next=%2F$/);
    await expect(page.getByRole('combobox', { name: 'Authentication method' })).toHaveValue(
      'Moodle',
    );
  });

  test('sso: single sign-on goes through the identity provider and back', async ({ page }) => {
    await page.goto('/library');
    await expect(page).toHaveURL(/\/login\?next=%2Flibrary$/);
    await chooseMethod(page, 'Single sign-on');
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('link', { name: 'Sign in with Company SSO' }).click();

    await signInAtIdentityProvider(page, SERVICE_ACCOUNTS.sso.login);

    // Back at the page asked for, signed in; the one-time code left the address bar.
    await expect(page).toHaveURL('/library');
    await expect(page.getByRole('heading', { level: 1, name: 'Library' })).toBeVisible();
    await openAvatarMenu(page);
    await expect(page.getByRole('menu')).toContainText('Carol Castillo');
    await expect(page.getByRole('menu')).toContainText('Customer Support');
    await page.keyboard.press('Escape');
    expect(await storedMethod(page)).toBe('sso');

    await logout(page);
    await expect(page.getByRole('link', { name: 'Sign in with Company SSO' })).toBeVisible();
  });

  test('sso: cancelling at the identity provider comes back with the error', async ({ page }) => {
    await page.goto('/login');
    await chooseMethod(page, 'Single sign-on');
    await page.getByRole('link', { name: 'Sign in with Company SSO' }).click();
    await page.locator('input[name="login"]').fill(SERVICE_ACCOUNTS.sso.login);
    await page.locator('input[name="password"]').fill('any-password');
    await page.locator('button[type="submit"]').click();
    await page.getByRole('link', { name: '[ Cancel ]' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('alert')).toHaveText(/^SSO authentication error: /);
  });
});

test.describe('admin: sign-in providers', () => {
  test('the Authentication settings list the providers and test their connections', async ({
    page,
  }) => {
    const { signInAsRole } = await import('../support/fixtures');
    await signInAsRole(page, 'admin');
    await page.goto('/admin');
    await page.getByRole('link', { name: 'Authentication' }).click();
    await expect(page).toHaveURL('/admin/authentication');
    await expect(page.getByRole('switch', { name: /^Moodle/ })).toBeChecked();
    const providers = page.getByRole('table', { name: 'Providers' });
    await expect(providers.getByText('Training Moodle')).toBeVisible();
    await expect(providers.getByText('Company SSO')).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    await page.getByRole('button', { name: 'Test Training Moodle' }).click();
    const dialog = page.getByRole('dialog', { name: 'Connection test: Training Moodle' });
    await expect(dialog.getByText('Passed')).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await dialog.getByRole('button', { name: 'Close' }).first().click();

    await page.getByRole('button', { name: 'Edit Company SSO' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit provider: Company SSO' });
    await expect(edit.getByRole('textbox', { name: 'Redirect URI' })).toHaveValue(
      `${BASE_URL}/api/auth/sso/callback`,
    );
    await expectNoSeriousA11yViolations(page);
  });

  test('/auth-test: a dry-run directory sign-in shows every step and the mapped access', async ({
    page,
  }) => {
    test.skip(!services.ldap && !inCi, 'slapd is not installed');
    const { signInAsRole } = await import('../support/fixtures');
    await signInAsRole(page, 'admin');
    await page.goto('/auth-test?provider=corp');
    await expect(
      page.getByRole('heading', { level: 1, name: 'Authentication Test' }),
    ).toBeVisible();
    // alice (directory group hub-admins) never signs in anywhere else in these tests.
    await page.getByLabel(/^Username/).fill('alice');
    await page.getByLabel(/^Password/).fill('alice-secret');
    await page.getByRole('button', { name: 'Run test sign-in' }).click();
    await expect(page.getByText('Passed', { exact: true })).toBeVisible();
    const steps = page.getByRole('list', { name: 'Sign-in steps' });
    await expect(steps).toContainText('Bind');
    await expect(page.getByText('hub-admins', { exact: true })).toBeVisible();
    const access = page.getByRole('region', { name: 'Access that would be mapped' });
    await expect(access.getByText('Administrator', { exact: true })).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    // A dry run: no account was created.
    const users = await page.request.get('/api/admin/users?search=alice', {
      headers: { authorization: `Bearer ${await bearerToken(page)}` },
    });
    expect(users.status()).toBe(200);
    expect(((await users.json()) as { total: number }).total).toBe(0);
  });

  test('/auth-test: a single sign-on test goes through the identity provider', async ({ page }) => {
    const { signInAsRole } = await import('../support/fixtures');
    await signInAsRole(page, 'admin');
    await page.goto('/auth-test?provider=idp');
    await page.getByRole('button', { name: 'Sign in at Company SSO' }).click();
    // alice never signs in for real in these tests (a dry run creates no account).
    await signInAtIdentityProvider(page, 'alice');
    await expect(page).toHaveURL(/\/auth-test\?sso_test=/);
    await expect(page.getByText('Passed', { exact: true })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Claims received' })).toBeVisible();
    const access = page.getByRole('region', { name: 'Access that would be mapped' });
    await expect(access.getByText('Administrator', { exact: true })).toBeVisible();
    // The admin is still signed in as themselves.
    await expect(
      page.getByRole('button', { name: 'Account menu for Alex Morgan, AM' }),
    ).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  });
});

async function bearerToken(page: Page): Promise<string> {
  const raw = await page.evaluate((key) => localStorage.getItem(key), STORAGE_KEYS.session);
  return (JSON.parse(raw ?? '{}') as { token?: string }).token ?? '';
}
