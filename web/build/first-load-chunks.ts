/**
 * The app's own code of the first load in one chunk, `app`, rather than a score of small ones
 * (docs/front-end.md "What loads first"): what the `main` entry needs from `web/src` and
 * `core/src`.
 *
 * Left to itself the bundler puts every module that a lazy page shares with the first load into
 * a chunk of its own (`format.ts`, `use-can.ts`, `routes.ts`, …: a dozen files of 1–4 kB). Each
 * is a request, and each a `<link rel="modulepreload">` that Vite's preload helper appends when
 * `main` is imported, some 5 ms apiece on a phone in Lighthouse's trace: the preload of `main`
 * was one of the longest tasks of the start.
 *
 * What `/login`'s static page and `index.html` load themselves (`src/login.ts`, `src/entry.ts`
 * and what they import: the handoff to the app) stays out of it, so that `/login` still loads
 * only its own few kB; as do the stylesheets, which stay `main`'s.
 */
import type { Plugin } from 'vite';

/** The modules a bundler plugin context can tell about (rolldown's and rollup's have it). */
export interface ModuleGraph {
  getModuleIds(): Iterable<string>;
  getModuleInfo(id: string): { importedIds: readonly string[] } | null;
}

/** The entries of the two static pages (index.html, login.html), which load before the app. */
const PAGE_ENTRIES = /\/web\/src\/(?:entry|login)\.ts$/;
const MAIN_ENTRY = /\/web\/src\/main\.tsx$/;
const OWN_SOURCE = /\/(?:web|core)\/src\//;
const STYLES = /\.css(?:$|\?)/;

const norm = (id: string) => id.replaceAll('\\', '/');

/** What the static pages' entries import, however deep (they import no barrel). */
export function staticPageModules(graph: ModuleGraph): Set<string> {
  const seen = new Set<string>();
  const stack = [...graph.getModuleIds()].filter((id) => PAGE_ENTRIES.test(norm(id)));
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    stack.push(...(graph.getModuleInfo(id)?.importedIds ?? []));
  }
  return seen;
}

/** Whether a module of the first load (the bundler's `$initial`) goes into `app`. */
export function inAppChunk(id: string, staticPages: ReadonlySet<string>): boolean {
  const path = norm(id);
  return (
    OWN_SOURCE.test(path) && !MAIN_ENTRY.test(path) && !STYLES.test(path) && !staticPages.has(id)
  );
}

/**
 * The plugin that reads the module graph once it is complete, and the chunk group for
 * `codeSplitting.groups` (web/vite.config.ts), which asks it when the bundle is split. The
 * bundler's `$initial` tag (what an entry imports statically, after tree-shaking: the unused
 * contracts behind core's index are not) picks the first load.
 */
export function firstLoadChunks(): {
  plugin: Plugin;
  group: { name: string; test: (id: string) => boolean; tags: ['$initial'] };
} {
  let staticPages: ReadonlySet<string> = new Set();
  return {
    plugin: {
      name: 'learning-hub:first-load-chunks',
      apply: 'build',
      buildEnd(error) {
        if (!error) staticPages = staticPageModules(this);
      },
    },
    group: { name: 'app', test: (id) => inAppChunk(id, staticPages), tags: ['$initial'] },
  };
}
