/**
 * `npm run bench:storage`: a 200 MB upload through `POST /api/files` on a real listening server
 * (the built server in its own process, SQLite, local disk store), sent as a streamed multipart
 * body that this process generates chunk by chunk. Measures the server process's resident memory
 * growth while the upload streams (sampled every 20 ms; target < 64 MB: the file never sits in
 * memory) and the throughput, then downloads the file back and checks its SHA-256.
 *
 * Then a resumable upload (tus, `/api/uploads`) of BENCH_RESUMABLE_MB (1024) sent in PATCHes of
 * 256 MB, as tus-js-client sends a field video: the same RSS target, and the stored file's SHA-256.
 *
 * Last line: `storage upload_mb=<n> upload_rss_mb=<n> mb_per_s=<n> resumable_mb=<n>
 * resumable_rss_mb=<n> resumable_mb_per_s=<n>`.
 */
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  download,
  ensureServerBuilt,
  MB,
  REPO_ROOT,
  resumableUpload,
  rssOf,
  sampleRss,
  stop,
  upload,
  waitForHttp,
} from './server-process';

const root = REPO_ROOT;
const UPLOAD_MB = Number(process.env.BENCH_UPLOAD_MB ?? 200);
const TARGET_RSS_MB = 64;
const WARM_MB = Number(process.env.BENCH_WARM_MB ?? 16);
const RESUMABLE_MB = Number(process.env.BENCH_RESUMABLE_MB ?? 1024);
const PATCH_MB = 256;

async function main(): Promise<void> {
  ensureServerBuilt();
  const dir = mkdtempSync(join(tmpdir(), 'lh-bench-storage-'));
  const port = 3700 + Math.floor(Math.random() * 200);
  const base = `http://127.0.0.1:${port}`;
  const server = fork(join(root, 'server/dist/server.js'), [], {
    cwd: root,
    // e.g. BENCH_SERVER_NODE_ARGS=--trace-gc to see what the server's collector does.
    execArgv: process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      SQLITE_PATH: join(dir, 'bench.db'),
      FILES_DIR: join(dir, 'files'),
      UPLOAD_MAX_BYTES: String((UPLOAD_MB + 1) * MB),
      UPLOAD_RESUMABLE_MAX_BYTES: String((RESUMABLE_MB + 1) * MB),
      UPLOAD_USER_MAX_UNATTACHED_BYTES: String((UPLOAD_MB + WARM_MB + RESUMABLE_MB + 10) * 5 * MB),
      LOG_LEVEL: 'warn',
      SEED_DEMO: 'true',
      NODE_ENV: 'production',
    },
    stdio: 'inherit',
  });
  try {
    await waitForHttp(`${base}/healthz`, server, 400);
    const login = await fetch(`${base}/api/auth/local`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'admin-demo-pass' }),
    });
    const { token } = (await login.json()) as { token: string };
    // A warm-up upload first (WARM_MB), so first-use costs — code compiled, the collector's and
    // the allocator's working set — are in the baseline, and the figure is what an upload costs
    // a running server. Its own growth is printed too.
    const pid = server.pid as number;
    const coldBefore = rssOf(pid);
    const coldSampler = sampleRss(pid);
    const warm = await upload(`${base}/api/files`, token, WARM_MB * MB);
    const coldPeak = coldSampler.stop();
    if (warm.status !== 201) throw new Error(`warm-up upload answered ${warm.status} ${warm.body}`);
    await new Promise((r) => setTimeout(r, 500));

    const before = rssOf(pid);
    const sampler = sampleRss(pid);
    const started = performance.now();
    const answer = await upload(`${base}/api/files`, token, UPLOAD_MB * MB);
    const seconds = (performance.now() - started) / 1000;
    const peak = sampler.stop();
    if (answer.status !== 201) throw new Error(`upload answered ${answer.status} ${answer.body}`);
    const file = JSON.parse(answer.body) as { id: string; size: number; sha256: string };
    if (file.size !== UPLOAD_MB * MB || file.sha256 !== answer.sha256) {
      throw new Error('the stored file differs from what was sent');
    }

    const dlBefore = rssOf(pid);
    const dlSampler = sampleRss(pid);
    const dlStarted = performance.now();
    const back = await download(`${base}/api/files/${file.id}`, token);
    const dlSeconds = (performance.now() - dlStarted) / 1000;
    const dlPeak = dlSampler.stop();
    if (back.size !== file.size || back.sha256 !== file.sha256) {
      throw new Error('the downloaded file differs from the uploaded one');
    }

    await new Promise((r) => setTimeout(r, 500));
    const tusBefore = rssOf(pid);
    const tusSampler = sampleRss(pid);
    const tusStarted = performance.now();
    const resumable = await resumableUpload(base, token, RESUMABLE_MB * MB, PATCH_MB);
    const tusSeconds = (performance.now() - tusStarted) / 1000;
    const tusPeak = tusSampler.stop();
    const tusBack = await download(`${base}/api/files/${resumable.fileId}`, token);
    if (tusBack.size !== RESUMABLE_MB * MB || tusBack.sha256 !== resumable.sha256) {
      throw new Error('the resumable upload stored something else than was sent');
    }

    const rssMb = (peak - before) / MB;
    const tusRssMb = (tusPeak - tusBefore) / MB;
    const tusMbPerS = RESUMABLE_MB / tusSeconds;
    const mbPerS = UPLOAD_MB / seconds;
    console.log('');
    console.log(
      `warm-up  ${WARM_MB} MB upload on the fresh server: RSS growth ` +
        `${((coldPeak - coldBefore) / MB).toFixed(1)} MB`,
    );
    console.log(`upload   ${UPLOAD_MB} MB in ${seconds.toFixed(2)} s = ${mbPerS.toFixed(1)} MB/s`);
    console.log(
      `         server RSS ${(before / MB).toFixed(1)} MB → peak ${(peak / MB).toFixed(1)} MB: ` +
        `growth ${rssMb.toFixed(1)} MB (target < ${TARGET_RSS_MB} MB: ${rssMb < TARGET_RSS_MB ? 'met' : 'NOT met'})`,
    );
    console.log(
      `download ${UPLOAD_MB} MB in ${dlSeconds.toFixed(2)} s = ${(UPLOAD_MB / dlSeconds).toFixed(1)} MB/s, ` +
        `RSS growth ${((dlPeak - dlBefore) / MB).toFixed(1)} MB; SHA-256 matches`,
    );
    console.log(
      `resumable ${RESUMABLE_MB} MB in PATCHes of ${PATCH_MB} MB in ${tusSeconds.toFixed(2)} s = ` +
        `${tusMbPerS.toFixed(1)} MB/s, RSS growth ${tusRssMb.toFixed(1)} MB (target < ` +
        `${TARGET_RSS_MB} MB: ${tusRssMb < TARGET_RSS_MB ? 'met' : 'NOT met'}); SHA-256 matches`,
    );
    console.log(
      `storage upload_mb=${UPLOAD_MB} upload_rss_mb=${rssMb.toFixed(1)} mb_per_s=${mbPerS.toFixed(1)} ` +
        `resumable_mb=${RESUMABLE_MB} resumable_rss_mb=${tusRssMb.toFixed(1)} ` +
        `resumable_mb_per_s=${tusMbPerS.toFixed(1)}`,
    );
  } finally {
    await stop(server);
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
