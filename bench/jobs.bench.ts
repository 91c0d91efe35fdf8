/**
 * `npm run bench:jobs`: whether hostile documents in the background jobs hold up the server
 * (issue 28). The built server runs in its own process on SQLite (the demo seeded); PDFs are
 * uploaded through the API by the demo instructor and made library items, which sends their text
 * and thumbnail jobs as any upload does; the content workers (child processes of the server) read
 * them. Measured, autocannon at 10 connections on `GET /api/auth/me` (the cheapest authenticated
 * route), p95 from every response's time:
 *
 * - idle: for BENCH_DURATION s, once the demo's own jobs and a warm-up PDF (which starts the
 *   content worker) are done, and again before the 10,000 pages: each load is compared with the
 *   idle figure measured just before it (on a shared machine the figures move with what else
 *   runs);
 * - while BENCH_BOMBS compression bombs (1 MB files that inflate to 1 GB each; their text and
 *   thumbnail jobs) are processed: from their upload until every job has settled;
 * - while a 10,000-page PDF (2.3 MB) is processed, the same way.
 *
 * During each, the server process's RSS is sampled every 20 ms (/proc/<pid>/status), and so are
 * the content workers' (the server's children). `bomb_rss_mb` is the server's peak growth while
 * the bombs are processed; the ratios are the p95 under that load over the idle p95.
 *
 * Targets: bomb_rss_mb ≤ 256, both ratios ≤ 3. Knobs: BENCH_DURATION (idle seconds, default 5),
 * BENCH_BOMBS (default 1), BENCH_SKIP_BUILD=1, BENCH_SERVER_NODE_ARGS.
 *
 * Last line: `jobs bomb_rss_mb=<n> pages10k_me_p95_ratio=<n> bomb_me_p95_ratio=<n>`.
 */
import { fork } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { compressionBombPdf, manyPagesPdf } from '../server/src/platform/storage/hostile-pdfs';
import {
  ensureServerBuilt,
  MB,
  p95Of,
  REPO_ROOT,
  rssOf,
  signIn,
  stop,
  waitForHttp,
} from './server-process';

const DURATION_S = Number(process.env.BENCH_DURATION ?? 5);
const BOMBS = Number(process.env.BENCH_BOMBS ?? 1);
const CONNECTIONS = 10;
const TARGET_RSS_MB = 256;
const TARGET_RATIO = 3;

/** The server's children (its content workers), from /proc. */
function childrenOf(pid: number): number[] {
  const path = `/proc/${pid}/task/${pid}/children`;
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8').split(' ').filter(Boolean).map(Number);
}

/** Samples the server's RSS and its children's every 20 ms; `stop` gives both peaks. */
function sampleMemory(pid: number) {
  let server = rssOf(pid);
  let workers = 0;
  const look = () => {
    server = Math.max(server, rssOf(pid));
    for (const child of childrenOf(pid)) {
      try {
        workers = Math.max(workers, rssOf(child));
      } catch {
        // gone meanwhile (killed at its cap)
      }
    }
  };
  const timer = setInterval(look, 20);
  return {
    stop() {
      clearInterval(timer);
      look();
      return { server, workers };
    },
  };
}

