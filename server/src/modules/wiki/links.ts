/**
 * Links between wiki pages and what a page looks like when it is served (docs/wiki.md, "Links and
 * backlinks"). A page links to another by id (`<a href="/wiki/pages/<id>">`) or by title
 * (`<a href="/wiki/go?space=<spaceKey>&title=<title>">`, URL-encoded), which may name a page that
 * does not exist yet. Every save stores the links of its sanitised HTML (`wiki_links`); serving a
 * page marks the links the viewer cannot follow (`class="wiki-link-missing"`) and gives each
 * h2–h4 heading a unique `id` for the table of contents. Neither is ever stored.
 */
import { WIKI_TITLE_MAX, WikiSpaceKeySchema } from '@learning-hub/core';
import { Parser } from 'htmlparser2';
import { titleKey } from './title-key';

/** Where a link goes: a page by id, or a title in a space (folded, see title-key.ts). */
export type LinkTarget =
  { kind: 'id'; pageId: string } | { kind: 'title'; spaceKey: string; titleKey: string };

/** The class a link to a page that is not there (for the viewer) gets when served. */
export const MISSING_LINK_CLASS = 'wiki-link-missing';

const PAGE_PATH = /^\/wiki\/pages\/([A-Za-z0-9_-]{1,64})\/?(?:[?#].*)?$/;

/** The path of a page (its link by id). */
export const wikiPageHref = (pageId: string) => `/wiki/pages/${pageId}`;

/** The path of a link by title. */
export const wikiTitleHref = (spaceKey: string, title: string) =>
  `/wiki/go?space=${encodeURIComponent(spaceKey)}&title=${encodeURIComponent(title)}`;

/** Where an `href` goes, when it is a link to a wiki page. */
export function linkTargetOf(href: string | undefined): LinkTarget | null {
  if (!href) return null;
  const url = href.trim();
  const byId = PAGE_PATH.exec(url);
  if (byId) return { kind: 'id', pageId: byId[1] as string };
  if (!url.startsWith('/wiki/go?')) return null;
  let params: URLSearchParams;
  try {
    params = new URL(url, 'http://wiki.invalid').searchParams;
  } catch {
    return null;
  }
  const space = WikiSpaceKeySchema.safeParse(params.get('space') ?? '');
  const key = titleKey(params.get('title') ?? '');
  if (!space.success || key === '' || key.length > WIKI_TITLE_MAX) return null;
  return { kind: 'title', spaceKey: space.data, titleKey: key };
}

/** One string per target, to compare and collect them. */
export const targetKey = (t: LinkTarget) =>
  t.kind === 'id' ? `id:${t.pageId}` : `title:${t.spaceKey}\u0000${t.titleKey}`;

/** The page links of sanitised HTML, each target once. */
export function pageLinks(html: string): LinkTarget[] {
  return renderPlan(html).targets;
}

/** A heading of the served page. */
export interface Heading {
  id: string;
  level: number;
  text: string;
}

/** The anchor of a heading: its words, lower case, joined by dashes (`section` when none). */
export function slugOf(text: string): string {
  const slug = text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return slug || 'section';
}

const HEADING = /^h([2-4])$/;

/** Text to put before the `>` of an opening tag: a heading's id, or a link's missing class. */
interface Insert {
  at: number;
  text: string;
  /** A link's target: the class goes in only when the viewer cannot open it. */
  target: LinkTarget | null;
}

/**
 * What serving a page needs of its HTML, worked out in one parse: its page links (each target
 * once, as pageLinks), where a missing link's class and each heading's id go, and the headings.
 * A pure function of the HTML, so it is kept per revision (render-cache.ts).
 */
export interface RenderPlan {
  targets: LinkTarget[];
  /** In document order. */
  inserts: readonly Insert[];
  headings: Heading[];
}

export function renderPlan(html: string): RenderPlan {
  const found = new Map<string, LinkTarget>();
  const inserts: Insert[] = [];
  const headings: Heading[] = [];
  const taken = new Set<string>();
  let open: { level: number; at: number; text: string } | null = null;
  const parser: Parser = new Parser({
    onopentag(name, attributes) {
      const end = parser.endIndex;
      // `<a …/>` never comes from the sanitiser, but the attribute must go before the slash.
      const at = html.charAt(end - 1) === '/' ? end - 1 : end;
      if (name === 'a') {
        const target = linkTargetOf(attributes.href);
        if (!target) return;
        found.set(targetKey(target), target);
        inserts.push({ at, text: ` class="${MISSING_LINK_CLASS}"`, target });
        return;
      }
      const level = HEADING.exec(name);
      if (level && !open) open = { level: Number(level[1]), at, text: '' };
    },
    ontext(text) {
      if (open) open.text += text;
    },
    onclosetag(name) {
      if (!open || name !== `h${open.level}`) return;
      const text = open.text.replace(/\s+/gu, ' ').trim();
      const base = slugOf(text);
      let id = base;
      for (let n = 2; taken.has(id); n += 1) id = `${base}-${n}`;
      taken.add(id);
      headings.push({ id, level: open.level, text });
      inserts.push({ at: open.at, text: ` id="${id}"`, target: null });
      open = null;
    },
  });
  parser.write(html);
  parser.end();
  // A heading's id is known at its closing tag, after the links inside it.
  inserts.sort((a, b) => a.at - b.at);
  return { targets: [...found.values()], inserts, headings };
}

/** The HTML of a plan made from `html`, with the class on the links `missing` names. */
export function applyPlan(
  html: string,
  plan: RenderPlan,
  missing: (target: LinkTarget) => boolean,
): string {
  let out = '';
  let from = 0;
  for (const { at, text, target } of plan.inserts) {
    if (target && !missing(target)) continue;
    out += html.slice(from, at) + text;
    from = at;
  }
  return from === 0 ? html : out + html.slice(from);
}

/**
 * The page as served: links whose target `missing` says the viewer cannot open get the
 * missing-link class, and each h2–h4 an `id` (the slug of its text, `-2`, `-3`… when taken);
 * with the headings in order for the table of contents. The HTML is the sanitiser's (links carry
 * no class and headings no id of their own); only opening tags change.
 */
export function servePage(
  html: string,
  missing: (target: LinkTarget) => boolean,
): { html: string; headings: Heading[] } {
  const plan = renderPlan(html);
  return { html: applyPlan(html, plan, missing), headings: plan.headings };
}
