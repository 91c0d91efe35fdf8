/**
 * The block model of a page (docs/wiki.md, "Diff and merge"): sanitised HTML split into the
 * units a person edits — paragraphs, headings, one block per list item (checklist items too),
 * per table row, per block inside a callout, a code block whole — each with its outer HTML, its
 * plain text and the wrappers around it (`<ul>`, `<table><tbody>`, `<div data-callout>`), so a
 * sequence of blocks from several versions can be put back together as valid HTML. Diffs align
 * blocks first and compare words only inside paired blocks; merges work on whole blocks.
 *
 * Parsed with htmlparser2; a block's HTML is the exact text of the source (by the parser's
 * indices), never re-serialised, so an unchanged block is the same string in every version.
 */
import { parseDocument } from 'htmlparser2';

type Document = ReturnType<typeof parseDocument>;
/** A node of htmlparser2's DOM (domhandler). */
export type Node = Document['children'][number];
/** An element of htmlparser2's DOM. */
export type Element = Extract<Node, { attribs: Record<string, string> }>;
type Text = Extract<Node, { type: 'text' }>;

const isTag = (node: Node): node is Element => 'attribs' in node;
const isText = (node: Node): node is Text => node.type === 'text';

/** An element around a block: how to open and close it. */
export interface Wrapper {
  open: string;
  close: string;
}

export interface Block {
  /** The block's tag (`p`, `h2`, `li`, `tr`, `pre`…; `p` for loose inline content). */
  tag: string;
  /** Its outer HTML, as in the source. */
  html: string;
  /** Its plain text, whitespace collapsed (checklist items start with `[x]` or `[ ]`). */
  text: string;
  /** The elements around it, outermost first. */
  wrappers: readonly Wrapper[];
  /** What alignment compares: the wrappers' opening tags and the HTML. */
  key: string;
}

const INLINE = new Set([
  'a',
  'abbr',
  'b',
  'br',
  'code',
  'em',
  'i',
  'img',
  'mark',
  's',
  'span',
  'strong',
  'sub',
  'sup',
  'u',
  'video',
  'audio',
  'source',
]);
const LISTS = new Set(['ul', 'ol']);
const TABLE_SECTIONS = new Set(['thead', 'tbody', 'tfoot']);

const escapeAttribute = (value: string) =>
  value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');

function wrapperOf(element: Element): Wrapper {
  const attributes = Object.entries(element.attribs)
    .map(([name, value]) => (value === '' ? ` ${name}` : ` ${name}="${escapeAttribute(value)}"`))
    .join('');
  return { open: `<${element.name}${attributes}>`, close: `</${element.name}>` };
}

function sourceOf(html: string, first: Node, last: Node = first): string {
  return html.slice(first.startIndex ?? 0, (last.endIndex ?? html.length - 1) + 1);
}

/** Plain text of nodes: cells joined by ` | `, media named, block children spaced. */
function textOf(nodes: readonly Node[]): string {
  const parts: string[] = [];
  const walk = (node: Node) => {
    if (isText(node)) {
      parts.push(node.data);
      return;
    }
    if (!isTag(node)) return;
    const name = node.name;
    if (name === 'img') {
      const alt = node.attribs.alt?.trim();
      parts.push(alt ? ` [image: ${alt}] ` : ' [image] ');
      return;
    }
    if (name === 'video' || name === 'audio') {
      parts.push(` [${name}] `);
      return;
    }
    if (name === 'br') {
      parts.push(' ');
      return;
    }
    if (name === 'li' && node.attribs['data-type'] === 'taskItem') {
      parts.push(node.attribs['data-checked'] === 'true' ? '[x] ' : '[ ] ');
    }
    const inline = INLINE.has(name);
    node.children.forEach((child, i) => {
      if (i > 0 && (name === 'tr' || TABLE_SECTIONS.has(name))) parts.push(' | ');
      walk(child);
    });
    if (!inline) parts.push(' ');
  };
  nodes.forEach(walk);
  return parts.join('').replace(/\s+/gu, ' ').trim();
}

