import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * One Vitest run for every workspace: core (node), server on SQLite and on PostgreSQL (the same
 * tests twice, against real databases), and web components (jsdom).
 */
export default defineConfig({
  test: {
    // Vitest's default in a run is one worker fewer than the cores: a single worker on the two-core
    // CI machine, where much of the suite waits on hashing threads, slapd, PostgreSQL and sockets.
    // Two at least halves the server suite's time there (the suite is parallel-safe: it runs so on
    // any larger machine).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        test: {
          name: 'core',
          include: ['core/src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'server-sqlite',
          include: ['server/src/**/*.test.ts'],
          environment: 'node',
          // A worker's files share its modules (the app's, the compiled serialisers): importing
          // the server again for every file cost more than a third of the server suite's time.
          // So no module state may carry from one file to the next (docs/testing.md).
          isolate: false,
          globalSetup: ['server/src/test/global-setup.ts'],
          setupFiles: ['server/src/test/setup.ts'],
          env: { TEST_DB: 'sqlite' },
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'server-postgres',
          include: ['server/src/**/*.test.ts'],
          environment: 'node',
          // A worker's files share its modules (the app's, the compiled serialisers): importing
          // the server again for every file cost more than a third of the server suite's time.
          // So no module state may carry from one file to the next (docs/testing.md).
          isolate: false,
          globalSetup: ['server/src/test/global-setup.ts'],
          setupFiles: ['server/src/test/setup.ts'],
          env: { TEST_DB: 'postgres' },
          testTimeout: 20_000,
        },
      },
      {
        root: 'web',
        test: {
          name: 'web',
          // build/: the build's own rules (which chunk a module goes to).
          include: ['src/**/*.test.{ts,tsx}', 'build/**/*.test.ts'],
          environment: 'jsdom',
          setupFiles: ['src/test/setup.ts'],
          // As on the server: a worker's files share its modules (half the web suite's time was
          // setting up jsdom and importing Mantine and the app again for every file). The setup
          // file resets what tests change after each test (docs/testing.md).
          isolate: false,
          css: false,
          // Above Testing Library's 5 s wait (src/test/setup.ts), so a slow page fails on its own
          // assertion rather than on the test's clock.
          testTimeout: 20_000,
        },
      },
    ],
  },
});
