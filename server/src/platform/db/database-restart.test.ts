/**
 * The server survives a PostgreSQL restart under write load (issue 28): the real server in its own
 * process (the honest way to see it exit), on a throwaway PostgreSQL the test starts itself, which
 * is stopped with `pg_ctl -m fast` mid-load and started again (scripts/fixtures/db-restart.ts).
 * Needs initdb and pg_ctl, not the test database: it runs once per `npm test`, in the PostgreSQL
 * project. The figures (recovery time over several runs) are `npm run bench:db-restart`'s.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  runDbRestartScenario,
  type DbRestartResult,
} from '../../../../scripts/fixtures/db-restart';
import { run } from '../../../../scripts/fixtures/processes';
import {
  isPostgresServerAvailable,
  startPostgres,
  type PostgresFixture,
} from '../../../../scripts/fixtures/postgres';
import { requireTool, TEST_DB_KIND } from '../../test/helpers';

const ROOT = fileURLToPath(new URL('../../../..', import.meta.url));

const enabled =
  TEST_DB_KIND === 'postgres' &&
  requireTool(
    'initdb and pg_ctl',
    isPostgresServerAvailable(),
    'apt-get install -y postgresql (and, as root, a postgres user)',
  );

describe.runIf(enabled)('a PostgreSQL restart under write load', () => {
  let postgres: PostgresFixture;
  let result: DbRestartResult;
  let bundle: string;

  beforeAll(async () => {
    // The server as it ships, bundled from this checkout into a directory of its own (a second
    // or two; starting it from source under tsx took ten). Under server/, so that its
    // dependencies resolve as they do from server/dist.
    mkdirSync(join(ROOT, 'server/dist'), { recursive: true });
    bundle = mkdtempSync(join(ROOT, 'server/dist/.db-restart-'));
    const [cluster] = await Promise.all([
      startPostgres(),
      run(process.execPath, [join(ROOT, 'server/build.mjs'), `--outdir=${bundle}`]),
    ]);
    postgres = cluster;
    const built = (file: string) => ({ command: process.execPath, args: [join(bundle, file)] });
    result = await runDbRestartScenario(postgres, {
      cwd: ROOT,
      server: built('server.js'),
      admin: built('admin.js'),
      writers: 3,
      loadBeforeMs: 1_000,
      downMs: 1_500,
      loadAfterMs: 500,
    });
  }, 90_000);
  afterAll(async () => {
    await postgres?.stop();
    if (bundle) rmSync(bundle, { recursive: true, force: true });
  });

  it('the server process never exits', () => {
    expect(result.exits, result.output).toBe(0);
  });

  it('answers every write 2xx, or 503 with Retry-After and { code, message }: never a 500', () => {
    expect(result.badAnswers, JSON.stringify(result.statuses)).toEqual([]);
    // The load did meet the outage.
    expect(result.statuses[503] ?? 0).toBeGreaterThan(0);
    expect(result.acknowledged).toBeGreaterThan(0);
  });

  it('recovers by itself once PostgreSQL is back, losing no acknowledged write', () => {
    expect(result.recoveryMs).not.toBeNull();
    expect(result.lost).toBe(0);
  });

  it('/readyz is 503 while PostgreSQL is down and 200 after', () => {
    expect(result.readyDuringOutage.length).toBeGreaterThan(0);
    expect(new Set(result.readyDuringOutage)).toEqual(new Set([503]));
    expect(result.readyAfter).toBe(200);
  });

  it('logs the outage once, not once per failed request or job poll', () => {
    expect(result.errorLogLines, result.errorLog.join('\n')).toBeLessThanOrEqual(1);
  });
});
