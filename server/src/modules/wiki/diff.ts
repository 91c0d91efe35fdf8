/**
 * Comparing two revisions (docs/wiki.md, "Diff"): their blocks (blocks.ts) are aligned first
 * (`diffArrays` over each block's HTML and wrappers), so a long page costs one pass over its
 * blocks and word-level work only where something changed. A run of deleted blocks next to a run
 * of inserted ones is paired by tag (a paragraph with a paragraph, a row with a row) into
 * `change` blocks with `diffWords` parts when they have words in common; what stays unpaired is a
 * plain delete or insert.
 */
import type { WikiDiff } from '@learning-hub/core';
import { diffArrays, diffWords } from 'diff';
import { splitBlocks, type Block } from './blocks';

type DiffBlock = WikiDiff['blocks'][number];
type Part = DiffBlock['parts'][number];

/**
 * How long one comparison may search before it gives up and shows the blocks (or the words of one
 * block) as deleted and inserted whole: a bound for pathological input, far above what real
 * edits take (docs/wiki.md, "Measured").
 */
const SEARCH_MS = 200;

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}\p{N}]+)*/gu;

/** How many words a text has. */
export function wordCount(text: string): number {
  return text.match(WORD)?.length ?? 0;
}

function wordParts(from: string, to: string): Part[] {
  if (from === to) return [{ text: from, op: 'equal' }];
  const changes = diffWords(from, to, { timeout: SEARCH_MS });
  if (!changes) {
    return [
      { text: from, op: 'delete' },
      { text: to, op: 'insert' },
    ];
  }
  return changes.map((c) => ({
    text: c.value,
    op: c.added ? 'insert' : c.removed ? 'delete' : 'equal',
  }));
}

const equal = (b: Block): DiffBlock => ({
  op: 'equal',
  tag: b.tag,
  from: b.text,
  to: b.text,
  parts: [{ text: b.text, op: 'equal' }],
});
const deleted = (b: Block): DiffBlock => ({
  op: 'delete',
  tag: b.tag,
  from: b.text,
  to: null,
  parts: [{ text: b.text, op: 'delete' }],
});
const inserted = (b: Block): DiffBlock => ({
  op: 'insert',
  tag: b.tag,
  from: null,
  to: b.text,
  parts: [{ text: b.text, op: 'insert' }],
});

/** A run of deleted blocks beside a run of inserted ones: pairs of the same tag, in order. */
function pairRuns(removed: Block[], added: Block[], out: DiffBlock[]): void {
  const byTag = diffArrays(
    removed.map((b) => b.tag),
    added.map((b) => b.tag),
  );
  let r = 0;
  let a = 0;
  for (const change of byTag) {
    for (let i = 0; i < change.count; i += 1) {
      if (change.removed) out.push(deleted(removed[r++] as Block));
      else if (change.added) out.push(inserted(added[a++] as Block));
      else {
        const from = removed[r++] as Block;
        const to = added[a++] as Block;
        const parts = wordParts(from.text, to.text);
        // Blocks with no word in common are one deleted and one inserted, not a change.
        if (from.text !== '' && !parts.some((p) => p.op === 'equal' && wordCount(p.text) > 0)) {
          out.push(deleted(from), inserted(to));
        } else {
          out.push({ op: 'change', tag: to.tag, from: from.text, to: to.text, parts });
        }
      }
    }
  }
}

/** The blocks of the comparison of `fromHtml` with `toHtml` and the words inserted and deleted. */
export function diffHtml(fromHtml: string, toHtml: string): Pick<WikiDiff, 'blocks' | 'stats'> {
  return diffBlocks(splitBlocks(fromHtml), splitBlocks(toHtml));
}

/** diffHtml of two versions already split into blocks (render-cache.ts keeps a revision's). */
export function diffBlocks(
  from: readonly Block[],
  to: readonly Block[],
): Pick<WikiDiff, 'blocks' | 'stats'> {
  const aligned = diffArrays(
    from.map((b) => b.key),
    to.map((b) => b.key),
    { timeout: SEARCH_MS },
  ) ?? [
    { value: from.map((b) => b.key), count: from.length, added: false, removed: true },
    { value: to.map((b) => b.key), count: to.length, added: true, removed: false },
  ];
  const blocks: DiffBlock[] = [];
  let f = 0;
  let t = 0;
  let removed: Block[] = [];
  let added: Block[] = [];
  const flush = () => {
    if (removed.length > 0 || added.length > 0) pairRuns(removed, added, blocks);
    removed = [];
    added = [];
  };
  for (const change of aligned) {
    if (change.removed) removed.push(...from.slice(f, (f += change.count)));
    else if (change.added) added.push(...to.slice(t, (t += change.count)));
    else {
      flush();
      for (let i = 0; i < change.count; i += 1) blocks.push(equal(from[f + i] as Block));
      f += change.count;
      t += change.count;
    }
  }
  flush();
  let insertedWords = 0;
  let deletedWords = 0;
  for (const block of blocks) {
    for (const part of block.parts) {
      if (part.op === 'insert') insertedWords += wordCount(part.text);
      else if (part.op === 'delete') deletedWords += wordCount(part.text);
    }
  }
  return { blocks, stats: { insertedWords, deletedWords } };
}
