/**
 * `server/dist/admin.js`: refuses an unsupported Node.js line before anything else is loaded (a
 * native module of an older line crashes without a word), then runs the admin command line
 * (./admin, bundled as admin-cli.js). As server.ts does for the server.
 */
import { exitUnlessSupportedNode } from '../node-version.mjs';

exitUnlessSupportedNode();
const cli = import.meta.url.endsWith('.ts') ? './admin.ts' : './admin-cli.js';
await import(cli);
