import { defineConfig } from '@playwright/test';
import {
  BASE_URL,
  DEV_BASE_URL,
  DEV_DB_PATH,
  DEV_PORT,
  E2E_DB_PATH,
  E2E_PORT,
  REPO_ROOT,
} from './support/env';

/**
 * Browser tests in Debian's Chromium (never a downloaded browser) against the built app, served by
 * the real server on a fresh SQLite database with the demo data.
 */
export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  outputDir: '../test-results',
  // CI runs two workers on two cores, where Chromium alone keeps the load near 10: a test that
  // takes 15 s on a quiet machine can take 35 s there, so CI allows twice the time.
  timeout: process.env.CI ? 60_000 : 30_000,
  expect: { timeout: process.env.CI ? 12_000 : 7_000 },
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  retries: 0,
  reporter: [
    ['list'],
    // `npm test` prints the slowest files and one summary line from this (scripts/test.mjs).
    ...(process.env.TEST_TIMINGS_FILE
      ? [['../scripts/test-report/playwright-reporter.ts'] as const]
      : []),
  ],
  use: {
    baseURL: BASE_URL,
    browserName: 'chromium',
    // A trace records every action of every test (DOM snapshots, screenshots), a tenth or more of
    // a test's time, to keep it for the few that fail. CI keeps only what the run printed, so CI
    // records none: rerun a failure with `--trace on` (docs/testing.md).
    trace: process.env.CI ? 'off' : 'retain-on-failure',
    // Drawers and menus appear at once, so axe scans their final state, not a fade.
    reducedMotion: 'reduce',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  webServer: [
    {
      command: 'node scripts/e2e-server.mjs',
      cwd: REPO_ROOT,
      url: `${BASE_URL}/readyz`,
      reuseExistingServer: false,
      timeout: 90_000,
      env: {
        PORT: String(E2E_PORT),
        HOST: '127.0.0.1',
        SQLITE_PATH: E2E_DB_PATH,
        SEED_DEMO: 'true',
        LOG_LEVEL: 'warn',
        NODE_ENV: 'production',
      },
    },
    {
      command: 'node scripts/e2e-server.mjs --dev',
      cwd: REPO_ROOT,
      url: `${DEV_BASE_URL}/readyz`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: {
        PORT: String(DEV_PORT),
        HOST: '127.0.0.1',
        SQLITE_PATH: DEV_DB_PATH,
        SEED_DEMO: 'true',
        LOG_LEVEL: 'warn',
        NODE_ENV: 'development',
        DEV_MODE: 'true',
      },
    },
  ],
});