async function api<T>(base: string, token: string, path: string, init: RequestInit = {}) {
  const res = await fetch(`${base}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${token}`, ...(init.headers ?? {}) },
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path} answered ${res.status} ${text}`);
  return JSON.parse(text) as T;
}

/** Uploads `pdf` and makes it a library item (its jobs are sent with it); returns its id. */
async function addPdf(base: string, token: string, title: string, pdf: Buffer): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), `${title}.pdf`);
  const file = await api<{ id: string }>(base, token, '/api/files', { method: 'POST', body: form });
  const item = await api<{ id: string }>(base, token, '/api/library/items', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ title, fileId: file.id, scope: { type: 'everyone' } }),
  });
  return item.id;
}

interface JobSummary {
  name: string;
  state: string;
  attempts: number;
  lastError: string | null;
}

/** Jobs not yet completed or failed (the admin's list). */
async function unsettled(base: string, admin: string): Promise<number> {
  let count = 0;
  for (const state of ['created', 'retry', 'active']) {
    const list = await api<{ total: number }>(
      base,
      admin,
      `/api/admin/jobs?state=${state}&page=1&pageSize=1`,
    );
    count += list.total;
  }
  return count;
}

async function waitSettled(base: string, admin: string, timeoutMs = 600_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await unsettled(base, admin)) > 0) {
    if (Date.now() > deadline) throw new Error('the jobs did not settle');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Load on `/api/auth/me` from `start()` until the jobs `send` made have settled: the p95 of
 * every response in that time, the server's and the workers' peak RSS, and how long it took.
 */
async function whileProcessed(
  base: string,
  pid: number,
  me: string,
  admin: string,
  send: () => Promise<void>,
) {
  const times: number[] = [];
  let failed = 0;
  const before = rssOf(pid);
  const memory = sampleMemory(pid);
  let finished!: () => void;
  const done = new Promise<void>((resolve) => (finished = resolve));
  const instance = autocannon(
    {
      url: `${base}/api/auth/me`,
      headers: { authorization: `Bearer ${me}` },
      connections: CONNECTIONS,
      duration: 3600,
    },
    () => finished(),
  );
  instance.on('response', (_client, status, _bytes, ms) => {
    if (status !== 200) failed += 1;
    times.push(ms);
  });
  const started = performance.now();
  try {
    await send();
    await waitSettled(base, admin);
  } finally {
    instance.stop();
    await done;
  }
  const seconds = (performance.now() - started) / 1000;
  const peaks = memory.stop();
  if (failed > 0) throw new Error(`${failed} answers of /api/auth/me were not 200`);
  times.sort((a, b) => a - b);
  return {
    p95: times[Math.min(times.length - 1, Math.floor(times.length * 0.95))] ?? NaN,
    requests: times.length,
    seconds,
    rssGrowthMb: (peaks.server - before) / MB,
    serverPeakMb: peaks.server / MB,
    workerPeakMb: peaks.workers / MB,
  };
}

async function main(): Promise<void> {
  ensureServerBuilt();
  const dir = mkdtempSync(join(tmpdir(), 'lh-bench-jobs-'));
  const port = 3900 + Math.floor(Math.random() * 200);
  const base = `http://127.0.0.1:${port}`;
  const server = fork(join(REPO_ROOT, 'server/dist/server.js'), [], {
    cwd: REPO_ROOT,
    execArgv: process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      SQLITE_PATH: join(dir, 'bench.db'),
      FILES_DIR: join(dir, 'files'),
      LOG_LEVEL: 'warn',
      SEED_DEMO: 'true',
      NODE_ENV: 'production',
      JOBS_POLL_INTERVAL_MS: '200',
    },
    stdio: 'inherit',
  });
  try {
    await waitForHttp(`${base}/healthz`, server, 400);
    const pid = server.pid as number;
    const instructor = await signIn(base, 'instructor', 'instructor-demo-pass');
    const admin = await signIn(base, 'admin', 'admin-demo-pass');
    const student = await signIn(base, 'student', 'student-demo-pass');

    // The demo's own jobs, and a small PDF that starts the content worker, first.
    await addPdf(base, instructor, 'Warm-up', manyPagesPdf(3));
    await waitSettled(base, admin);
    await new Promise((r) => setTimeout(r, 500));

    const idleMe = () =>
      p95Of(`${base}/api/auth/me`, student, { connections: CONNECTIONS, durationS: DURATION_S });
    const idle = await idleMe();
    const idleRss = rssOf(pid) / MB;

    const bomb = compressionBombPdf();
    const bombIds: string[] = [];
    const bombs = await whileProcessed(base, pid, student, admin, async () => {
      for (let i = 0; i < BOMBS; i++) {
        bombIds.push(await addPdf(base, instructor, `Bomb ${i + 1}`, bomb));
      }
    });
    const failedJobs = await api<{ jobs: JobSummary[] }>(
      base,
      admin,
      '/api/admin/jobs?state=failed&page=1&pageSize=50',
    );
    const bombItem = await api<{ textState: string; textError: string | null }>(
      base,
      admin,
      `/api/library/items/${bombIds[0]}`,
    );

    await new Promise((r) => setTimeout(r, 500));
    const idleBefore10k = await idleMe();
    let longId = '';
    const pages = await whileProcessed(base, pid, student, admin, async () => {
      longId = await addPdf(base, instructor, 'Long manual', manyPagesPdf(10_000));
    });
    const longItem = await api<{ textState: string; textError: string | null }>(
      base,
      admin,
      `/api/library/items/${longId}`,
    );
    // Each load against the idle figure measured just before it (the shared machine's own load
    // moves the figures over minutes).
    const bombRatio = bombs.p95 / idle.p95;
    const pagesRatio = pages.p95 / idleBefore10k.p95;
    const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
    console.log('');
    console.log(
      `idle            /api/auth/me p95 ${idle.p95} ms (${idle.requests} requests, ` +
        `${CONNECTIONS} connections); server RSS ${idleRss.toFixed(1)} MB`,
    );
    console.log(
      `${BOMBS} bombs (${(bomb.length / MB).toFixed(1)} MB each, 1 GB inflated): processed in ` +
        `${bombs.seconds.toFixed(1)} s; /api/auth/me p95 ${bombs.p95} ms (${bombs.requests} ` +
        `requests) = ${bombRatio.toFixed(2)} × idle (target ≤ ${TARGET_RATIO}: ` +
        `${verdict(bombRatio <= TARGET_RATIO)})`,
    );
    console.log(
      `                server RSS growth ${bombs.rssGrowthMb.toFixed(1)} MB (peak ` +
        `${bombs.serverPeakMb.toFixed(1)} MB; target ≤ ${TARGET_RSS_MB} MB: ` +
        `${verdict(bombs.rssGrowthMb <= TARGET_RSS_MB)}); content worker peak ` +
        `${bombs.workerPeakMb.toFixed(1)} MB`,
    );
    console.log(
      `                text: ${bombItem.textState} (${bombItem.textError}); failed jobs: ` +
        failedJobs.jobs.map((j) => `${j.name} after ${j.attempts} attempt(s)`).join(', '),
    );
    console.log(
      `idle again     /api/auth/me p95 ${idleBefore10k.p95} ms (${idleBefore10k.requests} requests)`,
    );
    console.log(
      `10,000 pages   processed in ${pages.seconds.toFixed(1)} s (text ${longItem.textState}` +
        `${longItem.textError ? `: ${longItem.textError}` : ''}); /api/auth/me p95 ${pages.p95} ms ` +
        `(${pages.requests} requests) = ${pagesRatio.toFixed(2)} × idle (target ≤ ` +
        `${TARGET_RATIO}: ${verdict(pagesRatio <= TARGET_RATIO)}); server RSS growth ` +
        `${pages.rssGrowthMb.toFixed(1)} MB; content worker peak ${pages.workerPeakMb.toFixed(1)} MB`,
    );
    console.log(
      `jobs bomb_rss_mb=${bombs.rssGrowthMb.toFixed(1)} pages10k_me_p95_ratio=` +
        `${pagesRatio.toFixed(2)} bomb_me_p95_ratio=${bombRatio.toFixed(2)}`,
    );
  } finally {
    await stop(server);
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
