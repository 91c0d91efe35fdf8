/**
 * `npm run bench:db-restart`: the built server, in its own process on a throwaway PostgreSQL
 * (initdb/pg_ctl; as root they run as the `postgres` user), under write load while PostgreSQL is
 * restarted with `pg_ctl -m fast` (issue 28). The scenario is the server test's
 * (scripts/fixtures/db-restart.ts): writers create departments through the API, PostgreSQL is
 * stopped, kept down BENCH_DOWN_MS (2,000) and started again; every acknowledged write is looked up
 * afterwards. Runs it BENCH_RUNS (3) times, a fresh database each time, on one cluster.
 *
 * Per run: `exits=<n> lost=<n> recovery_ms=<n> errors_5xx_other_than_503=<n>` (and the answers by
 * status, /readyz during the outage, the server's error lines). Targets: no exit, nothing lost, no
 * 5xx but 503, recovery within 10 s of PostgreSQL accepting connections again.
 * Knobs: BENCH_RUNS, BENCH_DOWN_MS, BENCH_WRITERS, BENCH_SKIP_BUILD=1.
 *
 * Last line: `db-restart runs=<n> exits=<n> lost=<n> recovery_ms_max=<n>`.
 */
import { join } from 'node:path';
import { runDbRestartScenario } from '../scripts/fixtures/db-restart';
import { isPostgresServerAvailable, startPostgres } from '../scripts/fixtures/postgres';
import { ensureServerBuilt, REPO_ROOT } from './server-process';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const DOWN_MS = Number(process.env.BENCH_DOWN_MS ?? 2_000);
const WRITERS = Number(process.env.BENCH_WRITERS ?? 4);
const RECOVERY_LIMIT_MS = 10_000;

if (!isPostgresServerAvailable()) {
  console.error('bench:db-restart needs initdb and pg_ctl (apt-get install -y postgresql)');
  process.exit(1);
}
ensureServerBuilt();
const built = (file: string) => ({
  command: process.execPath,
  args: [join(REPO_ROOT, 'server/dist', file)],
});

const postgres = await startPostgres();
let exits = 0;
let lost = 0;
let recoveryMax = 0;
let failed = false;
try {
  for (let run = 1; run <= RUNS; run++) {
    const result = await runDbRestartScenario(postgres, {
      cwd: REPO_ROOT,
      server: built('server.js'),
      admin: built('admin.js'),
      writers: WRITERS,
      downMs: DOWN_MS,
      recoveryLimitMs: RECOVERY_LIMIT_MS,
    });
    exits += result.exits;
    lost += result.lost;
    recoveryMax = Math.max(recoveryMax, result.recoveryMs ?? Infinity);
    const statuses = Object.entries(result.statuses)
      .map(([status, count]) => `${status}:${count}`)
      .join(',');
    const ready = [...new Set(result.readyDuringOutage)].join(',') || '-';
    console.log(
      `run ${run}: exits=${result.exits} lost=${result.lost} recovery_ms=${result.recoveryMs ?? 'none'} ` +
        `errors_5xx_other_than_503=${result.errors5xxOther503} (acknowledged=${result.acknowledged} ` +
        `answers=${statuses} other_answers=${result.badAnswers.length} readyz_down=${ready} ` +
        `readyz_after=${result.readyAfter} error_log_lines=${result.errorLogLines})`,
    );
    if (
      result.exits > 0 ||
      result.lost > 0 ||
      result.recoveryMs === null ||
      result.badAnswers.length > 0
    ) {
      failed = true;
      console.log(result.output.slice(-4_000));
    }
  }
} finally {
  await postgres.stop();
}
console.log(
  `db-restart runs=${RUNS} exits=${exits} lost=${lost} recovery_ms_max=${
    Number.isFinite(recoveryMax) ? recoveryMax : 'none'
  }`,
);
if (failed) process.exitCode = 1;