function block(html: string, tag: string, nodes: Node[], wrappers: readonly Wrapper[]): Block {
  const first = nodes[0] as Node;
  const source = sourceOf(html, first, nodes.at(-1));
  return {
    tag,
    html: source,
    text: textOf(nodes),
    wrappers,
    key: `${wrappers.map((w) => w.open).join('')}\u0000${source}`,
  };
}

function collect(html: string, nodes: readonly Node[], wrappers: readonly Wrapper[], out: Block[]) {
  let run: Node[] = [];
  const flush = () => {
    // Loose inline content (text, links, images outside a paragraph) is one block.
    const content = run.filter((n) => !isText(n) || n.data.trim() !== '');
    if (content.length > 0) out.push(block(html, 'p', trimRun(run), wrappers));
    run = [];
  };
  for (const node of nodes) {
    if (isText(node)) {
      if (run.length > 0 || node.data.trim() !== '') run.push(node);
      continue;
    }
    if (!isTag(node)) continue;
    if (INLINE.has(node.name)) {
      run.push(node);
      continue;
    }
    flush();
    const inner = [...wrappers, wrapperOf(node)];
    if (LISTS.has(node.name)) {
      collectChildren(html, node, inner, out);
    } else if (node.name === 'table') {
      for (const child of node.children) {
        if (isTag(child) && TABLE_SECTIONS.has(child.name)) {
          collectChildren(html, child, [...inner, wrapperOf(child)], out);
        } else if (isTag(child)) {
          out.push(block(html, child.name, [child], inner));
        }
      }
    } else if (node.name === 'div' && node.attribs['data-callout']) {
      collect(html, node.children, inner, out);
    } else {
      out.push(block(html, node.name, [node], wrappers));
    }
  }
  flush();
}

/** Each child of a list or table section (an item, a row) as a block; whitespace skipped. */
function collectChildren(
  html: string,
  parent: Element,
  wrappers: readonly Wrapper[],
  out: Block[],
) {
  for (const child of parent.children) {
    if (isTag(child)) out.push(block(html, child.name, [child], wrappers));
    else if (isText(child) && child.data.trim() !== '') {
      out.push(block(html, 'p', [child], wrappers));
    }
  }
}

/** A run of inline nodes without the whitespace-only text at its ends. */
function trimRun(run: Node[]): Node[] {
  let start = 0;
  let end = run.length;
  const blank = (n: Node | undefined) => !!n && isText(n) && n.data.trim() === '';
  while (start < end && blank(run[start])) start += 1;
  while (end > start && blank(run[end - 1])) end -= 1;
  return run.slice(start, end);
}

/** The blocks of sanitised HTML, in document order. */
export function splitBlocks(html: string): Block[] {
  const document = parseDocument(html, { withStartIndices: true, withEndIndices: true });
  const out: Block[] = [];
  collect(html, document.children, [], out);
  return out;
}

/**
 * HTML of a sequence of blocks (from any of the versions split): each block inside its wrappers,
 * consecutive blocks sharing wrappers inside the same ones (two list items of one list stay one
 * list; a row after a heading opens a table again).
 */
export function renderBlocks(blocks: readonly Pick<Block, 'html' | 'wrappers'>[]): string {
  let out = '';
  let open: readonly Wrapper[] = [];
  for (const b of blocks) {
    let common = 0;
    while (
      common < open.length &&
      common < b.wrappers.length &&
      open[common]?.open === b.wrappers[common]?.open
    ) {
      common += 1;
    }
    for (let i = open.length - 1; i >= common; i -= 1) out += (open[i] as Wrapper).close;
    for (let i = common; i < b.wrappers.length; i += 1) out += (b.wrappers[i] as Wrapper).open;
    out += b.html;
    open = b.wrappers;
  }
  for (let i = open.length - 1; i >= 0; i -= 1) out += (open[i] as Wrapper).close;
  return out;
}
