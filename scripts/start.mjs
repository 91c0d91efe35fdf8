#!/usr/bin/env node
// `npm start`: builds the web app when it is missing or older than its sources, bundles the
// server, then runs it (it migrates, seeds demo data on an empty database and serves everything
// from one port). Under `npm start` this runs on the pinned Node.js 24 (node_modules/.bin); run
// directly on an unsupported line it refuses first, as the server's entry point does.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exitUnlessSupportedNode } from '../server/src/node-version.mjs';

exitUnlessSupportedNode();

const root = fileURLToPath(new URL('..', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

function run(args) {
  const result = spawnSync(npm, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const webIndex = join(root, 'web/dist/index.html');
const webSources = Math.max(
  newestMtime(join(root, 'web/src')),
  newestMtime(join(root, 'core/src')),
  statSync(join(root, 'web/index.html')).mtimeMs,
);
if (!existsSync(webIndex) || statSync(webIndex).mtimeMs < webSources) {
  console.log('Building the web app…');
  run(['run', '--silent', 'build:web']);
}
run(['run', '--silent', 'build:server']);

const child = spawn(
  process.execPath,
  ['--enable-source-maps', join(root, 'server/dist/server.js')],
  {
    cwd: root,
    stdio: 'inherit',
  },
);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
