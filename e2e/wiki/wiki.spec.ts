import { WikiPageUpdateSchema, type WikiPage } from '@learning-hub/core';
import { expect, test, type Locator, type Page } from '@playwright/test';
import {
  expectFitsPhone,
  expectNoSeriousA11yViolations,
  PHONE_WIDTH,
  signInAsRole,
} from '../support/fixtures';
import { navigateInApp } from '../support/ui';
import {
  corpusHtml,
  expectInert,
  expectShownAsText,
  STORABLE,
  trap,
  XSS_CORPUS,
} from '../support/xss';
import {
  createPage,
  paragraphs,
  savePage,
  uniqueTitle,
  uniqueWord,
  wikiApi,
} from './wiki-fixtures';

/**
 * The wiki in Chromium (docs/wiki.md, "The web app"): what only a browser shows — the Page
 * creator and the editor, history and diffs, two people saving one page at once, links to pages
 * not written yet, the header's search, the XSS corpus, a phone's width — with every page and
 * dialog scanned by axe (which also lays it out at 375 px). Rules and refusals are the server's
 * tests'; what a page shows per answer is the component tests'. Each test makes its own pages
 * through the API, with titles no other test uses.
 */

/** The editor's editable area. */
const pageText = (page: Page) => page.getByRole('textbox', { name: 'Page text' });

/**
 * Replaces the text of the paragraph of `editor` that contains `old` (ProseMirror selects a
 * paragraph's text on a triple click).
 */
async function replaceParagraph(editor: Locator, old: string, text: string): Promise<void> {
  await editor.locator('p', { hasText: old }).click({ clickCount: 3 });
  await editor.page().keyboard.insertText(text);
  await expect(editor.locator('p', { hasText: text })).toBeVisible();
}

/** Edit → change paragraphs → summary → Save, back on the page at `revision`. */
async function editAndSave(
  page: Page,
  changes: [old: string, text: string][],
  summary: string,
  revision: number,
  beforeSave?: () => Promise<void>,
): Promise<void> {
  await page.getByRole('link', { name: 'Edit' }).click();
  const editor = pageText(page);
  await expect(editor).toBeVisible();
  for (const [old, text] of changes) await replaceParagraph(editor, old, text);
  await page.getByRole('textbox', { name: 'Summary of your changes' }).fill(summary);
  await beforeSave?.();
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  // The template's other placeholders are still there: the editor asks once more.
  await page
    .getByRole('dialog', { name: 'Placeholders left in the text' })
    .getByRole('button', { name: 'Save anyway' })
    .click();
  await expect(page).toHaveURL(/\/wiki\/pages\/[^/]+$/);
  await expect(page.getByText(new RegExp(`· revision ${revision} ·`))).toBeVisible();
}

