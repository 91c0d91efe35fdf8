/**
 * The zones of docs/architecture.md ("Areas and the platform") bite: lint refuses a platform file
 * that imports an area, an area that reaches past another area's public API, and a migration
 * that imports live code (docs/architecture.md, "Data").
 */
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
let eslint: ESLint;

/** The rule ids lint reports for `code` as if it were the file at `path` (from the repo root). */
async function violations(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${root}${path}` });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === 'no-restricted-imports')
    .map((m) => m.message);
}

describe('import zones (lint)', () => {
  beforeAll(() => {
    eslint = new ESLint({ cwd: root });
  });

  it('refuses a platform file importing an area', async () => {
    const found = await violations(
      'server/src/platform/search/example.ts',
      "import { x } from '../../modules/library/library-repository';\nexport const y = x;\n",
    );
    expect(found).toEqual([expect.stringContaining('The platform imports no area')]);
  }, 60_000);

  it("refuses an area importing another area's internals, by either path", async () => {
    const sibling = await violations(
      'server/src/modules/departments/example.ts',
      "import { x } from '../wiki/wiki-repository';\nexport const y = x;\n",
    );
    expect(sibling).toEqual([expect.stringContaining('only through its public API')]);
    const roundabout = await violations(
      'server/src/modules/departments/example.ts',
      "import { x } from '../../modules/wiki/wiki-repository';\nexport const y = x;\n",
    );
    expect(roundabout.length).toBeGreaterThan(0);
  }, 60_000);

  it("allows an area's own files, the platform and another area's public API", async () => {
    const found = await violations(
      'server/src/modules/departments/example.ts',
      [
        "import { a } from './department-repository';",
        "import { b } from '../wiki/public';",
        "import { c } from '../../platform/db/sql';",
        'export const y = [a, b, c];',
        '',
      ].join('\n'),
    );
    expect(found).toEqual([]);
  }, 60_000);

  it('refuses a migration importing code of the project, and allows it a library', async () => {
    const live = await violations(
      'server/src/platform/db/migrations/0099-example.ts',
      "import { x } from '../../rich-text/sanitize';\nexport const y = x;\n",
    );
    expect(live).toEqual([expect.stringContaining('A migration imports no code of the project')]);
    const library = await violations(
      'server/src/platform/db/migrations/0099-example.ts',
      "import { sql } from 'kysely';\nexport const y = sql;\n",
    );
    expect(library).toEqual([]);
  }, 60_000);

  it('lets tests compose the whole app', async () => {
    const found = await violations(
      'server/src/platform/search/example.test.ts',
      "import { x } from '../../modules/library/library-repository';\nexport const y = x;\n",
    );
    expect(found).toEqual([]);
  }, 60_000);
});
