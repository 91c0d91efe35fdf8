/**
 * The server's content workers (docs/jobs.md, "Where the work runs"): a ProcessPool whose
 * children run the task table of content-tasks.ts. The child's module is dist/content-worker.js
 * in the built server (server/build.mjs, beside the bundle that starts it), and content-worker.ts
 * bundled on first use when the server runs from source (tests, `npm run dev`; source-entry.ts).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { FileStore } from '../platform/storage/file-store';
import type { computeTasks } from './compute-tasks';
import type { contentTasks } from './content-tasks';
import { ProcessPool } from './process-pool';
import { sourceEntry } from './source-entry';

export type ContentTasks = typeof contentTasks;
export type ContentWorkers = ProcessPool<ContentTasks>;
export type ComputeTasks = typeof computeTasks;
export type ComputeWorkers = ProcessPool<ComputeTasks>;

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
  return new ProcessPool<ContentTasks>({ entry: entryOf('content-worker'), ...options });
}

/**
 * The compute workers (compute-tasks.ts): a pool of their own, so a reader's comparison never
 * waits behind a hostile PDF in the content workers.
 */
export function createComputeWorkers(options: {
  size: number;
  maxRssBytes: number;
  tempDir: string;
  log?: FastifyBaseLogger;
}): ComputeWorkers {
  return new ProcessPool<ComputeTasks>({ entry: entryOf('compute-worker'), ...options });
}

/** A child's module: beside the built bundle, or bundled from its source on first use. */
function entryOf(name: string): URL | (() => Promise<URL>) {
  const fromSource = import.meta.url.endsWith('.ts');
  return fromSource
    ? sourceEntry(new URL(`./${name}.ts`, import.meta.url))
    : new URL(`./${name}.js`, import.meta.url);
}
