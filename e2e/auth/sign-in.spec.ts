import { NAV_ITEMS, STORAGE_KEYS, SYSTEM_ROLE_IDS } from '@learning-hub/core';
import { expect, test } from '@playwright/test';
import Database from 'better-sqlite3';
import { E2E_DB_PATH } from '../support/env';
import { createAccount, DEMO, signInAs, signInAsRole, uniqueName } from '../support/fixtures';
import { fillSignIn, logout, menuLabels, openAvatarMenu } from '../support/ui';

test('auth: a student signs in from the form, lands on the start page and the method is kept', async ({
  page,
}) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/login\?next=%2F$/);
  await fillSignIn(page, DEMO.student.username, DEMO.student.password);
  await expect(
    page.getByRole('heading', { level: 1, name: `Welcome, ${DEMO.student.firstname}` }),
  ).toBeVisible();
  // The method chosen (local by default) is kept in browser storage.
  expect(await page.evaluate((k) => localStorage.getItem(k), STORAGE_KEYS.authMethod)).toBe(
    'local',
  );
});

for (const role of SYSTEM_ROLE_IDS) {
  test(`auth: ${role} sees the nav table's items`, async ({ page }) => {
    await signInAsRole(page, role);
    await page.goto('/');
    await expect(
      page.getByRole('heading', { level: 1, name: `Welcome, ${DEMO[role].firstname}` }),
    ).toBeVisible();
    const expected = NAV_ITEMS.filter(
      (i) => i.visibleTo === 'everyone' || i.visibleTo.includes(role),
    ).map((i) => i.label);
    expect(await menuLabels(page)).toEqual(expected);
  });
}

test('auth: a production start hashes passwords with OWASP argon2id parameters', () => {
  // The e2e server is a production start (NODE_ENV=production, the built server) that seeded the
  // demo accounts. The server's own tests hash at a token cost (server/src/test/setup.ts).
  const db = new Database(E2E_DB_PATH, { readonly: true, fileMustExist: true });
  try {
    const rows = db
      .prepare<[], { username: string; password_hash: string }>(
        "select username, password_hash from users where username in ('admin', 'instructor', 'student')",
      )
      .all();
    expect(rows.map((r) => r.username).sort()).toEqual(['admin', 'instructor', 'student']);
    for (const row of rows) {
      expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    }
  } finally {
    db.close();
  }
});

test('auth: the avatar shows initials, the name and the department', async ({ page }) => {
  await signInAsRole(page, 'instructor');
  await page.goto('/');
  const avatar = page.getByRole('button', { name: 'Account menu for Priya Shah, PS' });
  await expect(avatar).toHaveText('PS');
  await openAvatarMenu(page);
  const menu = page.getByRole('menu');
  await expect(menu).toContainText('Priya Shah');
  await expect(menu).toContainText('Field Operations');
  await menu.getByRole('menuitem', { name: 'Profile Settings' }).click();
  await expect(page).toHaveURL(/\/profile-settings$/);
});

test("auth: a user without a department is shown as 'Student'", async ({ page }) => {
  const account = createAccount({ username: uniqueName('nodept'), password: 'no department here' });
  await signInAs(page, account.username, account.password);
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Welcome, Erin' })).toBeVisible();
  await openAvatarMenu(page);
  await expect(page.getByRole('menu')).toContainText('Student');
});

test('auth: the page asked for is remembered and restored after sign-in', async ({ page }) => {
  await page.goto('/library?view=recent');
  await expect(page).toHaveURL('/login?next=%2Flibrary%3Fview%3Drecent');
  await fillSignIn(page, 'student', 'student-demo-pass');
  await expect(page).toHaveURL('/library?view=recent');
  await expect(page.getByRole('heading', { level: 1, name: 'Library' })).toBeVisible();
});

test('auth: an outside address in ?next= is ignored', async ({ page }) => {
  await page.goto('/login?next=//evil.example/phish');
  await fillSignIn(page, 'student', 'student-demo-pass');
  await expect(page).toHaveURL('/');
});

