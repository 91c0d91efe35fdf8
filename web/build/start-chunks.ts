/**
 * What the first load of `/` may contain of core's contracts, checked at every build (the
 * `startChunks` plugin of web/vite.config.ts fails the build otherwise).
 *
 * Building a zod schema is work done when its module is evaluated, and a contract module builds
 * every schema in it: the classroom's and the admin's contracts alone are some 300 schemas. The
 * first load of `/` — the app's `main` entry and the start page's chunk, each with the chunks it
 * imports statically — may therefore hold only the contracts listed here: the ones the app's start
 * and the start page read. Every other area's contracts load with that area's pages
 * (docs/front-end.md "Each area's code in its own chunks").
 */
import type { Plugin } from 'vite';

/** core/src/contracts/<name>.ts that the first load of `/` may hold. */
export const START_CONTRACTS: readonly string[] = [
  'common', // what every contract builds on (IsoDateTime, PageQuerySchema, text rules)
  'access', // the permission snapshot of GET /api/auth/me
  'auth', // the session, the user, GET /api/auth/me and /api/auth/config, the sign-in
  'sign-in-texts', // the sign-in methods and the single sign-on error texts (no schemas)
  'course', // the course card of the start page's overview
  'learning', // the start page's overview (GET /api/me/learning)
];

/** The module the start page is: its chunk is part of the first load of `/`. */
export const START_PAGE_MODULE = /\/web\/src\/features\/home\/components\/home-page\.tsx$/;

const CONTRACT = /\/core\/src\/contracts\/([^/]+)\.ts$/;

/** The part of a built chunk this check reads (rolldown's and rollup's OutputChunk have it). */
export interface BuiltChunk {
  type: 'chunk';
  fileName: string;
  name: string;
  isEntry: boolean;
  facadeModuleId: string | null;
  imports: readonly string[];
  moduleIds: readonly string[];
}

/** The chunks of the first load of `/`: `main` and the start page's chunk with their imports. */
export function startChunkFiles(chunks: readonly BuiltChunk[]): string[] {
  const byFile = new Map(chunks.map((c) => [c.fileName, c]));
  const roots = chunks.filter(
    (c) =>
      (c.isEntry && c.name === 'main') ||
      (c.facadeModuleId !== null && START_PAGE_MODULE.test(c.facadeModuleId)) ||
      // In the `start` chunk (build/first-load-chunks.ts), with the modules only it imports.
      (c.facadeModuleId === null && c.moduleIds.some((id) => START_PAGE_MODULE.test(id))),
  );
  if (roots.length !== 2) {
    throw new Error(
      `the first load of / is the main entry and the start page's chunk; found ${roots.length} of them`,
    );
  }
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const imported of byFile.get(file)?.imports ?? []) visit(imported);
  };
  for (const root of roots) visit(root.fileName);
  return [...seen];
}

/** The contract modules in the first load of `/` that START_CONTRACTS does not allow, by chunk. */
export function contractsOutsideStart(chunks: readonly BuiltChunk[]): string[] {
  const byFile = new Map(chunks.map((c) => [c.fileName, c]));
  const found: string[] = [];
  for (const file of startChunkFiles(chunks)) {
    for (const id of byFile.get(file)?.moduleIds ?? []) {
      const name = CONTRACT.exec(id.replaceAll('\\', '/'))?.[1];
      if (name !== undefined && !START_CONTRACTS.includes(name)) {
        found.push(`core/src/contracts/${name}.ts (in ${file})`);
      }
    }
  }
  return found;
}

/** Fails the build when the first load of `/` holds another area's contracts. */
export function startChunks(): Plugin {
  return {
    name: 'learning-hub:start-chunks',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((o): o is typeof o & BuiltChunk => {
        return o.type === 'chunk';
      });
      const outside = contractsOutsideStart(chunks);
      if (outside.length > 0) {
        this.error(
          `the first load of / holds contracts it does not read: ${outside.join(', ')}. ` +
            'Import them from the area that needs them, behind its lazy boundary, or add them ' +
            'to START_CONTRACTS in web/build/start-chunks.ts if the start really needs them ' +
            '(docs/front-end.md "Each area\'s code in its own chunks").',
        );
      }
    },
  };
}
