/**
 * `npm run bench:live`: live notifications (issue 30, docs/notifications.md), on the built server
 * in its own process.
 *
 * Population: BENCH_SOCKETS (1,000) people, copies of the demo student written with
 * better-sqlite3 into the database the server made, each with a session (a token whose hash is
 * stored as the server stores it), so that no sign-in's password hashing is measured.
 *
 * One instance: every person connects a socket.io client (WebSocket) to the server, as the web app
 * does, and acknowledges each notification as it arrives (`delivered`), as the web app does. The
 * demo admin then publishes BENCH_ANNOUNCEMENTS (20) urgent announcements to everyone
 * (`POST /api/announcements`, `publish: 'now'`), one every 300 ms, so that a fan-out of a thousand
 * copies is under way for the whole of the probe's run (about 6 s); the latency of each copy is
 * from just before the POST to its arrival at the client. p50 and p99 over every copy.
 *
 * Two instances: a throwaway redis-server (scripts/fixtures/redis.ts) and two server processes on
 * the same database with `REDIS_URL`; half the people connect to each; the announcements are
 * published through the first. The same latencies.
 *
 * The cheap route under load, in each part: `GET /api/auth/me` as one of the people
 * (PROBE_CONNECTIONS at PROBE_RATE, in a process of its own) alone, then while the announcements
 * fan out (same warm-up and duration). The ratio printed is the larger of the two parts'.
 *
 * The bench process runs the 1,000 clients itself: their work shares the machine's two cores with
 * the server, so the latencies are an upper bound of what the server adds.
 *
 * Targets: p99 < 1,000 ms in both parts (goal < 250 ms); `/me` under the fan-out ≤ 3 × its idle
 * p95 (goal 1.5 ×). Knobs: BENCH_SOCKETS, BENCH_ANNOUNCEMENTS, BENCH_SKIP_BUILD=1, BENCH_KEEP=1.
 *
 * Last line: `live sockets=<n> one_p99_ms=<n> two_p99_ms=<n> me_under_load_ratio=<n>`.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { io, type Socket } from 'socket.io-client';
import { getFreePort, startRedis } from '../scripts/fixtures';
import {
  GOAL_UNDER_LOAD_RATIO,
  TARGET_UNDER_LOAD_RATIO,
  probeInOwnProcess,
  REPO_ROOT,
  ensureServerBuilt,
  signIn,
  stop,
  underLoadSummary,
  waitForHttp,
  type Latency,
} from './server-process';

const SOCKETS = Number(process.env.BENCH_SOCKETS ?? 1_000);
const ANNOUNCEMENTS = Number(process.env.BENCH_ANNOUNCEMENTS ?? 20);
/** One announcement to everyone every this many ms: the fan-out runs throughout the probe. */
const SPACING_MS = 300;
const TARGET_P99_MS = 1_000;
const GOAL_P99_MS = 250;
/** The probe runs this long: the announcements' whole fan-out falls inside it. */
const PROBE_S = Math.ceil((ANNOUNCEMENTS * SPACING_MS) / 1000) + 2;

function startServer(dir: string, port: number, extra: Record<string, string> = {}): ChildProcess {
  const { DATABASE_URL: _ignored, REDIS_URL: _none, ...env } = process.env;
  return fork(join(REPO_ROOT, 'server/dist/server.js'), [], {
    cwd: REPO_ROOT,
    env: {
      ...env,
      SQLITE_PATH: join(dir, 'bench.db'),
      PORT: String(port),
      HOST: '127.0.0.1',
      FILES_DIR: join(dir, 'files'),
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
      SEED_DEMO: 'true',
      NODE_ENV: 'production',
      ...extra,
    },
    stdio: 'inherit',
  });
}

