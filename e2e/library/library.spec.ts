import { randomBytes } from 'node:crypto';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { makeSamplePdf } from '../../server/src/platform/storage/sample-pdf';
import {
  expectNoSeriousA11yViolations,
  roleSession,
  signInAsRole,
  uniqueName,
} from '../support/fixtures';

/**
 * The library in Chromium: what only a browser shows — tus uploads with their progress and a cut
 * connection, pdf.js and the video player, the dialogs — each page and dialog scanned with axe
 * (which also lays it out at 375 px). Rules, refusals and leaks are the server tests'.
 */

/** A word no other test or seed uses, letters only (the search splits on anything else). */
const uniqueWord = (prefix: string) => uniqueName(prefix).replace(/[^a-z]/gi, '');

async function openUploadDialog(page: Page) {
  await page.goto('/library');
  await page.getByRole('button', { name: 'Upload files' }).click();
  const dialog = page.getByRole('dialog', { name: 'Upload files' });
  await expect(dialog).toBeVisible();
  return dialog;
}

test('library: an instructor uploads three files with progress, and a word inside the PDF is found from the header', async ({
  page,
}) => {
  test.slow();
  const word = uniqueWord('otdr');
  const pdf = Buffer.from(
    await makeSamplePdf(`Trace ${word}`, [
      `A reflective event at the ${word} connector shows as a spike on the trace.`,
    ]),
  );
  await signInAsRole(page, 'instructor');
  const dialog = await openUploadDialog(page);
  // Each PATCH waits a little, so every file is seen uploading with its own bar.
  await page.route('**/api/uploads/**', async (route) => {
    if (route.request().method() === 'PATCH') await new Promise((r) => setTimeout(r, 400));
    await route.continue();
  });
  await dialog.locator('input[type="file"]').setInputFiles([
    { name: `Trace guide ${word}.pdf`, mimeType: 'application/pdf', buffer: pdf },
    { name: 'splice-notes.txt', mimeType: 'text/plain', buffer: Buffer.from(`Notes ${word}\n`) },
    { name: 'tray.bin', mimeType: 'application/octet-stream', buffer: randomBytes(300_000) },
  ]);
  await expect(dialog.getByRole('listitem')).toHaveCount(3);
  await expect(
    dialog.getByRole('textbox', { name: `Title of Trace guide ${word}.pdf` }),
  ).toHaveValue(`Trace guide ${word}`);
  await expectNoSeriousA11yViolations(page);
  await dialog.getByRole('button', { name: 'Upload 3 files' }).click();
  for (const name of [`Trace guide ${word}.pdf`, 'splice-notes.txt', 'tray.bin']) {
    // Attached, not visible: a bar at 0 % has no width yet.
    await expect(dialog.getByRole('progressbar', { name: `Uploading ${name}` })).toBeAttached();
  }
  await expect(dialog.getByText('3 files were added to the library.')).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await dialog.getByRole('button', { name: 'Close' }).first().click();
  await expect(page.getByRole('link', { name: `Trace guide ${word}` })).toBeVisible();

  // The PDF's text is extracted by a background job; then the header's search finds it.
  await expect(async () => {
    await page.keyboard.press('Control+k');
    const spotlight = page.getByRole('dialog');
    await spotlight.getByRole('textbox').fill(word);
    await expect(
      spotlight.getByRole('button', { name: new RegExp(`^Library Trace guide ${word}`) }),
    ).toBeVisible({ timeout: 3000 });
  }).toPass({ timeout: 30_000 });
  await page
    .getByRole('dialog')
    .getByRole('button', { name: new RegExp(`^Library Trace guide ${word}`) })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: `Trace guide ${word}` })).toBeVisible();
  await expect(page.getByRole('img', { name: `Trace guide ${word}, page 1 of 1` })).toBeVisible();
});

