import { expect, test, type Page } from '@playwright/test';
import { expectFitsPhone, PHONE_WIDTH, signInAsRole } from '../support/fixtures';
import { createPage, paragraphs, savePage, uniqueTitle, wikiApi } from './wiki-fixtures';

/**
 * Where a page starts on a phone (docs/front-end.md, "On a phone"): a new page opens at its top,
 * and the wiki's conflict view, which replaces an editor the reader had scrolled down to save,
 * starts at its explanation. `expectFitsPhone` checks the same on every page it scans.
 */
test.use({ viewport: { width: PHONE_WIDTH, height: 740 } });

const scrollY = (page: Page) => page.evaluate(() => Math.round(window.scrollY));
const pageText = (page: Page) => page.getByRole('textbox', { name: 'Page text' });

test('wiki: a page published from the creator opens at its top, its title on the screen', async ({
  page,
}) => {
  const title = uniqueTitle('Closure checklist');
  await signInAsRole(page, 'instructor');
  await page.goto('/wiki/create');
  await page.getByRole('radio', { name: /^Procedure/ }).click();
  await page.getByRole('textbox', { name: 'Title' }).fill(title);
  await page.getByRole('combobox', { name: 'Space' }).click();
  await page.getByRole('option', { name: 'Company' }).click();
  const publish = page.getByRole('button', { name: 'Publish' });
  await publish.scrollIntoViewIfNeeded();
  expect(await scrollY(page)).toBeGreaterThan(400);
  await publish.click();
  // The template's placeholders are still in the text: the creator asks first.
  await page
    .getByRole('dialog', { name: 'Placeholders left in the text' })
    .getByRole('button', { name: 'Publish anyway' })
    .click();

  const heading = page.getByRole('heading', { level: 1, name: title });
  await expect(heading).toBeVisible();
  await expect(heading).toBeInViewport();
  expect(await scrollY(page)).toBe(0);
  await expectFitsPhone(page);

  // The next page opens at its top too.
  await page.getByRole('link', { name: 'History' }).click();
  await expect(page.getByRole('list', { name: 'Revisions' })).toBeVisible();
  expect(await scrollY(page)).toBe(0);
  await expectFitsPhone(page);
});

test('wiki: the conflict view starts at its explanation, focused, and leads to the first conflict', async ({
  page,
  request,
}) => {
  test.slow();
  const lines = Array.from({ length: 24 }, (_, i) => `Step ${i + 1}: check the splice tray.`);
  const api = await wikiApi(request, 'instructor');
  const created = await createPage(api, {
    title: uniqueTitle('Long splice procedure'),
    html: paragraphs(...lines),
  });
  await signInAsRole(page, 'admin');
  await page.goto(`/wiki/pages/${created.id}/edit`);
  const editor = pageText(page);
  // The editor's chunk can take a while on a busy machine.
  await expect(editor).toBeVisible({ timeout: 20_000 });
  // Someone else saves a change to the last step meanwhile.
  await savePage(api, created, {
    html: paragraphs(...lines.slice(0, -1), 'Step 24: check the tray twice (instructor).'),
  });
  await editor.locator('p', { hasText: 'Step 24:' }).click({ clickCount: 3 });
  await page.keyboard.insertText('Step 24: check the tray once (admin).');
  const save = page.getByRole('button', { name: 'Save', exact: true });
  await save.scrollIntoViewIfNeeded();
  expect(await scrollY(page)).toBeGreaterThan(500);
  await save.click();

  const notice = page.getByRole('alert').filter({
    hasText: 'Someone else saved this page while you were editing it.',
  });
  await expect(notice).toBeFocused();
  await expect(notice).toBeInViewport();
  await expectFitsPhone(page);

  await notice.getByRole('button', { name: 'Go to the first conflict' }).click();
  const conflict = page.getByRole('region', { name: 'Conflict 1 of 1' });
  await expect(conflict).toBeFocused();
  await expect(conflict).toBeInViewport();
  await expectFitsPhone(page);
});
