/**
 * The one server-side sanitiser of rich text (lessons, assignment instructions, feedback, and the
 * library, wiki and announcements after them). The editor (web/src/components/rich-text-editor)
 * sends HTML; what is stored and served is that HTML reduced to an allow-list: the elements and
 * attributes the editor produces, links to http(s)/mailto only, and images and media only from
 * the app's own file storage (`/api/files/<id>`); the wiki's checklists and callouts keep their
 * `data-*` attributes with known values only. Anything else — scripts, event handlers, styles,
 * `javascript:` and `data:` URLs, forms, frames, SVG — is removed, never escaped into view.
 *
 * Sanitising again is safe and stable (a second pass only repairs nesting the way the browser
 * would, such as a table inside a paragraph; the tests check this), so stored HTML may be
 * sanitised again when the allow-list changes. How an area uses it:
 * docs/adding-an-area.md (Rich text).
 */
import sanitizeHtml from 'sanitize-html';

/** Where embedded images, video and audio may come from: the app's own file downloads. */
const STORED_FILE = /^(\/api\/files\/[A-Za-z0-9_-]{1,64}(?:\/thumbnail)?)(?:\?[^#]*)?$/;

/**
 * The stored-file path a URL names, without its query: what the server served was signed for one
 * viewer (storage/signed-urls.ts), and an editor saving it back must not store that signature.
 * Null for anything that is not one of the app's own files.
 */
export function storedFilePath(url: string | undefined): string | null {
  return url ? (STORED_FILE.exec(url.trim())?.[1] ?? null) : null;
}

/** A stored-file reference inside sanitised HTML: `/api/files/<id>` or its `/thumbnail`. */
const FILE_REFERENCE = /\/api\/files\/([A-Za-z0-9_-]{1,64})(?:\/thumbnail)?(?=["'\s>?#]|$)/g;

/** The ids of the stored files sanitised HTML refers to (images, video, links), each once. */
export function referencedFileIds(html: string): string[] {
  return [...new Set([...html.matchAll(FILE_REFERENCE)].map((m) => m[1] as string))];
}

/**
 * Rewrites every stored-file reference of sanitised HTML: `replace` gets the path (with
 * `/thumbnail` when it has one) and the file id, and returns the new text (signing it for a
 * viewer, pointing it at a copy).
 */
export function mapFileReferences(
  html: string,
  replace: (path: string, fileId: string) => string,
): string {
  return html.replace(FILE_REFERENCE, (path, id: string) => replace(path, id));
}

const HEADINGS = ['h2', 'h3', 'h4'];
const TEXT = ['p', 'br', 'hr', 'blockquote', 'pre', 'code', 'strong', 'b', 'em', 'i', 'u', 's'];
const MARKS = ['mark', 'sub', 'sup', 'span'];
const LISTS = ['ul', 'ol', 'li'];
const TABLES = ['table', 'colgroup', 'col', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td'];
const MEDIA = ['img', 'video', 'audio', 'source', 'figure', 'figcaption'];
/** The wiki's callouts (`<div data-callout="…">`); a div without one of these is unwrapped. */
export const CALLOUT_KINDS = ['info', 'tip', 'warning', 'danger'] as const;

/** `value` when it is one of `allowed`, else undefined. */
const oneOf = (value: string | undefined, allowed: readonly string[]) =>
  value !== undefined && allowed.includes(value) ? value : undefined;

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [...HEADINGS, ...TEXT, ...MARKS, ...LISTS, ...TABLES, ...MEDIA, 'a', 'div'],
  allowedAttributes: {
    a: ['href', 'title', 'target', 'rel'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    video: ['src', 'controls', 'width', 'height', 'poster'],
    audio: ['src', 'controls'],
    source: ['src', 'type'],
    ol: ['start'],
    th: ['colspan', 'rowspan'],
    td: ['colspan', 'rowspan'],
    col: ['span'],
    code: ['class'],
    pre: ['class'],
    // Checklists (Tiptap's TaskList/TaskItem) and callouts; their values are checked in
    // transformTags, which drops any other value.
    li: ['data-type', 'data-checked'],
    ul: ['data-type'],
    div: ['data-callout'],
  },
  // Code blocks keep their language class only (`language-js`), for highlighting.
  allowedClasses: { code: [/^language-[a-z0-9+#-]{1,20}$/], pre: [/^language-[a-z0-9+#-]{1,20}$/] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: [], video: [], audio: [], source: [] },
  allowedSchemesAppliedToAttributes: ['href', 'src', 'poster'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  // Script, style and the like go with their content; other unknown tags keep their text.
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'title', 'template', 'xmp'],
  enforceHtmlBoundary: false,
  parser: { lowerCaseTags: true, lowerCaseAttributeNames: true },
  exclusiveFilter: (frame) => {
    // Media without a stored source would show nothing (or fetch from elsewhere): dropped.
    if ((frame.tag === 'img' || frame.tag === 'source') && !frame.attribs.src) return true;
    // What is inside a player is shown only where it cannot play, so a video or audio element
    // with text or images inside (an unclosed `<audio>` takes the rest of the document) would
    // hide them from readers: it is unwrapped, its content kept. The editor's players are empty.
    if (
      (frame.tag === 'video' || frame.tag === 'audio') &&
      (frame.text.trim() !== '' || frame.mediaChildren.length > 0)
    ) {
      return 'excludeTag';
    }
    // A div that is no callout, and an empty span (a checklist item's checkbox box), are
    // unwrapped: their content stays.
    if (frame.tag === 'div' && !frame.attribs['data-callout']) return 'excludeTag';
    if (frame.tag === 'span' && frame.text === '' && frame.mediaChildren.length === 0) {
      return 'excludeTag';
    }
    return false;
  },
  transformTags: {
    // A checklist: `<ul data-type="taskList">` of `<li data-type="taskItem" data-checked>`. The
    // checkbox (`<input>` in a `<label>`) is not kept: the reader draws it from data-checked.
    ul: (tagName, attribs) => {
      const { 'data-type': type, ...rest } = attribs;
      const list = oneOf(type, ['taskList']);
      return { tagName, attribs: { ...rest, ...(list ? { 'data-type': list } : {}) } };
    },
    li: (tagName, attribs) => {
      const { 'data-type': type, 'data-checked': checked, ...rest } = attribs;
      const item = oneOf(type, ['taskItem']);
      const state = oneOf(checked, ['true', 'false']);
      return {
        tagName,
        attribs: {
          ...rest,
          ...(item ? { 'data-type': item } : {}),
          ...(state ? { 'data-checked': state } : {}),
        },
      };
    },
    div: (tagName, attribs): sanitizeHtml.Tag => {
      const kind = oneOf(attribs['data-callout'], CALLOUT_KINDS);
      return { tagName, attribs: kind ? { 'data-callout': kind } : {} };
    },
    // Every link opens safely; links to other sites open in a new tab without the opener.
    a: (tagName, attribs) => {
      const { target: _target, rel: _rel, href, ...rest } = attribs;
      const url = (href ?? '').trim();
      const stored = storedFilePath(url);
      if (stored) return { tagName, attribs: { ...rest, href: stored } };
      // Protocol-relative links are refused like any other URL without an allowed scheme.
      if (url.startsWith('//') || url.startsWith('\\')) return { tagName, attribs: rest };
      const external = /^https?:/i.test(url);
      return {
        tagName,
        attribs: {
          ...(href === undefined ? {} : { href }),
          ...rest,
          ...(external ? { target: '_blank', rel: 'noopener noreferrer nofollow' } : {}),
        },
      };
    },
    img: mediaFromStorage,
    video: mediaFromStorage,
    audio: mediaFromStorage,
    source: mediaFromStorage,
  },
};

/** Keeps `src`/`poster` only when they point at the app's own stored files. */
function mediaFromStorage(tagName: string, attribs: sanitizeHtml.Attributes): sanitizeHtml.Tag {
  const { src, poster, ...rest } = attribs;
  const source = storedFilePath(src);
  const posterPath = storedFilePath(poster);
  return {
    tagName,
    attribs: {
      ...(source ? { src: source } : {}),
      ...rest,
      ...(posterPath ? { poster: posterPath } : {}),
    },
  };
}

/** The HTML reduced to the allow-list; the empty string for nothing but whitespace. */
export function sanitizeRichText(html: string): string {
  const clean = sanitizeHtml(html, OPTIONS).trim();
  return isBlankRichText(clean) ? '' : clean;
}

/** Whether rich text shows nothing a reader could see (no text, no media). */
export function isBlankRichText(html: string): boolean {
  if (/<(img|video|audio|hr|table)\b/i.test(html)) return false;
  const text = sanitizeHtml(html, { allowedTags: [], allowedAttributes: {} });
  return text.replace(/&nbsp;|\s/g, '') === '';
}

const ENTITIES: Record<string, string> = {
  nbsp: ' ',
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  '#39': "'",
};

/** Plain text of rich text (for search indexes, previews and notifications). */
export function richTextToPlainText(html: string): string {
  return (
    sanitizeHtml(html.replace(/<\/(p|h[1-6]|li|tr|blockquote|pre)>|<br\s*\/?>/gi, '$&\n'), {
      allowedTags: [],
      allowedAttributes: {},
    })
      // One pass, so `&amp;lt;` becomes `&lt;`, not `<`.
      .replace(/&(nbsp|amp|lt|gt|quot|#39);/g, (_m, entity: string) => ENTITIES[entity] ?? '')
      .replace(/[ \t]+\n/g, '\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim()
  );
}
