/**
 * The tasks compute workers run (in the child process, see compute-worker.ts): work on data the
 * server trusts (its own stored documents) that still costs milliseconds of CPU per request —
 * a wiki diff now; dashboard aggregates and statistics next. Hostile input (an uploaded file)
 * goes to the content workers instead (content-tasks.ts), so that a slow PDF never holds up a
 * reader's comparison. A task takes one structured-clonable input and resolves with its result;
 * the server calls `app.computeWorkers.run('<area>.<what>', input, { timeoutMs })`.
 */
import { diffBlocks } from '../modules/wiki/diff';
import { blocksOf } from '../modules/wiki/render-cache';

interface Revision {
  pageId: string;
  number: number;
  html: string;
}

export const computeTasks = {
  /**
   * The block and word comparison of two revisions' sanitised HTML (wiki/diff.ts). The worker
   * lives on, so each revision's blocks are split once and kept (render-cache.ts).
   */
  'wiki.diff': async ({ from, to }: { from: Revision; to: Revision }) =>
    diffBlocks(
      blocksOf(from.pageId, from.number, from.html),
      blocksOf(to.pageId, to.number, to.html),
    ),
};
