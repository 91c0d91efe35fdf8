/**
 * `npm run bench`: throughput of the authenticated `GET /api/auth/me` (bearer token → session
 * lookup → user → access snapshot, on the embedded SQLite database) against a bare Fastify route,
 * measured in the same run with autocannon from this process, each server in its own child
 * process, in alternating rounds (the round with the median ratio counts). Both servers log
 * nothing per request (LOG_LEVEL=warn), so the comparison is the request path itself.
 * Target: me ≥ 0.5 × bare.
 *
 * The request path, in short: the app's onRequest hooks (request id, precomputed security
 * headers), then the route's own access guard, which on SQLite answers a cached session (hash of
 * the token, one version check of the tables it was read from) and loaded permissions without
 * waiting for anything; request.log is not made unless something is logged at the set level.
 *
 * Environment: BENCH_DURATION (seconds per route and round, default 5), BENCH_ROUNDS (default 5),
 * BENCH_CONNECTIONS (default 50), BENCH_PORT (the app's port, the bare server's is 300 above; default a random one from 3400).
 *
 * Last line: `req/s me=<n> bare=<n>`.
 */
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureServerBuilt, REPO_ROOT, stop, waitForHttp } from './server-process';
import autocannon from 'autocannon';

const root = REPO_ROOT;
const DURATION_S = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

interface Figures {
  requests: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

async function load(
  url: string,
  headers: Record<string, string>,
  duration: number,
): Promise<Figures> {
  const result = await autocannon({ url, headers, connections: CONNECTIONS, duration });
  return {
    requests: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

async function main(): Promise<void> {
  ensureServerBuilt();
  const dir = mkdtempSync(join(tmpdir(), 'lh-bench-'));
  const mePort = process.env.BENCH_PORT
    ? Number(process.env.BENCH_PORT)
    : 3400 + Math.floor(Math.random() * 200);
  const barePort = mePort + 300;

  // Both servers run for the whole benchmark, each in its own process; only the one under load
  // does any work. The rounds alternate between them, so a change in the machine's load (another
  // process, a slower minute) falls on both alike; the round with the median ratio counts.
  const app = fork(join(root, 'server/dist/server.js'), [], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(mePort),
      HOST: '127.0.0.1',
      SQLITE_PATH: join(dir, 'bench.db'),
      LOG_LEVEL: 'warn',
      SEED_DEMO: 'true',
      NODE_ENV: 'production',
    },
    stdio: 'inherit',
  });
  const bare = fork(join(root, 'bench/bare-server.mjs'), [], {
    env: { ...process.env, PORT: String(barePort) },
    stdio: 'inherit',
  });
  const meRuns: Figures[] = [];
  const bareRuns: Figures[] = [];
  try {
    await waitForHttp(`http://127.0.0.1:${mePort}/healthz`, app);
    await waitForHttp(`http://127.0.0.1:${barePort}/bare`, bare);
    const login = await fetch(`http://127.0.0.1:${mePort}/api/auth/local`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'admin-demo-pass' }),
    });
    const { token } = (await login.json()) as { token: string };
    const headers = { authorization: `Bearer ${token}` };
    const check = await fetch(`http://127.0.0.1:${mePort}/api/auth/me`, { headers });
    if (check.status !== 200) throw new Error(`GET /api/auth/me answered ${check.status}`);
    const meUrl = `http://127.0.0.1:${mePort}/api/auth/me`;
    const bareUrl = `http://127.0.0.1:${barePort}/bare`;
    // A short warm-up of each, so JIT and caches settle before the measured rounds.
    await load(meUrl, headers, 2);
    await load(bareUrl, {}, 2);
    for (let round = 1; round <= ROUNDS; round++) {
      meRuns.push(await load(meUrl, headers, DURATION_S));
      bareRuns.push(await load(bareUrl, {}, DURATION_S));
      const m = meRuns[round - 1]!;
      const b = bareRuns[round - 1]!;
      console.log(
        `round ${round}: me ${Math.round(m.requests)} req/s, bare ${Math.round(b.requests)} req/s, ratio ${(m.requests / b.requests).toFixed(2)}`,
      );
    }
  } finally {
    await Promise.all([stop(app), stop(bare)]);
    rmSync(dir, { recursive: true, force: true });
  }

  // The round whose ratio is the median: each round pairs two runs a few seconds apart, so its
  // ratio is what the machine's load disturbs least.
  const roundRatios = meRuns.map((m, i) => m.requests / bareRuns[i]!.requests);
  const middle = roundRatios.indexOf(median(roundRatios));
  const me = meRuns[middle]!;
  const peer = bareRuns[middle]!;
  const ratio = roundRatios[middle]!;
  console.log('');
  console.log(
    `autocannon: ${CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${DURATION_S} s per route (after 2 s warm-up); the round with the median ratio`,
  );
  console.log('route                         req/s      p50 ms   p99 ms   errors  non-2xx');
  for (const [name, f] of [
    ['GET /api/auth/me (bearer)', me],
    ['GET /bare (bare Fastify)', peer],
  ] as const) {
    console.log(
      `${name.padEnd(28)}  ${Math.round(f.requests).toString().padStart(8)}  ${f.p50
        .toFixed(1)
        .padStart(7)}  ${f.p99.toFixed(1).padStart(7)}  ${String(f.errors).padStart(6)}  ${String(
        f.non2xx,
      ).padStart(7)}`,
    );
  }
  console.log(
    `ratio me/bare = ${ratio.toFixed(2)} (target ≥ 0.50: ${ratio >= 0.5 ? 'met' : 'NOT met'})`,
  );
  if (meRuns.some((m) => m.non2xx > 0 || m.errors > 0)) {
    console.log('WARNING: the authenticated run had failures');
  }
  console.log(`req/s me=${Math.round(me.requests)} bare=${Math.round(peer.requests)}`);
}

await main();
