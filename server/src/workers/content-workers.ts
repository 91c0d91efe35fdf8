/**
 * The server's content workers (docs/jobs.md, "Where the work runs"): a ProcessPool whose
 * children run the task table of content-tasks.ts. The child's module is dist/content-worker.js
 * in the built server (server/build.mjs, beside the bundle that starts it), and content-worker.ts
 * bundled on first use when the server runs from source (tests, `npm run dev`; source-entry.ts).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { FileStore } from '../storage/file-store';
import type { contentTasks } from './content-tasks';
import { ProcessPool } from './process-pool';
import { sourceEntry } from './source-entry';

export type ContentTasks = typeof contentTasks;
export type ContentWorkers = ProcessPool<ContentTasks>;

/** What content work needs: the store the files are read from, and the workers. */
export interface ContentWork {
  store: FileStore;
  workers: ContentWorkers;
}

export function createContentWorkers(options: {
  size: number;
  maxRssBytes: number;
  /** Where stored files are copied for a worker to read (removed after each task). */
  tempDir: string;
  log?: FastifyBaseLogger;
}): ContentWorkers {
  const fromSource = import.meta.url.endsWith('.ts');
  const entry = fromSource
    ? sourceEntry(new URL('./content-worker.ts', import.meta.url))
    : new URL('./content-worker.js', import.meta.url);
  return new ProcessPool<ContentTasks>({ entry, ...options });
}
