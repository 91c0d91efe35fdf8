/**
 * The XSS corpus in the browser (server/src/platform/rich-text/xss-corpus.ts): what the API stores of it,
 * traps for every way a payload would show it ran, and the check that rendered text holds no live
 * markup. Shared by the classroom's and the wiki's XSS tests.
 */
import { expect, type Locator, type Page } from '@playwright/test';
import { XSS_CORPUS } from '../../server/src/platform/rich-text/xss-corpus';

export { XSS_CORPUS };

// A control character (the NUL of 'java\u0000script:') is refused at the door (400): the API
// never stores such a payload, which the tests check; the rest are stored.
// eslint-disable-next-line no-control-regex
export const REFUSED = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/;
export const STORABLE = XSS_CORPUS.filter((payload) => !REFUSED.test(payload));
// Closes whatever a payload left open that would swallow the payloads after it (an unclosed
// <style> inside <math>, say), so each one reaches the page on its own terms.
const CLOSERS = '</style></textarea></noscript></xmp></template></select></table></math></svg>';

/**
 * Every storable payload, each followed by a marker paragraph (`<field>-marker-<i>`), so a payload
 * that swallowed the rest of the document would show as missing markers.
 */
export const corpusHtml = (field: string) =>
  STORABLE.map((payload, i) => `${payload}${CLOSERS}<p>${field}-marker-${i}</p>`).join('');

/**
 * Traps every way the corpus would show it ran: a dialog, alert/confirm/prompt/print (counted in
 * window.__xss), a request to the payloads' hosts. Returns the list of what happened.
 */
export async function trap(page: Page): Promise<string[]> {
  const ran: string[] = [];
  page.on('dialog', (dialog) => {
    ran.push(`dialog ${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  page.on('request', (request) => {
    if (/xss\.example|evil\.example|^javascript:/i.test(request.url())) {
      ran.push(`request ${request.url()}`);
    }
  });
  await page.addInitScript(() => {
    const w = window as unknown as Record<string, unknown> & { __xss: number };
    w.__xss = 0;
    for (const name of ['alert', 'confirm', 'prompt', 'print']) {
      w[name] = () => {
        w.__xss += 1;
        return null;
      };
    }
  });
  return ran;
}

/** Tags that must never come out of stored rich text. */
const RICH_TEXT_BANNED = ['script', 'iframe', 'object', 'embed', 'style', 'base', 'meta', 'form'];
/**
 * Tags that plain text (a title, a summary) must never become. The app's own markup around it
 * has forms and Mantine's style elements, so those are not looked for there.
 */
const PLAIN_TEXT_BANNED = ['script', 'iframe', 'object', 'embed', 'base', 'meta'];

/** Elements of `scope` (and their descendants) with a banned tag, an on* handler or a script URL. */
async function liveMarkup(scope: Locator, banned: string[]): Promise<string[]> {
  return scope.evaluateAll((nodes, tags) => {
    const bad: string[] = [];
    for (const root of nodes) {
      for (const el of [root, ...Array.from(root.querySelectorAll('*'))]) {
        const tag = el.tagName.toLowerCase();
        if (tags.includes(tag)) bad.push(`<${tag}>`);
        for (const attr of Array.from(el.attributes)) {
          if (/^on/i.test(attr.name)) bad.push(`${tag}[${attr.name}]`);
          // Browsers ignore whitespace and control characters inside a URL's scheme.
          const squeezed = [...attr.value].filter((c) => c.charCodeAt(0) > 32).join('');
          if (/^(javascript|vbscript|data):/i.test(squeezed)) {
            bad.push(`${tag}[${attr.name}=${attr.value}]`);
          }
        }
      }
    }
    return bad;
  }, banned);
}

/**
 * Nothing ran: no trapped call, dialog or request, after handlers had their chance (unless the
 * page already had it: `settled`, for a second check of the same page).
 */
async function expectNothingRan(page: Page, ran: string[], settled = false): Promise<void> {
  // Give handlers that fire on load or after a tick (onerror, onload, ontoggle) their chance.
  if (!settled) await page.waitForTimeout(300);
  expect(await page.evaluate(() => (window as unknown as { __xss: number }).__xss)).toBe(0);
  expect(ran).toEqual([]);
}

/** Nothing ran, and the rendered rich text holds no script, no on* handler, no script URL. */
export async function expectInert(
  page: Page,
  ran: string[],
  containers: string,
  markers: string[],
): Promise<void> {
  const scope = page.locator(containers);
  await expect(scope.first()).toBeVisible();
  for (const marker of markers) {
    await expect(scope.getByText(marker, { exact: true }).first()).toBeVisible();
  }
  expect(await liveMarkup(scope, RICH_TEXT_BANNED)).toEqual([]);
  await expectNothingRan(page, ran);
}

/**
 * Payloads stored as plain text (titles, summaries) show as their own characters inside
 * `container`, which holds no element they could have become; nothing ran. `settled`: the page
 * was already given its time for handlers to fire (by an `expectInert` just before).
 */
export async function expectShownAsText(
  page: Page,
  ran: string[],
  container: string,
  texts: string[],
  { settled = false }: { settled?: boolean } = {},
): Promise<void> {
  const scope = page.locator(container);
  await expect(scope.first()).toBeVisible();
  for (const text of texts) {
    await expect(scope.getByText(text).first()).toBeAttached();
  }
  expect(await liveMarkup(scope, PLAIN_TEXT_BANNED)).toEqual([]);
  await expectNothingRan(page, ran, settled);
}
