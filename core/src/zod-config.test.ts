/**
 * Zod must never reach for `new Function` (the web app's CSP refuses it and reports every probe).
 * The module graph of this file is fresh (Vitest isolates test files), so the probe, which zod
 * makes once when the first object schema is built, happens here if at all.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

/** `Function` as a CSP without 'unsafe-eval' makes it: refused, and each attempt recorded. */
function refuseEval(): { attempts: number; restore(): void } {
  const original = globalThis.Function;
  const record = { attempts: 0, restore: () => void (globalThis.Function = original) };
  const refuse = () => {
    record.attempts++;
    throw new EvalError("Refused to evaluate a string as JavaScript: 'unsafe-eval' is not allowed");
  };
  globalThis.Function = new Proxy(original, { construct: refuse, apply: refuse });
  return record;
}

describe('zod configuration', () => {
  it('builds and parses every contract of core without evaluating code', async () => {
    const csp = refuseEval();
    try {
      const core = await import('.');
      expect(z.config().jitless).toBe(true);
      const schemas = (Object.values(core) as unknown[]).filter(
        (value): value is z.ZodType => value instanceof z.ZodType,
      );
      expect(schemas.length).toBeGreaterThan(20);
      for (const schema of schemas) {
        schema.safeParse({ id: 'x', username: 'a', nested: { value: 1 } });
        schema.safeParse({});
        schema.safeParse('text');
      }
      // A schema built after core was loaded, parsed many times (zod compiled hot parsers).
      const late = z.object({ a: z.string(), b: z.object({ c: z.number() }) });
      for (let i = 0; i < 50; i++) late.safeParse({ a: 'x', b: { c: i } });
    } finally {
      csp.restore();
    }
    expect(csp.attempts).toBe(0);
  });
});
