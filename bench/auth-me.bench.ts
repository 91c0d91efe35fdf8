/**
 * `npm run bench`: throughput of the authenticated `GET /api/auth/me` (bearer token → session
 * lookup → user → access snapshot, on the embedded SQLite database) against a bare Fastify route,
 * measured in the same run with autocannon from this process while each server runs alone in its
 * own child process. Both servers log nothing per request (LOG_LEVEL=warn), so the comparison is
 * the request path itself. Target: me ≥ 0.5 × bare.
 *
 * The request path, in short: the app's onRequest hooks (request id, precomputed security
 * headers), then the route's own access guard, which on SQLite answers a cached session (hash of
 * the token, one version check of the tables it was read from) and loaded permissions without
 * waiting for anything; request.log is not made unless something is logged at the set level.
 *
 * Environment: BENCH_DURATION (seconds per route, default 10), BENCH_CONNECTIONS (default 50),
 * BENCH_PORT (the app's port, the bare server's is 300 above; default a random one from 3400).
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
const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);

interface Figures {
  requests: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

async function load(url: string, headers: Record<string, string> = {}): Promise<Figures> {
  // Short warm-up so JIT and caches settle before the measured run.
  await autocannon({ url, headers, connections: CONNECTIONS, duration: 2 });
  const result = await autocannon({ url, headers, connections: CONNECTIONS, duration: DURATION_S });
  return {
    requests: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

async function main(): Promise<void> {
  ensureServerBuilt();
  const dir = mkdtempSync(join(tmpdir(), 'lh-bench-'));
  const mePort = process.env.BENCH_PORT
    ? Number(process.env.BENCH_PORT)
    : 3400 + Math.floor(Math.random() * 200);
  const barePort = mePort + 300;

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
  let me: Figures;
  try {
    await waitForHttp(`http://127.0.0.1:${mePort}/healthz`, app);
    const login = await fetch(`http://127.0.0.1:${mePort}/api/auth/local`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'admin-demo-pass' }),
    });
    const { token } = (await login.json()) as { token: string };
    const headers = { authorization: `Bearer ${token}` };
    const check = await fetch(`http://127.0.0.1:${mePort}/api/auth/me`, { headers });
    if (check.status !== 200) throw new Error(`GET /api/auth/me answered ${check.status}`);
    me = await load(`http://127.0.0.1:${mePort}/api/auth/me`, headers);
  } finally {
    await stop(app);
    rmSync(dir, { recursive: true, force: true });
  }

  const bare = fork(join(root, 'bench/bare-server.mjs'), [], {
    env: { ...process.env, PORT: String(barePort) },
    stdio: 'inherit',
  });
  let peer: Figures;
  try {
    await waitForHttp(`http://127.0.0.1:${barePort}/bare`, bare);
    peer = await load(`http://127.0.0.1:${barePort}/bare`);
  } finally {
    await stop(bare);
  }

  const ratio = me.requests / peer.requests;
  console.log('');
  console.log(
    `autocannon: ${CONNECTIONS} connections, ${DURATION_S} s per route (after 2 s warm-up)`,
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
  if (me.non2xx > 0 || me.errors > 0) console.log('WARNING: the authenticated run had failures');
  console.log(`req/s me=${Math.round(me.requests)} bare=${Math.round(peer.requests)}`);
}

await main();
