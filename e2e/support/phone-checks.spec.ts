/**
 * The phone walk's own checks (`expectFitsPhone`, fixtures.ts) bite: each is shown a page that
 * breaks its rule, and one that keeps it. Static pages, no server needed.
 */
import { expect, test, type Page } from '@playwright/test';
import { expectFitsPhone } from './fixtures';

const HEADER =
  '<header class="mantine-AppShell-header" style="position:fixed;top:0;left:0;right:0;height:60px;background:#fff">Hub</header>';
const LONG = '<div style="height:3000px">long text</div>';

/** Where a page opens is checked once per opened page: this makes the next scan a new opening. */
const reopen = (page: Page) =>
  page.evaluate(() => delete (window as { __lhOpened?: unknown }).__lhOpened);

function list(form: 'table' | 'cards') {
  return form === 'table'
    ? `<div style="overflow-x:auto;max-width:100%"><table data-card-list="table" aria-label="Library items" style="min-width:760px"><tr><td>Title</td><td>Shared with</td></tr></table></div>`
    : `<ul data-card-list="cards" aria-label="Library items"><li>Title</li></ul>`;
}

test.describe('expectFitsPhone', () => {
  test('fails on a table wider than the screen in a list that has a card form', async ({
    page,
  }) => {
    await page.setContent(`<body style="margin:0">${list('table')}</body>`);
    await expect(expectFitsPhone(page)).rejects.toThrow(
      /a table 760px wide in a list with a card form \(Library items\)/,
    );
    await page.setContent(`<body style="margin:0">${list('cards')}</body>`);
    await expectFitsPhone(page);
    // A table without a card form may still scroll inside its own box.
    await page.setContent(
      `<body style="margin:0"><div style="overflow-x:auto"><table style="min-width:760px"><tr><td>x</td></tr></table></div></body>`,
    );
    await expectFitsPhone(page);
  });

  test('fails on a page scrolled away from its top with nothing focused', async ({ page }) => {
    await page.setContent(`<body style="margin:0">${HEADER}<h1>Title</h1>${LONG}</body>`);
    await page.evaluate(() => window.scrollTo(0, 814));
    await expect(expectFitsPhone(page)).rejects.toThrow(/scrolled to 814px with nothing focused/);
    await reopen(page);
    await page.evaluate(() => window.scrollTo(0, 0));
    await expectFitsPhone(page);
    // A later scan of the same page follows the spec's own scrolling: not checked again.
    await page.evaluate(() => window.scrollTo(0, 814));
    await expectFitsPhone(page);
  });

  test('fails on a page scrolled away from its focus target, or with it under the header', async ({
    page,
  }) => {
    await page.setContent(
      `<body style="margin:0">${HEADER}<div style="height:100px"></div><div id="explanation" tabindex="-1" style="height:40px">Someone else saved</div>${LONG}</body>`,
    );
    await page.evaluate(() => {
      document.getElementById('explanation')?.focus({ preventScroll: true });
      window.scrollTo(0, 1404);
    });
    await expect(expectFitsPhone(page)).rejects.toThrow(/the focused element .* is off the screen/);
    // Under the fixed header is off the screen too.
    await reopen(page);
    await page.evaluate(() => window.scrollTo(0, 80));
    await expect(expectFitsPhone(page)).rejects.toThrow(/is off the screen/);
    // Scrolled down to the focus target is where the reader should be.
    await reopen(page);
    await page.evaluate(() => window.scrollTo(0, 40));
    await expectFitsPhone(page);
  });
});
