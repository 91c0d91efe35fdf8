import { expect, test, type Page } from '@playwright/test';
import {
  createAccount,
  expectNoSeriousA11yViolations,
  signInAs,
  signInAsRole,
  uniqueName,
} from '../support/fixtures';
import { menuLabels } from '../support/ui';

/** A datetime-local value `days` from now, in the browser's local time. */
function localDateTime(days: number): string {
  const d = new Date(Date.now() + days * 86_400_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

async function openUser(page: Page, username: string) {
  await page.goto('/admin');
  await page.getByRole('textbox', { name: 'Search' }).fill(username);
  await expect(page.getByText('Showing 1–1 of 1 users')).toBeVisible();
  // The search is debounced: wait for the row of this user, then open it.
  await page
    .getByRole('row', { name: new RegExp(username) })
    .getByRole('link')
    .click();
  await expect(page.getByRole('heading', { level: 2, name: 'Erin Test' })).toBeVisible();
}

async function pick(page: Page, text: string, option: string | RegExp) {
  await page.getByRole('dialog').getByRole('combobox', { name: text, exact: true }).click();
  await page.getByRole('option', { name: option }).click();
}

test('admin: a department role with an expiry opens that department to the user at once', async ({
  page,
  browser,
}) => {
  const target = createAccount({
    username: uniqueName('crosser'),
    password: 'crossing departments',
    department: 'Customer Support',
  });
  const userContext = await browser.newContext();
  const userPage = await userContext.newPage();
  await signInAs(userPage, target.username, target.password);
  await userPage.goto('/departments/field-operations');
  await expect(userPage).toHaveURL('/');

  await signInAsRole(page, 'admin');
  await openUser(page, target.username);
  await page.getByRole('button', { name: 'Assign' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('radiogroup', { name: 'Context type' }).getByText('A department').click();
  await pick(page, 'Department', 'Field Operations');
  await dialog.getByLabel('Department member').check();
  await dialog.getByLabel('Expires').fill(localDateTime(7));
  await dialog.getByRole('button', { name: 'Assign' }).click();
  await expect(dialog).toBeHidden();
  const row = page.getByRole('row', { name: /department:field-operations/ });
  await expect(row).toContainText('Department member');
  await expect(row).toContainText('In force');

  // The user's very next request carries the new permission.
  await userPage.goto('/departments/field-operations');
  await expect(userPage).toHaveURL('/departments/field-operations');
  await expect(userPage.getByRole('heading', { level: 1, name: 'Field Operations' })).toBeVisible();

  // Removed again: the department sends them home.
  await row.getByRole('button', { name: 'Remove' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByRole('row', { name: /department:field-operations/ })).toHaveCount(0);
  await userPage.goto('/departments/field-operations');
  await expect(userPage).toHaveURL('/');

  // Both changes are in the durable trail.
  await page.getByRole('tab', { name: 'Activity' }).click();
  await expect(
    page
      .getByText('assignment.remove')
      .or(page.getByText(/Assignment removed/i))
      .first(),
  ).toBeVisible();
  await userContext.close();
});

test('admin: a custom role built on instructor gives its holder the instructor pages', async ({
  page,
  browser,
}) => {
  const roleId = uniqueName('trainer').replace(/[^a-z0-9-]/g, '');
  const target = createAccount({ username: uniqueName('trainee'), password: 'becoming a trainer' });

  await signInAsRole(page, 'admin');
  await page.goto('/admin/roles');
  await page.getByRole('button', { name: 'Create role' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: 'Role id' }).fill(roleId);
  await dialog.getByRole('textbox', { name: 'Display name' }).fill('Field trainer');
  await pick(page, 'Inherits from', /Instructor/);
  await dialog.getByRole('button', { name: 'Create role' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('row', { name: new RegExp(roleId) })).toBeVisible();

  await openUser(page, target.username);
  await page.getByRole('combobox', { name: 'Role', exact: true }).click();
  await page.getByRole('option', { name: /Field trainer/ }).click();
  await page.getByRole('button', { name: 'Change role' }).click();
  await expect(page.getByText(/Field trainer/).first()).toBeVisible();

  const userContext = await browser.newContext();
  const userPage = await userContext.newPage();
  await signInAs(userPage, target.username, target.password);
  await userPage.goto('/');
  expect(await menuLabels(userPage)).toContain('Instructor Settings');
  await userPage.goto('/wiki/create');
  await expect(
    userPage.getByRole('heading', { level: 1, name: 'Wiki Page Creator' }),
  ).toBeVisible();
  await userContext.close();
});

test('admin: the simulator explains a denial and a grant', async ({ page }) => {
  const target = createAccount({
    username: uniqueName('simulated'),
    password: 'just being simulated',
  });
  await signInAsRole(page, 'admin');
  await page.goto('/admin-test');
  await page.getByRole('combobox', { name: 'User', exact: true }).fill(target.username);
  await page.getByRole('option', { name: new RegExp(target.username) }).click();
  await page.getByRole('radiogroup', { name: 'Check' }).getByText('Page').click();
  await page.getByRole('combobox', { name: 'Page', exact: true }).click();
  await page.getByRole('option', { name: /^\/wiki\/create/ }).click();
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(page.getByText('Denied', { exact: true })).toBeVisible();
  await expect(page.getByText('Missing required permission: wiki.create').first()).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  await page.getByRole('radiogroup', { name: 'Check' }).getByText('Permission').click();
  await page.getByRole('combobox', { name: 'Permission', exact: true }).fill('course.view');
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(page.getByText('Allowed', { exact: true })).toBeVisible();
  await expect(page.getByText('role student').first()).toBeVisible();
});

test('admin: the admin area is closed to instructors, every sub-page included', async ({
  page,
}) => {
  await signInAsRole(page, 'instructor');
  for (const path of ['/admin', '/admin/roles', '/admin/audit', '/admin/checks']) {
    await page.goto(path);
    await expect(page).toHaveURL('/');
    await expect(
      page.getByRole('alert').filter({
        hasText:
          'You do not have access to Admin Settings: Missing required permission: system.admin',
      }),
    ).toBeVisible();
  }
  const api = await page.request.get('/api/admin/users');
  expect(api.status()).toBe(401);
});

test('admin: permission checks say Allowed and Denied in full, on a phone too', async ({
  page,
}) => {
  // A denial, whose reason makes its row's last column long (the student may not list users).
  const student = await page.request.post('/api/auth/local', {
    data: { username: 'student', password: 'student-demo-pass' },
  });
  const { token } = (await student.json()) as { token: string };
  const denied = await page.request.get('/api/admin/users', {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(denied.status()).toBe(403);

  await page.setViewportSize({ width: 375, height: 800 });
  await signInAsRole(page, 'admin');
  await page.goto('/admin/checks');
  const table = page.getByRole('table', { name: 'Permission checks' });
  await expect(table.getByText('Denied', { exact: true }).first()).toBeVisible();
  await expect(table.getByText('Allowed', { exact: true }).first()).toBeVisible();
  // No result badge is clipped to its first letter.
  const clipped = await table
    .locator('.mantine-Badge-label')
    .evaluateAll((labels) =>
      labels
        .filter((l) => l.scrollWidth > l.clientWidth + 1)
        .map((l) => `${l.textContent} (${l.clientWidth}px of ${l.scrollWidth}px)`),
    );
  expect(clipped).toEqual([]);
});

test('a11y: the admin area pages', async ({ page }) => {
  test.slow(); // eight axe scans of large pages
  const target = createAccount({ username: uniqueName('a11y'), password: 'looked at by axe' });
  await signInAsRole(page, 'admin');
  await page.goto('/admin');
  await expect(page.getByRole('table')).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await openUser(page, target.username);
  await expectNoSeriousA11yViolations(page);
  for (const tab of ['Effective permissions', 'Activity']) {
    await page.getByRole('tab', { name: tab }).click();
    await expect(page.getByRole('tabpanel')).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  }
  await page.getByRole('tab', { name: 'Access' }).click();
  await page.getByRole('button', { name: 'Assign' }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await page.keyboard.press('Escape');
  for (const path of ['/admin/roles', '/admin/audit', '/admin/checks']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: 'Admin Settings' })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  }
});

test('a11y: storage per person and background jobs under Admin Settings → System, on a phone', async ({
  page,
}) => {
  const admin = await signInAsRole(page, 'admin');
  const uploaded = await page.request.post('/api/files', {
    headers: { authorization: `Bearer ${admin.token}` },
    multipart: {
      file: { name: 'splice-log.txt', mimeType: 'text/plain', buffer: Buffer.from('0.02 dB') },
    },
  });
  expect(uploaded.status()).toBe(201);
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto('/admin/system');
  const table = page.getByRole('table', { name: 'Storage' });
  await expect(table.getByRole('link', { name: 'Alex Morgan' })).toBeVisible();
  // Wider than the phone: the table scrolls sideways (and says so), the page itself does not.
  const storage = page.getByRole('region', { name: 'Storage' });
  await expect(storage.getByText('Scroll the table sideways to see every column.')).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(
    true,
  );
  const stored = table.getByRole('button', { name: 'Stored' });
  await stored.scrollIntoViewIfNeeded();
  await expect(stored).toBeInViewport();
  // The queue of background jobs, below it, is a list of cards on a phone: nothing to scroll.
  const jobs = page.getByRole('region', { name: 'Background jobs' });
  await expect(jobs.getByRole('list', { name: 'Background jobs' })).toBeVisible();
  await expect(jobs.getByRole('table', { name: 'Background jobs' })).toHaveCount(0);
  await expect(jobs.getByRole('combobox', { name: 'State' })).toBeVisible();
  await expect(jobs.getByText('Scroll the table sideways to see every column.')).toHaveCount(0);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(
    true,
  );
  // The test scrolled down itself: the scan checks where the page opens, so back to its top.
  await page.evaluate(() => window.scrollTo(0, 0));
  await expectNoSeriousA11yViolations(page);
});
