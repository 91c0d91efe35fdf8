import { describe, expect, it } from 'vitest';
import { findWikiTemplate, WIKI_TEMPLATE_IDS, WIKI_TEMPLATES } from '.';

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
});