/** The people and their sessions, straight into SQL; their tokens. */
function populate(file: string, count: number): string[] {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  const at = new Date().toISOString();
  const expires = new Date(Date.now() + 12 * 3_600_000).toISOString();
  const template = db.prepare(`select * from users where username = 'student'`).get() as Record<
    string,
    unknown
  >;
  const columns = Object.keys(template);
  const insertUser = db.prepare(
    `insert into users (${columns.join(', ')}) values (${columns.map((c) => `@${c}`).join(', ')})`,
  );
  const insertSession = db.prepare(
    `insert into sessions (id, token_hash, user_id, method, created_at, expires_at, last_used_at,
       revoked_at, revoked_reason, ip_address, user_agent)
     values (?, ?, ?, 'local', ?, ?, ?, null, null, '127.0.0.1', 'bench')`,
  );
  const tokens: string[] = [];
  db.transaction(() => {
    for (let i = 0; i < count; i++) {
      const username = `live${String(i).padStart(5, '0')}`;
      const id = `bench-live-${i}`;
      insertUser.run({
        ...template,
        id,
        username,
        username_key: username,
        email: `${username}@fiberco.example`,
        lastname: `Live ${i}`,
        created_at: at,
        updated_at: at,
      });
      const token = randomBytes(32).toString('base64url');
      insertSession.run(
        randomUUID(),
        createHash('sha256').update(token).digest('hex'),
        id,
        at,
        expires,
        at,
      );
      tokens.push(token);
    }
  })();
  db.close();
  return tokens;
}

interface Clients {
  sockets: Socket[];
  /** Arrival time (ms, this process's clock) of each copy, by notification title. */
  arrivals: Map<string, number[]>;
  close(): void;
}

async function connectAll(bases: readonly string[], tokens: readonly string[]): Promise<Clients> {
  const arrivals = new Map<string, number[]>();
  const sockets: Socket[] = [];
  // A few hundred at a time: a thousand handshakes at once would queue in the kernel.
  for (let i = 0; i < tokens.length; i += 200) {
    const batch = tokens.slice(i, i + 200).map(
      (token, j) =>
        new Promise<Socket>((resolve, reject) => {
          const socket = io(bases[(i + j) % bases.length] ?? '', {
            path: '/api/live',
            transports: ['websocket'],
            auth: { token },
            reconnection: false,
            timeout: 20_000,
          });
          socket.on('notification', (n: { id: string; title: string }) => {
            const at = performance.now();
            const list = arrivals.get(n.title) ?? [];
            list.push(at);
            arrivals.set(n.title, list);
            socket.emit('delivered', [n.id]);
          });
          socket.once('connect', () => resolve(socket));
          socket.once('connect_error', reject);
        }),
    );
    sockets.push(...(await Promise.all(batch)));
  }
  return {
    sockets,
    arrivals,
    close: () => {
      for (const s of sockets) s.disconnect();
    },
  };
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN;
}

interface FanOut {
  p50: number;
  p99: number;
  copies: number;
  expected: number;
}

/** Publishes the announcements, one every SPACING_MS; the latency of every copy. */
async function fanOut(
  base: string,
  adminToken: string,
  clients: Clients,
  label: string,
): Promise<FanOut> {
  const latencies: number[] = [];
  const published: { title: string; at: number }[] = [];
  // At a fixed rate (the next one does not wait for the last one's answer): a steady fan-out.
  const start = performance.now();
  const posts: Promise<void>[] = [];
  for (let k = 0; k < ANNOUNCEMENTS; k++) {
    const wait = start + k * SPACING_MS - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const title = `${label}: fibre cut on Route ${k + 1}, road closed`;
    const at = performance.now();
    published.push({ title, at });
    posts.push(
      fetch(`${base}/api/announcements`, {
        method: 'POST',
        headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          title,
          bodyHtml: '<p>Crews reroute through the depot. Read before your next job.</p>',
          audience: { everyone: true, roles: [], departmentIds: [], courseIds: [], userIds: [] },
          priority: 'urgent',
          requiresAck: true,
          publish: 'now',
        }),
      }).then(async (response) => {
        if (response.status !== 201) {
          throw new Error(`publishing answered ${response.status}: ${await response.text()}`);
        }
      }),
    );
  }
  await Promise.all(posts);
  // The last copies: up to 10 s more.
  const expected = clients.sockets.length * ANNOUNCEMENTS;
  const deadline = performance.now() + 10_000;
  const count = () => [...clients.arrivals.values()].reduce((n, l) => n + l.length, 0);
  while (count() < expected && performance.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
  }
  for (const { title, at } of published) {
    for (const arrived of clients.arrivals.get(title) ?? []) latencies.push(arrived - at);
  }
  latencies.sort((a, b) => a - b);
  return {
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    copies: latencies.length,
    expected,
  };
}