test('wiki: a Procedure page from the creator, edited twice, compared, and revision 1 restored', async ({
  page,
}) => {
  test.slow();
  const title = uniqueTitle('Splicing procedure');
  const purposeWord = uniqueWord('purpose');
  const recordsWord = uniqueWord('records');
  const purpose = `Splice the feeder cable ${purposeWord} before noon.`;
  const records = `Record the ${recordsWord} losses in the closure log.`;
  const templatePurpose = 'What this procedure achieves';
  const templateRecords = 'What to record, and where.';
  await signInAsRole(page, 'instructor');
  await page.goto('/wiki/create');

  await page.getByRole('radio', { name: /^Procedure/ }).click();
  await expect(pageText(page).getByRole('heading', { name: 'Purpose' })).toBeVisible();
  await page.getByRole('textbox', { name: 'Title' }).fill(title);
  await page.getByRole('combobox', { name: 'Space' }).click();
  await page.getByRole('option', { name: 'Company' }).click();
  await expect(page.getByRole('combobox', { name: 'Space' })).toHaveValue('Company');
  await expectNoSeriousA11yViolations(page);
  await page.getByRole('button', { name: 'Publish' }).click();
  // Published unchanged, the template's placeholders are named and asked about first.
  const ask = page.getByRole('dialog', { name: 'Placeholders left in the text' });
  await expect(ask.getByRole('listitem').first()).toContainText('[Never look into a fibre');
  await expectNoSeriousA11yViolations(page);
  await ask.getByRole('button', { name: 'Publish anyway' }).click();

  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(page).toHaveURL(/\/wiki\/pages\/[^/]+$/);
  const article = page.getByRole('article', { name: title });
  await expect(article.getByRole('heading', { name: 'Steps' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Contents' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  // Two saves through the editor (the first one scanned).
  await editAndSave(page, [[templatePurpose, purpose]], 'Purpose written', 2, () =>
    expectNoSeriousA11yViolations(page),
  );
  await expect(article.getByText(purpose)).toBeVisible();
  await editAndSave(page, [[templateRecords, records]], 'Records written', 3);
  await expect(article.getByText(records)).toBeVisible();

  // History: revisions 1 and 3 compared.
  await page.getByRole('link', { name: 'History' }).click();
  const revisions = page.getByRole('table', { name: 'Revisions' });
  await expect(revisions.getByRole('row')).toHaveCount(4);
  await expect(revisions.getByRole('row').nth(1)).toContainText(
    /Revision 3\s*Current\s*Records written/,
  );
  await expectNoSeriousA11yViolations(page);
  await page.getByRole('radio', { name: 'Compare from revision 1' }).check();
  await page.getByRole('radio', { name: 'Compare to revision 3' }).check();
  await page.getByRole('button', { name: 'Compare selected revisions' }).click();

  await expect(page).toHaveURL(/\/diff\?from=1&to=3$/);
  const sideBySide = page.getByRole('table', { name: 'Changes side by side' });
  await expect(sideBySide.getByRole('columnheader')).toHaveText(['Revision 1', 'Revision 3']);
  await expect(sideBySide.locator('ins', { hasText: purposeWord })).toBeVisible();
  await expect(sideBySide.locator('ins', { hasText: recordsWord })).toBeVisible();
  await expect(sideBySide.locator('del', { hasText: 'achieves' })).toBeVisible();
  await expect(sideBySide.locator('del', { hasText: 'where' })).toBeVisible();
  await expect(page.getByText(/^\d+ words? added, \d+ words? deleted\.$/)).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  await page.getByText('Inline', { exact: true }).click();
  await expect(page).toHaveURL(/\/diff\?from=1&to=3&mode=inline$/);
  const inline = page.getByRole('region', { name: 'Changes inline' });
  await expect(inline.locator('ins', { hasText: purposeWord })).toBeVisible();
  await expect(inline.locator('del', { hasText: 'achieves' })).toBeVisible();
  await expect(sideBySide).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);

  // Revision 1, restored: revision 4 with revision 1's text.
  await page.getByRole('link', { name: 'Revision 1', exact: true }).click();
  await expect(page.getByText('You are reading revision 1 of 3.')).toBeVisible();
  await expect(page.getByText(templatePurpose)).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await page.getByRole('button', { name: 'Restore this revision' }).click();
  await expect(page.getByText(/· revision 4 ·/)).toBeVisible();
  await expect(page.getByText('Revision 1 was restored as revision 4.')).toBeVisible();
  await expect(article.getByText(templatePurpose)).toBeVisible();
  await expect(article.getByText(templateRecords)).toBeVisible();
  await expect(article.getByText(purpose)).toHaveCount(0);
  await expect(article.getByText(records)).toHaveCount(0);
});

test('wiki: two people save one page at once; the second merges, settling each conflict', async ({
  page,
  browser,
  request,
}) => {
  test.slow();
  const base = [
    'Alpha: clean the tray.',
    'Bravo: strip the jacket.',
    'Charlie: stays as it is.',
    'Delta: cleave the fibre.',
    'Echo: stays as it is.',
    'Foxtrot: fuse the splice.',
    'Golf: stays as it is.',
    'Hotel: sleeve the splice.',
    'India: stays as it is.',
  ];
  const api = await wikiApi(request, 'instructor');
  const created = await createPage(api, {
    title: uniqueTitle('Splice closure steps'),
    html: paragraphs(...base),
  });
  const editor = `/wiki/pages/${created.id}/edit`;

  // The instructor and the admin open the editor of the same revision.
  await signInAsRole(page, 'instructor');
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await signInAsRole(admin, 'admin');
  await Promise.all([page.goto(editor), admin.goto(editor)]);
  await Promise.all([expect(pageText(page)).toBeVisible(), expect(pageText(admin)).toBeVisible()]);

  // The instructor changes Alpha and the three paragraphs both change, and saves first.
  const theirs: [string, string][] = [
    ['Alpha', 'Alpha: clean the tray twice.'],
    ['Delta', 'Delta: cleave at 12 mm (instructor).'],
    ['Foxtrot', 'Foxtrot: fuse with the arc check (instructor).'],
    ['Hotel', 'Hotel: sleeve and heat (instructor).'],
  ];
  for (const [old, text] of theirs) await replaceParagraph(pageText(page), old, text);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText(/· revision 2 ·/)).toBeVisible();

  // The admin changes Bravo (next to Alpha, no overlap) and the same three, and saves second.
  const mine: [string, string][] = [
    ['Bravo', 'Bravo: strip 40 mm of jacket.'],
    ['Delta', 'Delta: cleave at 10 mm (admin).'],
    ['Foxtrot', 'Foxtrot: fuse twice (admin).'],
    ['Hotel', 'Hotel: sleeve only (admin).'],
  ];
  for (const [old, text] of mine) await replaceParagraph(pageText(admin), old, text);
  await admin.getByRole('textbox', { name: 'Summary of your changes' }).fill('Lengths added');
  await admin.getByRole('button', { name: 'Save', exact: true }).click();

  const notice = admin.getByRole('alert').filter({
    hasText: 'Someone else saved this page while you were editing it.',
  });
  await expect(notice).toBeVisible();
  await expect(notice).toContainText('They saved revision 2 by Priya Shah');
  const versions = admin.getByRole('region', { name: 'Both versions' });
  await expect(versions.getByText('Their version (revision 2)')).toBeVisible();
  await expect(versions.getByText('Your version', { exact: true })).toBeVisible();
  await expect(versions.getByText('Delta: cleave at 12 mm (instructor).')).toBeVisible();
  await expect(versions.getByText('Delta: cleave at 10 mm (admin).')).toBeVisible();
  const merged = admin.getByRole('region', { name: 'Merged version' });
  await expect(merged.getByText('3 conflicts left to settle.')).toBeVisible();
  // The edits that do not overlap are merged already.
  await expect(merged.getByText('Alpha: clean the tray twice.')).toBeVisible();
  await expect(merged.getByText('Bravo: strip 40 mm of jacket.')).toBeVisible();
  const saveMerged = merged.getByRole('button', { name: 'Save merged version' });
  await expect(saveMerged).toBeDisabled();
  await expectNoSeriousA11yViolations(admin);

  const settle = async (n: number, choice: string, yours: string, theirsText: string) => {
    const conflict = merged.getByRole('region', { name: `Conflict ${n} of 3` });
    await expect(conflict.getByText(yours)).toBeVisible();
    await expect(conflict.getByText(theirsText)).toBeVisible();
    await conflict.getByRole('radio', { name: choice }).check();
  };
  await settle(1, 'Keep mine', mine[1]![1], theirs[1]![1]);
  await settle(2, 'Keep theirs', mine[2]![1], theirs[2]![1]);
  await settle(3, 'Keep both', mine[3]![1], theirs[3]![1]);
  await expect(merged.getByText('Every conflict is settled.')).toBeVisible();
  await saveMerged.click();

  await expect(admin.getByText(/· revision 3 ·/)).toBeVisible();
  await expect(admin.getByRole('article').locator('p')).toHaveText([
    'Alpha: clean the tray twice.',
    'Bravo: strip 40 mm of jacket.',
    'Charlie: stays as it is.',
    'Delta: cleave at 10 mm (admin).',
    'Echo: stays as it is.',
    'Foxtrot: fuse with the arc check (instructor).',
    'Golf: stays as it is.',
    'Hotel: sleeve and heat (instructor).',
    'Hotel: sleeve only (admin).',
    'India: stays as it is.',
  ]);
  await adminContext.close();
});

test('wiki: the header search finds a new page at once; its link to a missing page offers to create it', async ({
  page,
  request,
}) => {
  const word = uniqueWord('tray');
  const missing = uniqueTitle('Splice loss budget');
  const title = uniqueTitle('Tray layout');
  const href = `/wiki/go?space=company&title=${encodeURIComponent(missing)}`;
  await createPage(await wikiApi(request, 'instructor'), {
    title,
    html: `<p>The ${word} tray holds twelve splices; see <a href="${href}">${missing}</a>.</p>`,
  });
  await signInAsRole(page, 'instructor');
  await page.goto('/wiki');
  await expect(page.getByRole('heading', { level: 1, name: 'Wiki' })).toBeVisible();

  // Indexed in the save's transaction: found on the first try, no waiting for a job.
  await page.keyboard.press('Control+k');
  const spotlight = page.getByRole('dialog');
  await spotlight.getByRole('textbox').fill(word);
  const result = spotlight.getByRole('button', { name: new RegExp(`^Wiki ${title}`) });
  await expect(result).toBeVisible();
  await result.click();
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();

  const link = page.getByRole('article').locator('a', { hasText: missing });
  await expect(link).toHaveClass(/\bwiki-link-missing\b/);
  await link.click();
  await expect(page).toHaveURL(href);
  await expect(page.getByRole('heading', { level: 1, name: missing })).toBeVisible();
  await expect(page.getByText(`“${missing}” does not exist yet.`)).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await page.getByRole('link', { name: 'Create this page' }).click();
  await expect(page).toHaveURL(/\/wiki\/create\?/);
  await expect(page.getByRole('textbox', { name: 'Title' })).toHaveValue(missing);
  await expect(page.getByRole('combobox', { name: 'Space' })).toHaveValue('Company');
});

test('wiki: the XSS corpus in a page body, page titles and revision summaries runs nowhere', async ({
  page,
  request,
}) => {
  test.slow();
  const api = await wikiApi(request, 'instructor');
  // A course of its own: its space holds this test's hostile titles and nobody else's pages.
  const code = uniqueWord('XSS').slice(-40);
  const course = await api.post<{ id: string }>('/api/courses', {
    code,
    title: `Hostile wiki ${code}`,
    summaryHtml: '<p>Set up by the browser tests.</p>',
  });
  const space = `course:${course.id}`;
  const word = uniqueWord('hostile');

  // Titles and summaries the contract refuses (control characters; [ ] | # / \ in a title) are
  // refused at the door.
  const titleOk = (t: string) => WikiPageUpdateSchema.shape.title.safeParse(t).success;
  const summaryOk = (s: string) => WikiPageUpdateSchema.shape.summary.safeParse(s).success;
  const refusedTitles = XSS_CORPUS.filter((p) => !titleOk(p));
  const refusedSummaries = XSS_CORPUS.filter((p) => !summaryOk(p));
  expect(refusedTitles.length).toBeGreaterThan(0);
  expect(refusedSummaries.length).toBeGreaterThan(0);
  const refusals = await Promise.all(
    refusedTitles.map((title) =>
      api.request.post('/api/wiki/pages', {
        headers: { authorization: `Bearer ${api.token}` },
        data: { space, title, html: '<p>x</p>' },
      }),
    ),
  );
  expect(refusals.map((r) => r.status())).toEqual(refusedTitles.map(() => 400));

  // Revision 1: the corpus as the body; then a save that changes the title to a payload, and
  // saves that carry every storable summary (packed into as few as fit).
  const titles = XSS_CORPUS.filter(titleOk);
  const summaries: string[] = [];
  for (const payload of XSS_CORPUS.filter(summaryOk)) {
    const last = summaries.length - 1;
    const joined = last >= 0 ? `${summaries[last]} ¦ ${payload}` : payload;
    if (last >= 0 && summaryOk(joined)) summaries[last] = joined;
    else summaries.push(payload);
  }
  // All on the history's first page (25 revisions).
  expect(summaries.length).toBeLessThan(25);
  const hostileTitle = `${titles[0]!} ${word}`;
  let hostile: WikiPage = await createPage(api, {
    space,
    title: `Hostile page ${word}`,
    html: corpusHtml('body'),
    summary: summaries[0]!,
  });
  const firstRevision = hostile;
  for (const [i, summary] of summaries.slice(1).entries()) {
    hostile = await savePage(api, hostile, {
      ...(i === 0 ? { title: hostileTitle, html: `<p>top-marker</p>${corpusHtml('body')}` } : {}),
      summary,
    });
  }
  for (const payload of refusedSummaries) {
    const response = await api.request.put(`/api/wiki/pages/${hostile.id}`, {
      headers: { authorization: `Bearer ${api.token}` },
      data: { baseRevision: hostile.revision, title: hostile.title, html: '', summary: payload },
    });
    expect(response.status(), payload).toBe(400);
  }
  // Every storable title, as a page under it (its list of pages and the space's tree).
  const childTitles = titles.map((t, i) => `${t} ${i}`);
  await Promise.all(
    childTitles.map((title) =>
      createPage(api, { space, title, parentId: hostile.id, html: '<p>Under it.</p>' }),
    ),
  );
  const markers = STORABLE.map((_, i) => `body-marker-${i}`);
  const some = [0, 15, 33, STORABLE.length - 1].map((i) => `body-marker-${i}`);

  const ran = await trap(page);
  await signInAsRole(page, 'instructor');
  await page.goto(`/wiki/pages/${hostile.id}`);
  await expect(page.getByRole('heading', { level: 1, name: hostileTitle })).toBeVisible();
  await expectInert(page, ran, 'article .rich-text-view', ['top-marker', ...markers]);
  await expectShownAsText(page, ran, 'main', [hostileTitle, ...childTitles], { settled: true });

  await page.getByRole('link', { name: 'History' }).click();
  await expect(page.getByRole('table', { name: 'Revisions' })).toBeVisible();
  await expectShownAsText(page, ran, 'main', summaries);

  await navigateInApp(page, `/wiki/pages/${hostile.id}/diff?from=1&to=${hostile.revision}`);
  const diff = page.getByRole('table', { name: 'Changes side by side' });
  await expect(diff.locator('ins', { hasText: 'top-marker' })).toBeVisible();
  await diff.getByRole('button', { name: /^Show \d+ unchanged blocks$/ }).click();
  await expectInert(page, ran, 'table.wiki-diff', markers);
  await expectShownAsText(page, ran, 'main', [firstRevision.title, hostileTitle], {
    settled: true,
  });

  await page.getByRole('link', { name: 'Revision 1', exact: true }).click();
  await expect(page.getByText(`You are reading revision 1 of ${hostile.revision}.`)).toBeVisible();
  await expectInert(page, ran, 'main .rich-text-view', markers);
  await expectShownAsText(page, ran, 'main', [summaries[0]!], { settled: true });

  await navigateInApp(page, `/wiki/pages/${hostile.id}/edit`);
  await expectInert(page, ran, '.rich-text-editor-content', ['top-marker', ...some]);

  // The trap counts: a script that does call alert is seen.
  await page.evaluate(() => window.alert('trap check'));
  expect(await page.evaluate(() => (window as unknown as { __xss: number }).__xss)).toBe(1);
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: PHONE_WIDTH, height: 740 } });

  test('wiki: a page, its history, a diff (inline) and the editor fit 375 px', async ({
    page,
    request,
  }) => {
    const api = await wikiApi(request, 'instructor');
    const long = `${uniqueWord('unbroken')}${'x'.repeat(80)}`;
    const row = (cells: string[]) =>
      `<tr>${cells.map((c) => `<td><p>${c}</p></td>`).join('')}</tr>`;
    const table = (cell: string) =>
      `<table><tbody>${row(['Tube', 'Fibre', 'Colour', 'Loss dB', 'Tray', 'Port', 'Notes'])}${row(['1', '1', 'blue', cell, 'A', '12', 'within the budget of the link'])}</tbody></table>`;
    const body = (loss: string, note: string) =>
      [
        '<h2>Layout</h2>',
        `<p>${long}</p>`,
        table(loss),
        '<h2>Commands</h2>',
        `<pre><code>otdr --wavelength 1550 --pulse 30ns --range 40km --average 60s --port ${long}</code></pre>`,
        '<ul data-type="taskList"><li data-type="taskItem" data-checked="true"><p>Trace saved</p></li></ul>',
        `<div data-callout="warning"><p>${note}</p></div>`,
      ].join('');
    const first = await createPage(api, {
      title: uniqueTitle('Tray records on a narrow screen'),
      html: body('0.05', 'Check the bend radius.'),
    });
    await savePage(api, first, { html: body('0.07', 'Check the bend radius twice.') });

    await signInAsRole(page, 'instructor');
    await page.goto(`/wiki/pages/${first.id}`);
    await expect(page.getByRole('heading', { level: 1, name: first.title })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Contents' })).toBeVisible();
    await expectFitsPhone(page);

    await page.getByRole('link', { name: 'History' }).click();
    // Cards on a phone, not a table cut off at the side.
    await expect(page.getByRole('list', { name: 'Revisions' }).getByRole('listitem')).toHaveCount(
      2,
    );
    await expectFitsPhone(page);

    await page.getByRole('button', { name: 'Compare selected revisions' }).click();
    await expect(page).toHaveURL(/\/diff\?from=1&to=2$/);
    await expect(page.getByText('Changes are shown inline on a narrow screen.')).toBeVisible();
    const inline = page.getByRole('region', { name: 'Changes inline' });
    await expect(inline.locator('ins', { hasText: 'twice' })).toBeVisible();
    await expect(page.getByRole('table', { name: 'Changes side by side' })).toHaveCount(0);
    await expectFitsPhone(page);

    await navigateInApp(page, `/wiki/pages/${first.id}/edit`);
    await expect(pageText(page).getByRole('heading', { name: 'Layout' })).toBeVisible();
    await expectFitsPhone(page);
  });
});

