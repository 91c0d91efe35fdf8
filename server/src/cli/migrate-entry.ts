/**
 * `server/dist/migrate.js`: refuses an unsupported Node.js line before anything else is loaded,
 * then migrates (./migrate, bundled as migrate-cli.js). As server.ts does for the server.
 */
import { exitUnlessSupportedNode } from '../node-version.mjs';

exitUnlessSupportedNode();
const cli = import.meta.url.endsWith('.ts') ? './migrate.ts' : './migrate-cli.js';
await import(cli);
