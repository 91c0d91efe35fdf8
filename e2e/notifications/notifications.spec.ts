import { expect, test } from '@playwright/test';
import {
  createAccount,
  expectNoSeriousA11yViolations,
  signInAs,
  signInAsRole,
  uniqueName,
} from '../support/fixtures';

test('notifications: an admin sends an urgent one and the open page of its recipient shows it live', async ({
  browser,
  page,
}) => {
  test.slow();
  const account = createAccount({
    username: uniqueName('splicer'),
    password: 'live updates please',
  });
  await signInAs(page, account.username, account.password);
  // The live channel opens once the page has loaded and the browser is idle.
  const live = page.waitForEvent('websocket', (ws) => ws.url().includes('/api/live'));
  await page.goto('/');
  await expect(page.getByRole('button', { name: 'Notifications', exact: true })).toBeVisible();
  await live;

  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  try {
    await signInAsRole(admin, 'admin');
    await admin.goto('/notification-demo');
    await expect(admin.getByRole('heading', { level: 1, name: 'Notification Demo' })).toBeVisible();
    await expect(admin.getByRole('status').filter({ hasText: /^connected$/ })).toBeVisible();
    await expectNoSeriousA11yViolations(admin);

    await admin.getByRole('radiogroup', { name: 'To' }).getByText('To someone else').click();
    await admin.getByRole('textbox').first().fill(account.username);
    await admin.getByRole('button', { name: new RegExp(`\\(${account.username}\\)`) }).click();
    await admin.getByRole('radiogroup', { name: 'Priority' }).getByText('Urgent').click();
    await admin.getByRole('button', { name: 'Send' }).click();
    await expect(admin.getByText(/^Sent to Erin Test/)).toBeVisible();
  } finally {
    await adminContext.close();
  }

  // No reload: the bell counts it, and an urgent one pops up.
  await expect(page.getByRole('button', { name: 'Notifications, 1 unread' })).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: 'Test notification' })).toBeVisible();

  await page.getByRole('button', { name: 'Notifications, 1 unread' }).click();
  const centre = page.getByRole('dialog', { name: 'Notifications' });
  await expect(centre.getByRole('button', { name: /^Unread: Test notification/ })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await centre.getByRole('button', { name: 'Mark all as read' }).click();
  await expect(centre.getByRole('button', { name: /^Test notification/ })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Notifications', exact: true })).toBeVisible();
});

test('notifications: the connection drops, runs out of attempts, goes offline and comes back', async ({
  page,
}) => {
  // Five reconnect attempts with the client's back-off take about 20 s.
  test.setTimeout(120_000);
  await signInAsRole(page, 'admin');
  await page.goto('/notification-demo');
  const state = page.getByRole('status').filter({ hasText: /^(connected|reconnecting|offline)$/ });
  await expect(state).toHaveText('connected');

  // Dropped as a network would drop it: it comes back by itself.
  await page.getByRole('button', { name: 'Drop connection' }).click();
  await expect(page.getByText(/disconnected: /)).toBeVisible();
  await expect(state).toHaveText('connected');

  // Every attempt fails: after the last, the header offers to retry.
  await page.getByRole('button', { name: 'Simulate outage' }).click();
  await expect(page.getByText('reconnecting (attempt 5 of 5)')).toBeVisible({ timeout: 40_000 });
  const retry = page.getByRole('button', { name: 'Offline — retry' });
  await expect(retry).toBeVisible({ timeout: 40_000 });
  await expect(state).toHaveText('offline');
  await retry.click();
  await expect(state).toHaveText('connected');
  await expect(retry).toBeHidden();

  // What was sent while it was away arrives (the send works over HTTP; the socket is back).
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByText(/^Delivered to this tab in \d+ ms\.$/)).toBeVisible();
});
