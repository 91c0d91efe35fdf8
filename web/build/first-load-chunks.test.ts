/**
 * The app's own code of the first load goes into one chunk (first-load-chunks.ts), but what the
 * static pages load before the app stays out of it.
 */
import { describe, expect, it } from 'vitest';
import { inAppChunk, staticPageModules, type ModuleGraph } from './first-load-chunks.ts';

const SRC = '/repo/web/src';

function graph(imports: Record<string, string[]>): ModuleGraph {
  return {
    getModuleIds: () => Object.keys(imports),
    getModuleInfo: (id) => (id in imports ? { importedIds: imports[id]! } : null),
  };
}

const GRAPH = graph({
  [`${SRC}/entry.ts`]: [],
  [`${SRC}/login.ts`]: [`${SRC}/lib/static-login.ts`],
  [`${SRC}/lib/static-login.ts`]: [`${SRC}/lib/login-handoff.ts`, '/repo/core/src/constants.ts'],
  [`${SRC}/lib/login-handoff.ts`]: [],
  '/repo/core/src/constants.ts': [],
  [`${SRC}/main.tsx`]: [`${SRC}/app/router.tsx`, `${SRC}/lib/login-handoff.ts`],
  [`${SRC}/app/router.tsx`]: ['/repo/core/src/routes.ts'],
  '/repo/core/src/routes.ts': [],
});

describe('the app chunk', () => {
  const pages = staticPageModules(GRAPH);

  it('takes the app’s and core’s modules of the first load', () => {
    expect(inAppChunk(`${SRC}/app/router.tsx`, pages)).toBe(true);
    expect(inAppChunk('/repo/core/src/routes.ts', pages)).toBe(true);
  });

  it('leaves the entry, the libraries and the stylesheets to their own chunks', () => {
    expect(inAppChunk(`${SRC}/main.tsx`, pages)).toBe(false);
    expect(inAppChunk('/repo/node_modules/react/index.js', pages)).toBe(false);
    expect(inAppChunk(`${SRC}/app/app.css`, pages)).toBe(false);
  });

  it('leaves out what /login’s static page and index.html load before the app', () => {
    expect([...pages].sort()).toEqual([
      '/repo/core/src/constants.ts',
      `${SRC}/entry.ts`,
      `${SRC}/lib/login-handoff.ts`,
      `${SRC}/lib/static-login.ts`,
      `${SRC}/login.ts`,
    ]);
    expect(inAppChunk(`${SRC}/lib/login-handoff.ts`, pages)).toBe(false);
    expect(inAppChunk('/repo/core/src/constants.ts', pages)).toBe(false);
  });
});
