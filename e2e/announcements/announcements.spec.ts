import { expect, test } from '@playwright/test';
import {
  expectNoSeriousA11yViolations,
  PHONE_WIDTH,
  signInAsRole,
  uniqueName,
} from '../support/fixtures';

/**
 * Announcements in Chromium (docs/announcements.md): what only two browsers show — an admin
 * publishes an urgent announcement and the student's page, open in another browser, shows it
 * without a reload (the live channel); the student confirms they have read it and the admin's open
 * detail counts it, again without a reload. Every page and dialog on the way is scanned by axe
 * (which also lays it out at 375 px). The rules are the server's tests'; what a page shows per
 * answer is the component tests'. Each announcement here goes to the demo student alone, with a
 * title no other test uses, so the other specs' pages get no banner of it.
 */

test('announcements: an urgent one reaches an open page at once, and its acknowledgement the admin’s counts', async ({
  browser,
}) => {
  test.slow();
  const title = `Road closed ${uniqueName('elm')}`;
  const studentContext = await browser.newContext();
  const adminContext = await browser.newContext();
  try {
    const student = await studentContext.newPage();
    await signInAsRole(student, 'student');
    // The live channel opens once the page has painted.
    const live = student.waitForEvent('websocket', (ws) => ws.url().includes('/api/live'));
    await student.goto('/profile-settings');
    await expect(
      student.getByRole('heading', { level: 1, name: 'Profile Settings' }),
    ).toBeVisible();
    await live;

    const admin = await adminContext.newPage();
    await signInAsRole(admin, 'admin');
    await admin.goto('/announcement-manager');
    await expect(
      admin.getByRole('heading', { level: 1, name: 'Announcement Manager' }),
    ).toBeVisible();
    await expect(admin.getByRole('table', { name: 'Announcements' })).toBeVisible();
    await expectNoSeriousA11yViolations(admin);

    await admin.getByRole('button', { name: 'New announcement' }).click();
    const dialog = admin.getByRole('dialog', { name: 'New announcement' });
    await dialog.getByRole('textbox', { name: 'Title' }).fill(title);
    const text = dialog.getByRole('textbox', { name: 'Text' });
    await text.click();
    await admin.keyboard.insertText('The feeder in the Elm Street duct is cut. Keep crews away.');
    await dialog.getByRole('button', { name: 'Add a person' }).click();
    await dialog.getByRole('textbox', { name: 'Search people' }).fill('Rivera');
    await dialog.getByRole('button', { name: 'Choose Sam Rivera (student)' }).click();
    await expect(dialog.getByRole('list', { name: 'People chosen' })).toContainText('Sam Rivera');
    // The segmented control's radios are hidden behind their labels.
    await dialog.locator('label', { hasText: /^Urgent$/ }).click();
    await expect(dialog.getByRole('radio', { name: 'Urgent' })).toBeChecked();
    await dialog.getByRole('checkbox', { name: /confirm they have read it/ }).check();
    await expectNoSeriousA11yViolations(admin);
    await dialog.getByRole('button', { name: 'Publish now' }).click();

    // The admin lands on its detail: one person reached, none has acknowledged it yet.
    await expect(admin.getByRole('heading', { level: 1, name: title })).toBeVisible();
    const counts = admin.getByLabel('Counts');
    await expect(counts).toContainText('Reached1');
    await expect(counts).toContainText('Acknowledged0 (0%)');
    await expect(admin.getByRole('heading', { name: 'Not acknowledged yet' })).toBeVisible();
    await expect(admin.getByRole('cell', { name: /Sam Rivera/ })).toBeVisible();
    await expectNoSeriousA11yViolations(admin);

    // The student's open page shows it, without a reload.
    const banner = student.getByRole('region', { name: /^Urgent announcement/ });
    await expect(banner.getByRole('alert')).toHaveText(title, { timeout: 5_000 });
    await expectNoSeriousA11yViolations(student);
    await banner.getByRole('button', { name: 'Read it' }).click();
    const reading = student.getByRole('dialog', { name: 'Announcement' });
    await expect(reading.getByRole('heading', { name: title })).toBeVisible();
    await expect(reading).toContainText('The feeder in the Elm Street duct is cut.');
    await expectNoSeriousA11yViolations(student);
    await reading.getByRole('button', { name: 'I have read this' }).click();
    await expect(reading).toContainText('You confirmed reading this on');
    await reading.getByRole('button', { name: 'Close' }).click();
    // (The bell's toast of the notification may still be up: the banner is what waits for this.)
    await expect(banner.getByRole('alert').filter({ hasText: title })).toHaveCount(0);

    // The admin's open detail counts it, without a reload.
    await expect(counts).toContainText('Acknowledged1 (100%)');
    await expect(counts).toContainText('Read1 (100%)');
    await expect(admin.getByText('Everyone it reached has acknowledged it.')).toBeVisible();
  } finally {
    await studentContext.close();
    await adminContext.close();
  }
});

test('announcements: the manager’s list and a detail on a phone', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: PHONE_WIDTH, height: 800 } });
  try {
    const page = await context.newPage();
    await signInAsRole(page, 'admin');
    await page.goto('/announcement-manager');
    const list = page.getByRole('list', { name: 'Announcements' });
    await expect(list.getByRole('listitem').first()).toBeVisible();
    await expect(page.getByRole('table')).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);
    // The demo's urgent one: its detail, with who has not acknowledged it.
    await list.getByRole('link', { name: /^Cable cut: Elm Street closed/ }).click();
    await expect(page.getByRole('heading', { level: 1, name: /^Cable cut/ })).toBeVisible();
    await expect(page.getByLabel('Counts')).toBeVisible();
    await expect(page.getByRole('list', { name: 'Not acknowledged yet' })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  } finally {
    await context.close();
  }
});
