/**
 * Zod 4 runs in "jitless" mode everywhere. Otherwise the first object schema built probes
 * whether `new Function` is allowed (and later compiles parsers with it); under the web app's
 * Content-Security-Policy (`script-src 'self'`, no `'unsafe-eval'`) the browser refuses the probe
 * and reports a `securitypolicyviolation` on every page load, even though zod swallows the error.
 * Jitless parsing is the same parsing without generated code, so server and browser also validate
 * the contracts identically.
 *
 * The setting is global (zod keeps it on `globalThis`) but is read when a schema is built, so
 * this module must be evaluated before any schema exists: core's entry imports it first, the web
 * app's entry (web/src/main.tsx) imports it before anything else, and the web build puts it into
 * the zod chunk (web/build/vendor-chunks.ts), which runs before every chunk that uses zod.
 */
import { z } from 'zod';

z.config({ jitless: true });
