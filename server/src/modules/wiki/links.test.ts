import { describe, expect, it } from 'vitest';
import { linkTargetOf, pageLinks, servePage, slugOf, wikiTitleHref } from './links';
import { titleKey } from './title-key';

describe('titleKey', () => {
  it('folds case, compatibility forms and whitespace', () => {
    expect(titleKey('  Fibre\u00a0Colour   CODES ')).toBe('fibre colour codes');
    expect(titleKey('ＯＴＤＲ trace')).toBe('otdr trace');
    expect(titleKey('Splicing a 144-fibre cable')).toBe(titleKey('splicing a 144-FIBRE  cable'));
  });
});

describe('links between pages', () => {
  it('reads links by id and by title (entities and URL encoding undone), each target once', () => {
    const title = wikiTitleHref('department:field-operations', 'Fibre  Colour & Codes');
    const html =
      `<p><a href="/wiki/pages/p1">a</a> <a href="/wiki/pages/p1#steps">again</a> ` +
      `<a href="${title.replaceAll('&', '&amp;')}">b</a> <a href="https://example.com/wiki/pages/p2">c</a> ` +
      `<a href="/wiki/go?space=nowhere&amp;title=x">d</a> <a href="/wiki/go?space=company">e</a></p>`;
    expect(pageLinks(html)).toEqual([
      { kind: 'id', pageId: 'p1' },
      { kind: 'title', spaceKey: 'department:field-operations', titleKey: 'fibre colour & codes' },
    ]);
    expect(linkTargetOf('/wiki/go?space=company&title=%20%20')).toBeNull();
    expect(linkTargetOf('/wiki/pages/../x')).toBeNull();
  });

  it('marks missing links and gives headings unique ids when serving', () => {
    const html =
      '<h2>Safety first</h2><p><a href="/wiki/pages/gone">x</a> <a href="/wiki/pages/here">y</a> ' +
      '<a href="https://example.com" target="_blank" rel="noopener noreferrer nofollow">z</a></p>' +
      '<h3>Safety   <em>first</em></h3><h4>Épissure &amp; co</h4><h2>!!!</h2><p>text</p>';
    const served = servePage(html, (t) => t.kind === 'id' && t.pageId === 'gone');
    expect(served.html).toBe(
      '<h2 id="safety-first">Safety first</h2><p><a href="/wiki/pages/gone" class="wiki-link-missing">x</a> ' +
        '<a href="/wiki/pages/here">y</a> <a href="https://example.com" target="_blank" rel="noopener noreferrer nofollow">z</a></p>' +
        '<h3 id="safety-first-2">Safety   <em>first</em></h3><h4 id="epissure-co">Épissure &amp; co</h4>' +
        '<h2 id="section">!!!</h2><p>text</p>',
    );
    expect(served.headings).toEqual([
      { id: 'safety-first', level: 2, text: 'Safety first' },
      { id: 'safety-first-2', level: 3, text: 'Safety first' },
      { id: 'epissure-co', level: 4, text: 'Épissure & co' },
      { id: 'section', level: 2, text: '!!!' },
    ]);
    expect(servePage('<p>plain</p>', () => true)).toEqual({ html: '<p>plain</p>', headings: [] });
    expect(slugOf('a'.repeat(80))).toHaveLength(60);
  });
});
