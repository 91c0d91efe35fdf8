import { describe, expect, it } from 'vitest';
import { findWikiPlaceholders, findWikiTemplate, WIKI_TEMPLATE_IDS, WIKI_TEMPLATES } from '.';

describe('wiki templates', () => {
  it('offers each id once, in order, and finds them by id', () => {
    expect(WIKI_TEMPLATES.map((t) => t.id)).toEqual([...WIKI_TEMPLATE_IDS]);
    expect(findWikiTemplate('checklist')?.name).toBe('Checklist');
    expect(findWikiTemplate('nope')).toBeUndefined();
  });

  it('uses only what the editor and the sanitiser keep (h2–h4, callout kinds, task items)', () => {
    for (const { id, html } of WIKI_TEMPLATES) {
      expect(html, id).not.toMatch(/<h[156][\s>]/);
      for (const [, kind] of html.matchAll(/data-callout="([^"]*)"/g)) {
        expect(['info', 'tip', 'warning', 'danger'], id).toContain(kind);
      }
      for (const [, checked] of html.matchAll(/data-checked="([^"]*)"/g)) {
        expect(['true', 'false'], id).toContain(checked);
      }
      expect(html, id).not.toMatch(/<(input|label|script|style|h1)\b/);
    }
  });

  it("finds every template's placeholders, once each, in order", () => {
    for (const { id, html } of WIKI_TEMPLATES) {
      // Every "[" of a template opens a placeholder, and none repeats.
      const opened = html.split('[').length - 1;
      expect(findWikiPlaceholders(html), id).toHaveLength(opened);
    }
    const procedure = findWikiTemplate('procedure')!.html;
    expect(findWikiPlaceholders(procedure)).toContain('[Fusion splicer, calibrated this year]');
    // The safety note's placeholder sits after a bold label in the same paragraph.
    expect(findWikiPlaceholders(procedure)[0]).toMatch(/^\[Never look into a fibre/);
  });

  it('finds what is left after filling some in; reference marks and code are not placeholders', () => {
    const html =
      '<h2>Tools</h2><ul><li><p>Fusion splicer</p></li><li><p>[Precision cleaver]</p></li></ul>' +
      '<p>[Precision cleaver] again, [Splice &amp; sleeve]; a source [1], [sic], <code>a[i]</code>, ' +
      '[x], [Ok]</p><p>[Across <strong>bold</strong> text]</p>';
    expect(findWikiPlaceholders(html)).toEqual([
      '[Precision cleaver]',
      '[Splice & sleeve]',
      '[Across bold text]',
    ]);
    expect(findWikiPlaceholders('<p>Filled in.</p>')).toEqual([]);
    expect(findWikiPlaceholders('')).toEqual([]);
  });
});
