/**
 * The server's entry point (server/dist/server.js): refuses an unsupported Node.js line before
 * anything else is loaded, then starts the server (./main). The specifier of main is computed so
 * that the bundler leaves it out of this file: nothing of the server, nor of its dependencies, is
 * imported before the check.
 */
import { exitUnlessSupportedNode } from './node-version.mjs';

exitUnlessSupportedNode();
const main = import.meta.url.endsWith('.ts') ? './main.ts' : './main.js';
await import(main);
