/**
 * The entry configures zod before anything else is evaluated: ES modules run in import order,
 * and zod probes `new Function` (a CSP `unsafe-eval` violation on every page load) when the first
 * object schema is built unless `jitless` is already on (see core/src/zod-config.ts).
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import mainSource from './main.tsx?raw';

describe('web entry', () => {
  it('imports the zod configuration first', () => {
    const imports = [...mainSource.matchAll(/^import\s+(?:[^'"]*from\s+)?['"]([^'"]+)['"]/gm)].map(
      (m) => m[1],
    );
    expect(imports[0]).toBe('@learning-hub/core/zod-config');
  });

  it('turns zod jitless', async () => {
    await import('@learning-hub/core/zod-config');
    expect(z.config().jitless).toBe(true);
  });
});