test('library: a resumable upload whose connection is cut goes on from where it stopped', async ({
  page,
}) => {
  test.slow();
  await signInAsRole(page, 'instructor');
  const dialog = await openUploadDialog(page);
  // 20 MB in 8 MB chunks: the second PATCH is cut off; the client asks the server where it got
  // to (HEAD) and sends the rest from there.
  let patches = 0;
  const offsets: number[] = [];
  let asked = false;
  await page.route('**/api/uploads/**', async (route) => {
    const request = route.request();
    if (request.method() === 'HEAD') asked = true;
    if (request.method() === 'PATCH') {
      patches += 1;
      offsets.push(Number(request.headers()['upload-offset']));
      if (patches === 2) {
        await route.abort('connectionreset');
        return;
      }
    }
    await route.continue();
  });
  const name = `${uniqueWord('field')}.bin`;
  await dialog
    .locator('input[type="file"]')
    .setInputFiles([{ name, mimeType: 'application/octet-stream', buffer: randomBytes(20 << 20) }]);
  await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(dialog.getByText('The file was added to the library.')).toBeVisible({
    timeout: 60_000,
  });
  expect(asked).toBe(true);
  // Sent once from 0, cut at 8 MB, then resumed at 8 MB (not from 0) and finished.
  expect(offsets[0]).toBe(0);
  expect(offsets[1]).toBe(8 << 20);
  expect(offsets.slice(2)).toEqual([8 << 20, 16 << 20]);
});

test('library: the PDF and the video play in the page, and the video seeks', async ({ page }) => {
  await signInAsRole(page, 'instructor');
  await page.goto('/library');
  await page.getByRole('link', { name: 'OTDR trace interpretation guide' }).click();
  await expect(
    page.getByRole('img', { name: /^OTDR trace interpretation guide, page 1 of \d+$/ }),
  ).toBeVisible();
  await expect(page.getByText('Views')).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  await page.goto('/library?kind=video');
  await page.getByRole('link', { name: 'Fusion splicing in two minutes' }).click();
  const video = page.locator('video');
  await expect(video).toBeVisible();
  const ranges: number[] = [];
  page.on('response', (response) => {
    if (response.url().includes('/api/files/')) ranges.push(response.status());
  });
  const seeked = await video.evaluate(async (element: HTMLVideoElement) => {
    if (element.readyState < 1) {
      await new Promise((resolve) => element.addEventListener('loadedmetadata', resolve));
    }
    const duration = element.duration;
    element.currentTime = 5;
    await new Promise((resolve) => element.addEventListener('seeked', resolve, { once: true }));
    return { duration, at: element.currentTime };
  });
  expect(seeked.duration).toBeGreaterThan(6);
  expect(seeked.at).toBeCloseTo(5, 0);
  // Served in ranges (HTTP 206), which is what lets the player seek.
  expect(ranges).toContain(206);
  await expectNoSeriousA11yViolations(page);
});

async function addLinkItem(request: APIRequestContext, title: string): Promise<string> {
  const admin = await roleSession(request, 'admin');
  const response = await request.post('/api/library/items', {
    headers: { Authorization: `Bearer ${admin.token}` },
    data: { title, url: 'https://example.com/otdr', scope: { type: 'everyone' } },
  });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

test('library: an admin moves an item to the trash and restores it', async ({ page, request }) => {
  const title = `Trace archive ${uniqueWord('t')}`;
  const id = await addLinkItem(request, title);
  await signInAsRole(page, 'admin');
  await page.goto(`/library/${id}`);
  await page.getByRole('button', { name: 'Move to trash' }).click();
  const confirm = page.getByRole('dialog', { name: 'Move to trash' });
  await expectNoSeriousA11yViolations(page);
  await confirm.getByRole('button', { name: 'Move to trash' }).click();

  await page.goto('/library');
  await expect(page.getByRole('link', { name: title })).toHaveCount(0);
  await page.getByRole('button', { name: 'Trash' }).click();
  await expect(page).toHaveURL(/trash=true/);
  const row = page.getByRole('row').filter({ hasText: title });
  await expect(row).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await row.getByRole('button', { name: /^Restore/ }).click();
  await expect(row).toHaveCount(0);
  await page.goto('/library');
  await expect(page.getByRole('link', { name: title })).toBeVisible();
});
