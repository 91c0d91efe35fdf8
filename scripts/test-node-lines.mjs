#!/usr/bin/env node
// `npm run test:node-lines`: the other supported Node.js lines (22 and 26; 24 is the pinned one
// that `npm test` runs on). For each, its binary comes from the npm registry (the
// node-<platform>-<arch> package at an exact version, installed into a cache folder under the
// system's temp directory with `npm install --prefix … --no-save`), and with it:
//   1. the core Vitest project (the permission model, contracts, rules);
//   2. a smoke test: the built server started on a free port with a temporary SQLite database and
//      SEED_DEMO=true: GET /healthz, the start-up log names the binary's version, a demo sign-in
//      (POST /api/auth/local as admin) answers 200, and GET /api/admin/system reports the version.
//      That start runs every migration and the demo seed on the line's own better-sqlite3 and
//      argon2 bindings, the native parts that differ per Node.js line. The server's own suite (on
//      SQLite and PostgreSQL) runs with `npm test` on the pinned Node.js 24; see docs/runtime.md.
// A native-module or API break on either line fails the run. Each step prints its elapsed time.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Exact versions, moved on deliberately (the newest release of each line when last updated). */
const LINES = ['22.23.3', '26.10.0'];

const root = fileURLToPath(new URL('..', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const only = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length);
const started = Date.now();

const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

async function step(label, fn) {
  const since = Date.now();
  console.log(`\n▶ ${label}`);
  try {
    const result = await fn();
    console.log(`✔ ${label} (${seconds(since)})`);
    return result;
  } catch (error) {
    console.error(
      `✘ ${label} (${seconds(since)}): ${error instanceof Error ? error.message : error}`,
    );
    throw error;
  }
}

/** The registry package that carries Node.js for this machine (as the npm `node` package picks). */
function binaryPackage() {
  const platform = process.platform === 'win32' ? 'win' : process.platform;
  const prefix = process.platform === 'darwin' && process.arch === 'arm64' ? 'node-bin' : 'node';
  return `${prefix}-${platform}-${process.arch}`;
}

/** Installs (or reuses) the Node.js binary of `version`; returns its path. */
function installNode(version) {
  const pkg = binaryPackage();
  const dir = join(tmpdir(), 'learning-hub-node-lines', version);
  const bin = join(
    dir,
    'node_modules',
    pkg,
    'bin',
    process.platform === 'win32' ? 'node.exe' : 'node',
  );
  const reported = () =>
    existsSync(bin)
      ? spawnSync(bin, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout?.trim()
      : '';
  if (reported() === version) return bin;
  mkdirSync(dir, { recursive: true });
  const result = spawnSync(
    npm,
    [
      'install',
      '--prefix',
      dir,
      '--no-save',
      '--no-audit',
      '--no-fund',
      '--no-package-lock',
      `${pkg}@${version}`,
    ],
    { stdio: 'inherit' },
  );
  if (result.status !== 0) throw new Error(`npm install ${pkg}@${version} failed`);
  if (reported() !== version) throw new Error(`${bin} does not report ${version}`);
  return bin;
}

/** Runs `bin args` with the binary's folder first on PATH (so `node` in child processes is it). */
function run(bin, args, env = {}) {
  const result = spawnSync(bin, args, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, PATH: `${dirname(bin)}${delimiter}${process.env.PATH ?? ''}`, ...env },
  });
  if (result.status !== 0)
    throw new Error(`${args.join(' ')} exited with ${result.status ?? result.signal}`);
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen({ port: 0, host: '127.0.0.1' }, () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts the built server with `bin`, checks /healthz, a demo sign-in and the version Admin →
 * System reports, stops it.
 */
async function smoke(bin, version) {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'lh-node-smoke-'));
  const output = [];
  const child = spawn(bin, ['server/dist/server.js'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      SQLITE_PATH: join(dir, 'smoke.db'),
      SEED_DEMO: 'true',
      LOG_LEVEL: 'info',
      NODE_ENV: 'production',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (chunk) => output.push(chunk));
  child.stderr.on('data', (chunk) => output.push(chunk));
  const base = `http://127.0.0.1:${port}`;
  try {
    let health = null;
    for (let i = 0; i < 300 && !health; i++) {
      if (child.exitCode !== null) break;
      try {
        const res = await fetch(`${base}/healthz`);
        if (res.ok) health = await res.json();
      } catch {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    if (!health) throw new Error(`the server did not answer /healthz:\n${Buffer.concat(output)}`);
    console.log(`  /healthz → ${JSON.stringify(health)}`);
    if (!Buffer.concat(output).toString().includes(`Node v${version}`))
      throw new Error(`the start-up log does not name Node v${version}`);
    const res = await fetch(`${base}/api/auth/local`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'admin-demo-pass' }),
    });
    if (res.status !== 200)
      throw new Error(`POST /api/auth/local as admin → ${res.status} ${await res.text()}`);
    const body = await res.json();
    console.log(`  POST /api/auth/local (admin) → 200, signed in as ${body.user?.username}`);
    // The version is shown to admins only (Admin → System), never on the public /healthz.
    const system = await fetch(`${base}/api/admin/system`, {
      headers: { authorization: `Bearer ${body.token}` },
    });
    if (system.status !== 200)
      throw new Error(`GET /api/admin/system → ${system.status} ${await system.text()}`);
    const { node } = await system.json();
    if (node !== `v${version}`)
      throw new Error(`GET /api/admin/system reports node ${node}, expected v${version}`);
    console.log(`  GET /api/admin/system (admin) → node ${node}`);
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode !== null ? r() : child.once('exit', r)));
    rmSync(dir, { recursive: true, force: true });
  }
}

try {
  await step('build the server (pinned Node.js)', () => {
    const result = spawnSync(npm, ['run', '--silent', 'build:server'], {
      cwd: root,
      stdio: 'inherit',
    });
    if (result.status !== 0) throw new Error('npm run build:server failed');
  });
  for (const version of LINES) {
    if (only && !version.startsWith(`${only}.`)) continue;
    const bin = await step(`Node.js ${version}: install ${binaryPackage()}@${version}`, () =>
      installNode(version),
    );
    await step(`Node.js ${version}: vitest core`, () =>
      run(bin, ['node_modules/vitest/vitest.mjs', 'run', '--project', 'core']),
    );
    await step(`Node.js ${version}: start → /healthz → sign-in`, () => smoke(bin, version));
  }
  const ran = LINES.filter((v) => !only || v.startsWith(`${only}.`));
  console.log(`\nNode.js lines ${ran.join(', ')}: all passed (${seconds(started)})`);
} catch {
  console.error(`\nNode.js lines: FAILED (${seconds(started)})`);
  process.exit(1);
}
