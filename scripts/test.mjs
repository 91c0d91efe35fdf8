#!/usr/bin/env node
// `npm test`: the whole suite. Unit, component and integration tests (Vitest: core, server on
// SQLite and on PostgreSQL, web), then the browser tests (Playwright in Debian Chromium against
// the built app). `--only=unit` or `--only=e2e` runs one half.
//
// A service a test needs but cannot find fails the run under CI=true and is skipped with a loud
// notice elsewhere (PostgreSQL is probed by the server tests themselves).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
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

let failed = 0;
if (only === undefined || only === 'unit') {
  failed += run('npx', ['vitest', 'run']) === 0 ? 0 : 1;
}
if (only === undefined || only === 'e2e') {
  if (ensureChromium()) {
    if (run('npm', ['run', '--silent', 'build']) !== 0) process.exit(1);
    failed += run('npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts']) === 0 ? 0 : 1;
  }
}
process.exit(failed ? 1 : 0);
