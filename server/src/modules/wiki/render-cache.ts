/**
 * What is worked out from a page revision's HTML, kept: a revision's HTML never changes (a save
 * writes the next revision; page ids are never reused), so what is worked out for (page id,
 * revision) is good for every viewer and every instance.
 *
 * - The render plan (links.ts) of each revision: reading a page then parses nothing; a save puts
 *   the plan of the HTML it parsed anyway (for its links) here, for its own answer and the reads
 *   after it.
 * - The blocks (blocks.ts) of revisions compared (diffs), which cost most of a diff of long pages.
 *
 * Both bounded, least recently used first out.
 */
import { splitBlocks, type Block } from './blocks';
import { renderPlan, type RenderPlan } from './links';

/** Plans kept (each the size of its links and headings, not of the page). */
const CAPACITY = 2_000;

const plans = new Map<string, { length: number; plan: RenderPlan }>();

const keyOf = (pageId: string, revision: number) => `${pageId}\u0000${revision}`;

/** Keeps the plan of a revision's HTML. */
export function rememberPlan(pageId: string, revision: number, html: string, plan: RenderPlan) {
  const key = keyOf(pageId, revision);
  plans.delete(key);
  plans.set(key, { length: html.length, plan });
  if (plans.size > CAPACITY) plans.delete(plans.keys().next().value as string);
}

/** The plan of a page's HTML at a revision, from the cache or worked out (and kept). */
export function planOf(pageId: string, revision: number, html: string): RenderPlan {
  const key = keyOf(pageId, revision);
  const hit = plans.get(key);
  // The length guards against HTML that is not the revision's (never expected).
  if (hit && hit.length === html.length) {
    plans.delete(key);
    plans.set(key, hit);
    return hit.plan;
  }
  const plan = renderPlan(html);
  rememberPlan(pageId, revision, html, plan);
  return plan;
}

/** How much HTML the kept blocks come from, at most (in characters; the blocks take about thrice). */
const BLOCKS_CAPACITY = 4_000_000;

const blocks = new Map<string, { length: number; blocks: readonly Block[] }>();
let blocksLength = 0;

/** The blocks of a page's HTML at a revision, from the cache or split (and kept). */
export function blocksOf(pageId: string, revision: number, html: string): readonly Block[] {
  const key = keyOf(pageId, revision);
  const hit = blocks.get(key);
  if (hit && hit.length === html.length) {
    blocks.delete(key);
    blocks.set(key, hit);
    return hit.blocks;
  }
  const split = splitBlocks(html);
  if (html.length > BLOCKS_CAPACITY / 4) return split;
  if (hit) {
    blocks.delete(key);
    blocksLength -= hit.length;
  }
  blocks.set(key, { length: html.length, blocks: split });
  blocksLength += html.length;
  for (const [oldest, entry] of blocks) {
    if (blocksLength <= BLOCKS_CAPACITY) break;
    blocks.delete(oldest);
    blocksLength -= entry.length;
  }
  return split;
}
