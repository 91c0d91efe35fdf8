/**
 * zod's configuration must run before any module builds a schema, in the built app as in the
 * source: it goes into the zod chunk (vendor-chunks.ts), which every chunk that uses zod imports,
 * so it runs before them. In any other chunk it ran after the chunks that chunk imports — the
 * route guard's and the contracts' schemas were built with zod's default and the browser reported
 * a CSP `eval` violation on every page.
 */
import { existsSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { vendorChunkOf } from './vendor-chunks.ts';

describe('vendor chunks', () => {
  it('put core’s zod configuration into the zod chunk, with zod itself', () => {
    const config = join(import.meta.dirname, '../../core/src/zod-config.ts');
    expect(existsSync(config)).toBe(true);
    // The ids the bundler sees: real paths (workspace links resolved).
    const zod = realpathSync(createRequire(join(import.meta.dirname, 'x')).resolve('zod'));
    expect(vendorChunkOf(zod)).toBe('zod');
    expect(vendorChunkOf(realpathSync(config))).toBe('zod');
    expect(
      vendorChunkOf(realpathSync(join(import.meta.dirname, '../../core/src/index.ts'))),
    ).toBeNull();
  });
});
