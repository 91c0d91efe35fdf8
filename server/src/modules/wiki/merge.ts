/**
 * The three-way merge a stale save gets back (docs/wiki.md, "Saving, conflicts and merges"): the
 * base revision the editor started from, the caller's text ("mine") and the revision saved
 * meanwhile ("theirs"), block by block (blocks.ts) with node-diff3. Blocks only one side changed
 * are merged on their own; a block both sides changed differently is a conflict for the person.
 *
 * node-diff3 reports changes of the two sides that touch (mine changed block 2, theirs block 3)
 * as one conflict. Such a region is looked at again: each side's changes to the base are worked
 * out as hunks, and when no hunk of one side overlaps a hunk of the other (nor do both insert at
 * the same place) both are applied, so paragraphs that do not overlap merge on their own.
 */
import type { WikiConflict } from '@learning-hub/core';
import { diffArrays } from 'diff';
import { diff3Merge } from 'node-diff3';
import { renderBlocks, splitBlocks, type Block } from './blocks';

type Merge = WikiConflict['merge'];
type MergeBlock = Merge['blocks'][number];

/** A side's change to the base: the base's blocks [start, end) replaced by `blocks`. */
interface Hunk {
  start: number;
  end: number;
  blocks: string[];
}

/** One side's changes to the base, as hunks in order. */
function hunksOf(base: readonly string[], side: readonly string[]): Hunk[] {
  const hunks: Hunk[] = [];
  let at = 0;
  let current: Hunk | null = null;
  for (const change of diffArrays([...base], [...side])) {
    if (change.removed) {
      current ??= { start: at, end: at, blocks: [] };
      current.end += change.count;
      at += change.count;
    } else if (change.added) {
      current ??= { start: at, end: at, blocks: [] };
      current.blocks.push(...change.value);
    } else {
      if (current) hunks.push(current);
      current = null;
      at += change.count;
    }
  }
  if (current) hunks.push(current);
  return hunks;
}

const sameHunk = (x: Hunk, y: Hunk) =>
  x.start === y.start &&
  x.end === y.end &&
  x.blocks.length === y.blocks.length &&
  x.blocks.every((b, i) => b === y.blocks[i]);

/** Whether two hunks of different sides cannot both be applied. */
const clash = (x: Hunk, y: Hunk) =>
  !sameHunk(x, y) &&
  ((x.start < y.end && y.start < x.end) ||
    // Both insert at the same place: which goes first is the person's call.
    (x.start === x.end && y.start === y.end && x.start === y.start));

/**
 * A conflict region merged block by block when the two sides' changes do not overlap; null when
 * they do.
 */
export function mergeRegion(
  base: readonly string[],
  mine: readonly string[],
  theirs: readonly string[],
): string[] | null {
  const ours = hunksOf(base, mine);
  const others = hunksOf(base, theirs);
  for (const x of ours) for (const y of others) if (clash(x, y)) return null;
  const all = [...ours, ...others.filter((y) => !ours.some((x) => sameHunk(x, y)))];
  // Insertions before the range that starts where they are.
  all.sort((x, y) => x.start - y.start || x.end - x.start - (y.end - y.start));
  const out: string[] = [];
  let at = 0;
  for (const hunk of all) {
    out.push(...base.slice(at, hunk.start), ...hunk.blocks);
    at = hunk.end;
  }
  out.push(...base.slice(at));
  return out;
}

/** The title a merge proposes: the one changed from the base, theirs when both changed it. */
export function mergeTitle(base: string, mine: string, theirs: string): string {
  if (mine === base) return theirs;
  if (theirs === base) return mine;
  return theirs;
}

/** The three-way merge of the caller's page with the revision saved since their base. */
export function mergePage(input: {
  base: { title: string; html: string };
  mine: { title: string; html: string };
  theirs: { title: string; html: string };
}): Merge {
  const byKey = new Map<string, Block>();
  const keysOf = (html: string) =>
    splitBlocks(html).map((b) => {
      byKey.set(b.key, b);
      return b.key;
    });
  const base = keysOf(input.base.html);
  const mine = keysOf(input.mine.html);
  const theirs = keysOf(input.theirs.html);
  const render = (keys: readonly string[]) => renderBlocks(keys.map((k) => byKey.get(k) as Block));

  const blocks: MergeBlock[] = [];
  let merged: string[] = [];
  const flush = () => {
    if (merged.length > 0) blocks.push({ kind: 'merged', html: render(merged) });
    merged = [];
  };
  for (const region of diff3Merge(mine, base, theirs, { excludeFalseConflicts: true })) {
    if (region.ok) {
      merged.push(...region.ok);
      continue;
    }
    if (!region.conflict) continue;
    const { a, o, b } = region.conflict;
    const resolved = mergeRegion(o, a, b);
    if (resolved) {
      merged.push(...resolved);
      continue;
    }
    flush();
    blocks.push({ kind: 'conflict', base: render(o), mine: render(a), theirs: render(b) });
  }
  flush();
  return {
    title: mergeTitle(input.base.title, input.mine.title, input.theirs.title),
    blocks,
    conflicts: blocks.filter((b) => b.kind === 'conflict').length,
  };
}