function verdict(ok: boolean): string {
  return ok ? 'met' : 'NOT met';
}

function fanOutLine(label: string, f: FanOut): string {
  return (
    `${label}: ${f.copies} of ${f.expected} copies arrived; publish → receipt p50 ${f.p50.toFixed(1)} ms, ` +
    `p99 ${f.p99.toFixed(1)} ms (target < ${TARGET_P99_MS}: ${verdict(f.p99 < TARGET_P99_MS)}, ` +
    `goal < ${GOAL_P99_MS}: ${verdict(f.p99 < GOAL_P99_MS)})`
  );
}

async function underLoad(
  base: string,
  probeToken: string,
  run: () => Promise<FanOut>,
): Promise<{ idle: Latency; underLoad: Latency; fan: FanOut }> {
  const me = `${base}/api/auth/me`;
  const idle = await probeInOwnProcess(me, probeToken, PROBE_S);
  const [loaded, fan] = await Promise.all([probeInOwnProcess(me, probeToken, PROBE_S), run()]);
  return { idle, underLoad: loaded, fan };
}

async function main(): Promise<void> {
  ensureServerBuilt();
  const dir = mkdtempSync(join(tmpdir(), 'lh-bench-live-'));
  const children: ChildProcess[] = [];
  const redis = await startRedis();
  try {
    // ---------------------------------------------------------------- one instance
    const portA = await getFreePort();
    const a = startServer(dir, portA);
    children.push(a);
    const baseA = `http://127.0.0.1:${portA}`;
    await waitForHttp(`${baseA}/healthz`, a);
    const tokens = populate(join(dir, 'bench.db'), SOCKETS);
    const admin = await signIn(baseA, 'admin', 'admin-demo-pass');
    console.log(`${SOCKETS} people with sessions; connecting their sockets to one instance…`);
    let clients = await connectAll([baseA], tokens);
    const one = await underLoad(baseA, tokens[0] ?? '', () => fanOut(baseA, admin, clients, 'one'));
    clients.close();
    console.log(fanOutLine('one instance', one.fan));
    console.log(underLoadSummary('GET /api/auth/me, one instance', one));

    // ---------------------------------------------------------------- two instances
    await stop(a);
    const [portB1, portB2] = [await getFreePort(), await getFreePort()];
    const b1 = startServer(dir, portB1, { REDIS_URL: redis.url });
    const b2 = startServer(dir, portB2, { REDIS_URL: redis.url });
    children.push(b1, b2);
    const base1 = `http://127.0.0.1:${portB1}`;
    const base2 = `http://127.0.0.1:${portB2}`;
    await Promise.all([waitForHttp(`${base1}/healthz`, b1), waitForHttp(`${base2}/healthz`, b2)]);
    const admin2 = await signIn(base1, 'admin', 'admin-demo-pass');
    console.log(`connecting ${SOCKETS / 2} + ${SOCKETS / 2} sockets to two instances with Redis…`);
    clients = await connectAll([base1, base2], tokens);
    const two = await underLoad(base1, tokens[1] ?? '', () =>
      fanOut(base1, admin2, clients, 'two'),
    );
    clients.close();
    console.log(fanOutLine('two instances (Redis)', two.fan));
    console.log(underLoadSummary('GET /api/auth/me, two instances', two));

    const ratio = Math.max(one.underLoad.p95 / one.idle.p95, two.underLoad.p95 / two.idle.p95);
    console.log(
      `the worse /me ratio: ×${ratio.toFixed(2)} (target ≤ ${TARGET_UNDER_LOAD_RATIO}: ` +
        `${verdict(ratio <= TARGET_UNDER_LOAD_RATIO)}, goal ≤ ${GOAL_UNDER_LOAD_RATIO}: ` +
        `${verdict(ratio <= GOAL_UNDER_LOAD_RATIO)})`,
    );
    console.log(
      `live sockets=${SOCKETS} one_p99_ms=${one.fan.p99.toFixed(1)} two_p99_ms=${two.fan.p99.toFixed(1)} ` +
        `me_under_load_ratio=${ratio.toFixed(2)}`,
    );
  } finally {
    await Promise.all(children.map(stop));
    await redis.stop();
    if (process.env.BENCH_KEEP === '1') console.log(`kept ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

await main();
