#!/usr/bin/env node
// `npm test`: the whole suite. Unit, component and integration tests (Vitest: core, server on
// SQLite and on PostgreSQL, web), then the browser tests (Playwright in Debian Chromium against
// the built app). `--only=unit` or `--only=e2e` runs one half. At the end: the 15 slowest test
// files with their seconds, then one line for all runners together: `N passed, N failed`
// (`, N skipped` when any were). See docs/testing.md.
//
// A service a test needs but cannot find fails the run under CI=true and is skipped with a loud
// notice elsewhere (PostgreSQL is probed by the server tests themselves).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const only = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length);
const inCi = process.env.CI === 'true' || process.env.CI === '1';
const CHROMIUM = '/usr/bin/chromium';

function run(command, args, env = {}) {
  const result = spawnSync(command, args, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  return result.status ?? 1;
}

function loud(message) {
  const bar = '!'.repeat(78);
  console.warn(`\n${bar}\n!! ${message}\n${bar}\n`);
}

/** Installs Debian packages when this user may (root with apt-get); true when they are there. */
function aptInstall(check, packages, purpose) {
  if (check()) return true;
  const canInstall = process.getuid?.() === 0 && existsSync('/usr/bin/apt-get');
  if (canInstall) {
    console.log(`Installing ${packages.join(' ')} for ${purpose} (apt-get install -y)…`);
    const env = { DEBIAN_FRONTEND: 'noninteractive' };
    if (run('apt-get', ['install', '-y', '-qq', ...packages], env) !== 0) {
      run('apt-get', ['update', '-qq'], env);
      run('apt-get', ['install', '-y', '-qq', ...packages], env);
    }
  }
  return check();
}

function ensureChromium() {
  if (aptInstall(() => existsSync(CHROMIUM), ['chromium'], 'the browser tests')) return true;
  if (inCi) {
    console.error(`The browser tests need ${CHROMIUM} (apt-get install -y chromium).`);
    process.exit(1);
  }
  loud(`SKIPPING the browser tests: ${CHROMIUM} is missing (apt-get install -y chromium).`);
  return false;
}

// The directory tests run a throwaway OpenLDAP server (they skip loudly, or fail under CI, without).
aptInstall(
  () => existsSync('/usr/sbin/slapd') && existsSync('/usr/bin/ldapadd'),
  ['slapd', 'ldap-utils'],
  'the directory sign-in tests',
);

// Each runner writes its per-file timings here (scripts/test-report/*-reporter.ts).
const timingsDir = mkdtempSync(join(tmpdir(), 'lh-test-timings-'));
const timingsOf = (runner) => join(timingsDir, `${runner}.json`);
const started = Date.now();
const wall = {};

let failed = 0;
if (only === undefined || only === 'unit') {
  const since = Date.now();
  const status = run(
    'npx',
    ['vitest', 'run', '--reporter=default', '--reporter=./scripts/test-report/vitest-reporter.ts'],
    { TEST_TIMINGS_FILE: timingsOf('vitest') },
  );
  wall.vitest = Date.now() - since;
  failed += status === 0 ? 0 : 1;
}
if (only === undefined || only === 'e2e') {
  if (ensureChromium()) {
    const since = Date.now();
    if (run('npm', ['run', '--silent', 'build']) !== 0) process.exit(1);
    wall.build = Date.now() - since;
    const e2eSince = Date.now();
    const status = run('npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts'], {
      TEST_TIMINGS_FILE: timingsOf('playwright'),
    });
    wall.playwright = Date.now() - e2eSince;
    failed += status === 0 ? 0 : 1;
  }
}

/** The timings a runner wrote, or none when it wrote nothing (it crashed before its end). */
function readTimings(runner) {
  try {
    return JSON.parse(readFileSync(timingsOf(runner), 'utf8'));
  } catch {
    return [];
  }
}

const timings = [...readTimings('vitest'), ...readTimings('playwright')];
rmSync(timingsDir, { recursive: true, force: true });
const slowest = [...timings].sort((a, b) => b.seconds - a.seconds).slice(0, 15);
const width = Math.max(0, ...slowest.map((t) => t.project.length));
const seconds = (ms) => `${(ms / 1000).toFixed(0)} s`;
console.log(`\nThe ${slowest.length} slowest test files (seconds of one worker):`);
for (const t of slowest) {
  console.log(`${t.seconds.toFixed(1).padStart(7)}  ${t.project.padEnd(width)}  ${t.file}`);
}
console.log(
  `\nWall time: ${Object.entries(wall)
    .map(([step, ms]) => `${step} ${seconds(ms)}`)
    .join(', ')}; ${seconds(Date.now() - started)} in all.`,
);
const total = (key) => timings.reduce((sum, t) => sum + t[key], 0);
// A runner that failed without writing a result still fails the line.
const failedTests = Math.max(total('failed'), failed);
const skipped = total('skipped');
console.log(
  `${total('passed')} passed, ${failedTests} failed${skipped ? `, ${skipped} skipped` : ''}`,
);
process.exit(failed ? 1 : 0);