test('auth: a wrong password shows the server error in the form', async ({ page }) => {
  await page.goto('/login');
  await fillSignIn(page, 'instructor', 'not-my-password');
  await expect(page.getByRole('alert')).toHaveText('Invalid username or password');
  await page.getByLabel(/^Username/).fill('');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('Username is required')).toBeVisible();
});

// These end their session: each signs in on its own instead of sharing the worker's session.
test('auth: signing out in one tab signs out the other', async ({ page, context }) => {
  await signInAs(page, DEMO.student.username, DEMO.student.password);
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Welcome, Sam' })).toBeVisible();
  const other = await context.newPage();
  await other.goto('/library');
  await expect(other.getByRole('heading', { level: 1, name: 'Library' })).toBeVisible();

  await logout(page);
  await expect(other).toHaveURL(/\/login/);
  await expect(other.getByRole('heading', { name: 'Sign in' })).toBeVisible();
});

test('auth: sign-out revokes the session on the server', async ({ page }) => {
  const login = await signInAs(page, DEMO.student.username, DEMO.student.password);
  await page.goto('/');
  await logout(page);
  const me = await page.request.get('/api/auth/me', {
    headers: { authorization: `Bearer ${login.token}` },
  });
  expect(me.status()).toBe(401);
});

test('auth: an expired stored session is treated as absent and cleared', async ({ page }) => {
  const login = await signInAsRole(page, 'student');
  await page.addInitScript(([key, value]) => window.localStorage.setItem(key, value), [
    STORAGE_KEYS.session,
    JSON.stringify({
      isAuthenticated: true,
      user: login.user,
      token: login.token,
      expiresAt: new Date(Date.now() - 1000).toISOString(),
    }),
  ] as const);
  await page.goto('/library');
  await expect(page).toHaveURL(/\/login\?next=%2Flibrary$/);
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  expect(await page.evaluate((k) => localStorage.getItem(k), STORAGE_KEYS.session)).toBeNull();
});

test('auth: a session ended on the server signs the tab out at its next request', async ({
  page,
}) => {
  const login = await signInAs(page, DEMO.instructor.username, DEMO.instructor.password);
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Welcome, Priya' })).toBeVisible();
  await page.request.post('/api/auth/logout', {
    headers: { authorization: `Bearer ${login.token}` },
  });
  await page.goto('/profile-settings');
  await expect(page).toHaveURL(/\/login/);
});

test('auth: a user with a one-time password must change it before anything else', async ({
  page,
}) => {
  const account = createAccount({
    username: uniqueName('newhire'),
    department: 'Field Operations',
  });
  await page.goto('/library');
  await fillSignIn(page, account.username, account.password);

  await expect(page).toHaveURL(/\/profile-settings/);
  await expect(page.getByText('You must change your password before continuing.')).toBeVisible();
  // Every other page sends the user back here, and the server refuses other calls too.
  await page.goto('/');
  await expect(page).toHaveURL(/\/profile-settings/);
  const token = await page.evaluate(
    (k) => JSON.parse(localStorage.getItem(k) ?? '{}').token as string,
    STORAGE_KEYS.session,
  );
  const blocked = await page.request.put('/api/auth/profile', {
    headers: { authorization: `Bearer ${token}` },
    data: { firstname: 'Sneaky' },
  });
  expect(blocked.status()).toBe(403);
  expect((await blocked.json()).code).toBe('PASSWORD_CHANGE_REQUIRED');

  await page.getByLabel(/^Current password/).fill(account.password);
  await page.getByLabel(/^New password/).fill('password');
  await page.getByLabel(/^Confirm new password/).fill('password');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(
    page.getByText('This password is too common. Choose a less common one.'),
  ).toBeVisible();

  await page.getByLabel(/^New password/).fill('splicing fiber since 2026');
  await page.getByLabel(/^Confirm new password/).fill('splicing fiber since 2026');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page).not.toHaveURL(/\/profile-settings/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.goto('/library');
  await expect(page.getByRole('heading', { level: 1, name: 'Library' })).toBeVisible();
});
