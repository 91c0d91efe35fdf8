/**
 * The first load of `/` holds only the contracts the start reads (start-chunks.ts): the build
 * fails when another area's contracts get into it.
 */
import { describe, expect, it } from 'vitest';
import { contractsOutsideStart, startChunkFiles, type BuiltChunk } from './start-chunks.ts';

const CORE = '/repo/core/src/contracts';
const HOME = '/repo/web/src/features/home/components/home-page.tsx';

function chunk(fileName: string, fields: Partial<BuiltChunk> = {}): BuiltChunk {
  return {
    type: 'chunk',
    fileName,
    name: fileName.replace(/-.*$/, ''),
    isEntry: false,
    facadeModuleId: null,
    imports: [],
    moduleIds: [],
    ...fields,
  };
}

/** main → auth; home-page → learning-api → (contracts given); admin page lazily → admin. */
function build(learningApiContracts: string[]): BuiltChunk[] {
  return [
    chunk('main-a.js', {
      isEntry: true,
      facadeModuleId: '/repo/web/src/main.tsx',
      imports: ['auth-b.js', 'react-c.js'],
    }),
    chunk('auth-b.js', { moduleIds: [`${CORE}/auth.ts`, `${CORE}/common.ts`] }),
    chunk('react-c.js', { moduleIds: ['/repo/node_modules/react/index.js'] }),
    chunk('home-page-d.js', { facadeModuleId: HOME, imports: ['learning-api-e.js', 'react-c.js'] }),
    chunk('learning-api-e.js', {
      moduleIds: learningApiContracts.map((name) => `${CORE}/${name}.ts`),
    }),
    chunk('users-page-f.js', {
      facadeModuleId: '/repo/web/src/features/admin/components/users-page.tsx',
      imports: ['admin-g.js'],
    }),
    chunk('admin-g.js', { moduleIds: [`${CORE}/admin.ts`, `${CORE}/classroom.ts`] }),
  ];
}

describe('the first load of /', () => {
  it('is the main entry and the start page with the chunks they import, not the lazy ones', () => {
    expect(startChunkFiles(build(['learning'])).sort()).toEqual([
      'auth-b.js',
      'home-page-d.js',
      'learning-api-e.js',
      'main-a.js',
      'react-c.js',
    ]);
  });

  it('may hold the contracts the start reads', () => {
    expect(contractsOutsideStart(build(['learning', 'course']))).toEqual([]);
  });

  it('may not hold another area’s contracts, however deep the import', () => {
    expect(contractsOutsideStart(build(['learning', 'classroom', 'admin']))).toEqual([
      'core/src/contracts/classroom.ts (in learning-api-e.js)',
      'core/src/contracts/admin.ts (in learning-api-e.js)',
    ]);
  });

  it('finds the start page in a chunk of modules (the app chunk) as well as in its own', () => {
    const chunks = [
      chunk('main-a.js', {
        isEntry: true,
        facadeModuleId: '/repo/web/src/main.tsx',
        imports: ['app-b.js'],
      }),
      chunk('app-b.js', { moduleIds: [HOME, `${CORE}/learning.ts`], imports: ['admin-g.js'] }),
      chunk('admin-g.js', { moduleIds: [`${CORE}/admin.ts`] }),
    ];
    expect(startChunkFiles(chunks).sort()).toEqual(['admin-g.js', 'app-b.js', 'main-a.js']);
    expect(contractsOutsideStart(chunks)).toEqual(['core/src/contracts/admin.ts (in admin-g.js)']);
  });

  it('fails when the build has no start page or no main entry to check', () => {
    const chunks = build(['learning']).filter((c) => c.facadeModuleId !== HOME);
    expect(() => startChunkFiles(chunks)).toThrow(/found 1 of them/);
  });
});
