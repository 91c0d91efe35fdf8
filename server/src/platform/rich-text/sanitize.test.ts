import fc from 'fast-check';
import { Parser } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { XSS_CORPUS } from './xss-corpus';
import { isBlankRichText, richTextToPlainText, sanitizeRichText } from './sanitize';

/** Elements that must never survive sanitising. */
const FORBIDDEN_TAGS = new Set([
  'script',
  'style',
  'iframe',
  'object',
  'embed',
  'form',
  'input',
  'button',
  'textarea',
  'select',
  'svg',
  'math',
  'base',
  'meta',
  'link',
  'frame',
  'frameset',
  'template',
  'details',
  'marquee',
  'isindex',
  'body',
  'html',
  'head',
  'noscript',
  'xmp',
]);

/**
 * Parses the output as a browser would (htmlparser2 decodes entities in attribute values) and
 * checks every element: no forbidden element, no event handler, style, srcset or form action, and
 * no link or media URL that runs script or leaves the site's own storage.
 */
function expectHarmless(html: string) {
  const parser = new Parser({
    onopentag(name, attributes) {
      expect(FORBIDDEN_TAGS.has(name), `<${name}> in ${html}`).toBe(false);
      for (const [attribute, raw] of Object.entries(attributes)) {
        expect(attribute, `${attribute} on <${name}> in ${html}`).not.toMatch(
          /^(on|style$|srcset$|action$|formaction$|background$)/,
        );
        // Browsers ignore control characters and spaces in a URL's scheme.
        // eslint-disable-next-line no-control-regex -- control characters are what is stripped
        const value = raw.replace(/[\u0000-\u0020]/g, '').toLowerCase();
        if (['href', 'src', 'poster'].includes(attribute)) {
          expect(value, `${attribute}="${raw}" in ${html}`).not.toMatch(
            /^(javascript|vbscript|data|file):|^\/\//,
          );
        }
        if (attribute === 'src' || attribute === 'poster') {
          expect(value, `${attribute}="${raw}" in ${html}`).toMatch(/^\/api\/files\//);
        }
      }
    },
  });
  parser.write(html);
  parser.end();
}

describe('sanitizeRichText', () => {
  it('keeps what the editor produces', () => {
    const html =
      '<h2>Splicing</h2><p>Clean the <strong>fibre</strong> with <em>99%</em> <u>IPA</u>, ' +
      '<s>water</s>, <code>cleave</code> at <mark>10 mm</mark>.</p>' +
      '<ul><li><p>one</p></li></ul><ol start="3"><li><p>three</p></li></ol>' +
      '<blockquote><p>quote</p></blockquote><pre><code class="language-bash">ls</code></pre>' +
      '<table><tbody><tr><th colspan="2">Loss</th></tr><tr><td>0.1 dB</td><td rowspan="1">ok</td></tr></tbody></table>' +
      '<p><a href="/classroom">Courses</a> <a href="mailto:trainer@example.com">mail</a></p>' +
      '<img src="/api/files/abc_123" alt="OTDR trace"><hr>' +
      '<video src="/api/files/vid-9" controls></video>';
    // Void elements come back in their XHTML spelling; everything else exactly as sent.
    expect(sanitizeRichText(html)).toBe(
      html.replace('alt="OTDR trace"><hr>', 'alt="OTDR trace" /><hr />'),
    );
  });

  it('keeps the wiki’s checklists and callouts, with known values only', () => {
    const checklist =
      '<ul data-type="taskList"><li data-type="taskItem" data-checked="true"><p>Gas test</p></li>' +
      '<li data-type="taskItem" data-checked="false"><p>Barrier up</p></li></ul>';
    const callout = '<div data-callout="warning"><p>Never look into a live fibre.</p></div>';
    expect(sanitizeRichText(checklist + callout)).toBe(checklist + callout);
    for (const kind of ['info', 'tip', 'danger']) {
      expect(sanitizeRichText(`<div data-callout="${kind}"><p>x</p></div>`)).toBe(
        `<div data-callout="${kind}"><p>x</p></div>`,
      );
    }
    // What Tiptap renders: the checkbox in a label, the text in a div. Only the item stays.
    expect(
      sanitizeRichText(
        '<ul data-type="taskList"><li data-checked="true" data-type="taskItem"><label>' +
          '<input type="checkbox" checked="checked"><span></span></label><div><p>Gas test</p></div></li></ul>',
      ),
    ).toBe(
      '<ul data-type="taskList"><li data-type="taskItem" data-checked="true"><p>Gas test</p></li></ul>',
    );
    // Other values lose the attribute; a div that is no callout is unwrapped.
    expect(
      sanitizeRichText(
        '<ul data-type="bullets"><li data-type="x" data-checked="maybe">a</li></ul>' +
          '<div data-callout="x&quot; onclick=alert(1)"><p>b</p></div><div class="c"><p>d</p></div>' +
          '<ol data-type="taskList"><li>e</li></ol><p data-callout="info">f</p>',
      ),
    ).toBe('<ul><li>a</li></ul><p>b</p><p>d</p><ol><li>e</li></ol><p>f</p>');
    // The label's text stays; the input goes whatever it carries.
    expect(
      sanitizeRichText('<p><label>Done <input type="checkbox" onfocus="alert(1)"></label></p>'),
    ).toBe('<p>Done </p>');
    // A span with text (or media) is kept.
    expect(sanitizeRichText('<p><span>x</span><span><img src="/api/files/f1"></span></p>')).toBe(
      '<p><span>x</span><span><img src="/api/files/f1" /></span></p>',
    );
  });

  it('opens links to other sites in a new tab without the opener', () => {
    expect(sanitizeRichText('<a href="https://example.com/x" target="_self">x</a>')).toBe(
      '<a href="https://example.com/x" target="_blank" rel="noopener noreferrer nofollow">x</a>',
    );
    expect(sanitizeRichText('<a href="/wiki" target="_top" rel="opener">w</a>')).toBe(
      '<a href="/wiki">w</a>',
    );
  });

  it('takes images and media only from the app’s own file storage', () => {
    expect(sanitizeRichText('<p>a<img src="https://evil.example/t.png">b</p>')).toBe('<p>ab</p>');
    expect(sanitizeRichText('<img src="data:image/png;base64,AAAA">')).toBe('');
    expect(sanitizeRichText('<img src="/api/files/../../etc/passwd">')).toBe('');
    expect(sanitizeRichText('<video src="https://evil.example/v.mp4" poster="x"></video>')).toBe(
      '<video></video>',
    );
    expect(sanitizeRichText('<img src="/api/files/f1/thumbnail" alt="t">')).toBe(
      '<img src="/api/files/f1/thumbnail" alt="t" />',
    );
  });

  it('keeps no text inside a player, where the browser would hide it', () => {
    // An unclosed <audio> would otherwise take the rest of the document.
    expect(sanitizeRichText('<audio src=x onerror=alert(1)><p>a</p><p>b</p>')).toBe(
      '<p>a</p><p>b</p>',
    );
    expect(sanitizeRichText('<video src="/api/files/v1" controls><p>a</p></video><p>b</p>')).toBe(
      '<p>a</p><p>b</p>',
    );
    expect(sanitizeRichText('<p>x</p><video><img src="/api/files/i1"></video>')).toBe(
      '<p>x</p><img src="/api/files/i1" />',
    );
    expect(
      sanitizeRichText('<video src="/api/files/v1" controls><source src="/api/files/v2"></video>'),
    ).toBe('<video src="/api/files/v1" controls><source src="/api/files/v2"></source></video>');
  });

  it('stores an edited document without the signatures it was served with', () => {
    const signed = '/api/files/f1?exp=7200000&amp;sid=s1&amp;sig=abc';
    expect(
      sanitizeRichText(
        `<p><img src="${signed}"><a href="${signed}">f</a></p><video src="${signed}"></video>`,
      ),
    ).toBe(
      '<p><img src="/api/files/f1" /><a href="/api/files/f1">f</a></p><video src="/api/files/f1"></video>',
    );
    expect(sanitizeRichText('<img src="/api/files/f1#x">')).toBe('');
    expect(sanitizeRichText('<img src="/api/files/f1/other?x=1">')).toBe('');
  });

  it.each(XSS_CORPUS.map((payload, i) => [i, payload] as const))(
    'leaves nothing that runs of XSS payload %i',
    (_i, payload) => {
      const clean = sanitizeRichText(payload);
      expectHarmless(clean);
      expectHarmless(sanitizeRichText(`<p>${payload}</p>`));
    },
  );

  it('is stable when sanitised again, and never lets anything dangerous through, on any input', () => {
    const piece = fc.oneof(
      fc.constantFrom(...XSS_CORPUS),
      fc.constantFrom(
        '<p>',
        '</p>',
        '<a href="',
        '">',
        '<img src=',
        '/api/files/x',
        '"',
        "'",
        '<',
        '>',
        '&',
        'javascript:',
        ' onload=',
        '<!--',
        '-->',
        '<![CDATA[',
        '\u0000',
        'é',
        '<div data-callout="tip">',
        '<div>',
        '</div>',
        '<ul data-type="taskList"><li data-type="taskItem" data-checked="true">',
        '<span>',
        '</span>',
        '<label><input type="checkbox">',
      ),
      fc.string({ maxLength: 12 }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const once = sanitizeRichText(pieces.join(''));
        expectHarmless(once);
        // A second pass may only repair nesting the browser repairs the same way (a table inside
        // a paragraph ends the paragraph); from then on the text is stable.
        const twice = sanitizeRichText(once);
        expectHarmless(twice);
        expect(sanitizeRichText(twice)).toBe(twice);
      }),
      { numRuns: 400 },
    );
  });

  it('reduces what shows nothing to the empty string', () => {
    expect(sanitizeRichText('<p></p><p>&nbsp; </p><br>')).toBe('');
    expect(sanitizeRichText('<script>alert(1)</script>')).toBe('');
    expect(isBlankRichText('<p><img src="/api/files/a"></p>')).toBe(false);
    expect(isBlankRichText('<p> </p>')).toBe(true);
  });
});

describe('richTextToPlainText', () => {
  it('gives the text with paragraph breaks, entities decoded once', () => {
    expect(
      richTextToPlainText('<h2>Title</h2><p>a &amp;lt; b &amp; c</p><ul><li>x</li><li>y</li></ul>'),
    ).toBe('Title\na &lt; b & c\nx\ny');
  });
});