test('wiki: an admin scans the home, moves a page, puts it in the trash and restores it', async ({
  page,
  request,
}) => {
  test.slow();
  const title = uniqueTitle('Duct map');
  const created = await createPage(await wikiApi(request, 'admin'), {
    title,
    html: paragraphs('Which duct holds which cable.'),
  });
  await signInAsRole(page, 'admin');
  await page.goto('/wiki');
  const tree = page.getByRole('navigation', { name: 'Pages of Company' });
  await expect(tree.getByRole('link', { name: title })).toBeVisible();
  await expect(tree.getByRole('link', { name: 'Field procedures' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  await tree.getByRole('link', { name: title }).click();
  await expect(page).toHaveURL(`/wiki/pages/${created.id}`);
  await page.getByRole('button', { name: 'Move', exact: true }).click();
  const move = page.getByRole('dialog', { name: `Move “${title}”` });
  await expect(move.getByRole('combobox', { name: 'Place' })).toBeEnabled();
  await expectNoSeriousA11yViolations(page);
  await move.getByRole('button', { name: 'Cancel' }).click();
  await expect(move).toBeHidden();

  await page.getByRole('button', { name: 'Move to trash' }).click();
  const confirm = page.getByRole('dialog', { name: 'Move to trash' });
  await expect(confirm).toContainText(`Move “${title}” to the trash?`);
  await expectNoSeriousA11yViolations(page);
  await confirm.getByRole('button', { name: 'Move to trash' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Wiki' })).toBeVisible();
  await expect(tree.getByRole('link', { name: title })).toHaveCount(0);

  await page.getByRole('button', { name: 'Trash' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Wiki trash' })).toBeVisible();
  const row = page.getByRole('table', { name: 'Pages in the trash' }).getByRole('row', {
    name: new RegExp(title),
  });
  await expect(row).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await row.getByRole('button', { name: `Restore ${title}` }).click();
  await expect(row).toHaveCount(0);
});
