/**
 * `npm run bench:web`: the front end as a phone and a desktop see it — Lighthouse in Debian's
 * Chromium (CHROME_PATH, default /usr/bin/chromium; nothing is downloaded) against the built app
 * served by the built server (NODE_ENV=production, a temporary SQLite database with the demo data,
 * a free port in 3400–3499).
 *
 * Audited, BENCH_RUNS times each (default 3; each run a fresh browser profile, so a new user
 * with an empty cache):
 * - `/login` with the mobile preset (Lighthouse's default: a mid-range phone, 4× CPU slowdown,
 *   1.6 Mbit/s and 150 ms, simulated) and with the desktop preset;
 * - `/` with the mobile preset, signed in as the demo student: the session is signed in through
 *   the API and put in localStorage before the audit (Lighthouse clears the cache but keeps
 *   localStorage).
 *
 * Printed per run: performance and accessibility scores, FCP, LCP, TBT, CLS, what was
 * transferred (all, JavaScript, CSS) and the number of requests. `/login`'s initial JavaScript is
 * the scripts Lighthouse saw it load, each fetched again with `Accept-Encoding: gzip` and counted
 * as sent (gzipped here when the server does not compress). kB are 1000 bytes, as Vite counts.
 * Targets (docs/front-end.md): mobile ≥ 90 on both pages, desktop ≥ 98, accessibility 100,
 * `/login` initial JavaScript ≤ 120 kB gzip.
 *
 * The build is made first (`npm run build`) unless BENCH_SKIP_BUILD=1 and one is there.
 *
 * Last line (medians of the runs):
 * `web login_mobile=<n> home_mobile=<n> login_desktop=<n> login_js_gzip_kb=<n>`.
 */
import { fork, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { STORAGE_KEYS } from '@learning-hub/core';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { type Config, type Flags, type RunnerResult } from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import puppeteer, { type Page } from 'puppeteer-core';
import { REPO_ROOT, stop, waitForHttp } from './server-process';

const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 3));
/** Lighthouse now and then fails to record a page load (NO_NAVSTART, …): tried again this often. */
const ATTEMPTS = 3;
const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const CHROME_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
const STUDENT = { username: 'student', password: 'student-demo-pass' };
const TARGETS = { mobile: 90, desktop: 98, accessibility: 100, loginJsGzipKb: 120 };

/** Builds the web app and the server unless BENCH_SKIP_BUILD=1 and both are built. */
function ensureBuilt(): void {
  const built =
    existsSync(join(REPO_ROOT, 'web/dist/index.html')) &&
    existsSync(join(REPO_ROOT, 'server/dist/server.js'));
  if (process.env.BENCH_SKIP_BUILD === '1' && built) return;
  console.log('building the web app and the server (npm run build; BENCH_SKIP_BUILD=1 skips)…');
  const result = spawnSync('npm', ['run', '--silent', 'build'], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (result.status !== 0) throw new Error('npm run build failed');
}

/** The first port in [from, to] nothing listens on. */
async function freePort(from = 3400, to = 3499): Promise<number> {
  for (let port = from; port <= to; port++) {
    const free = await new Promise<boolean>((resolve) => {
      const probe = createServer();
      probe.once('error', () => resolve(false));
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error(`no free port in ${from}–${to}`);
}

function startServer(dir: string, port: number): ChildProcess {
  return fork(join(REPO_ROOT, 'server/dist/server.js'), [], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      SQLITE_PATH: join(dir, 'bench.db'),
      FILES_DIR: join(dir, 'files'),
      LOG_LEVEL: 'warn',
      SEED_DEMO: 'true',
      NODE_ENV: 'production',
    },
    stdio: 'inherit',
  });
}

interface NetworkItem {
  url: string;
  resourceType?: string;
  transferSize?: number;
}

interface RunFigures {
  performance: number;
  accessibility: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  transferKb: number;
  jsKb: number;
  cssKb: number;
  requests: number;
  scripts: string[];
}

const kb = (bytes: number) => bytes / 1000;
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

function figures(result: RunnerResult): RunFigures {
  const { lhr } = result;
  if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.message}`);
  const audit = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
  const details = lhr.audits['network-requests']?.details as { items?: NetworkItem[] } | undefined;
  const items = details?.items ?? [];
  const sum = (type: string) =>
    items
      .filter((i) => i.resourceType === type)
      .reduce((total, i) => total + (i.transferSize ?? 0), 0);
  return {
    performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    accessibility: Math.round((lhr.categories.accessibility?.score ?? 0) * 100),
    fcpMs: audit('first-contentful-paint'),
    lcpMs: audit('largest-contentful-paint'),
    tbtMs: audit('total-blocking-time'),
    cls: audit('cumulative-layout-shift'),
    transferKb: kb(audit('total-byte-weight')),
    jsKb: kb(sum('Script')),
    cssKb: kb(sum('Stylesheet')),
    requests: items.length,
    scripts: items.filter((i) => i.resourceType === 'Script').map((i) => i.url),
  };
}

/** One Lighthouse navigation in a fresh Chrome profile; `prepare` runs on the page before it. */
async function audit(
  url: string,
  config: Config | undefined,
  prepare?: (page: Page) => Promise<void>,
): Promise<RunnerResult> {
  const chrome = await chromeLauncher.launch({
    chromePath: CHROME_PATH,
    chromeFlags: CHROME_FLAGS,
    logLevel: 'silent',
  });
  try {
    const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
    try {
      const page = await browser.newPage();
      if (prepare) await prepare(page);
      const flags: Flags = {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility'],
      };
      const result = await lighthouse(url, flags, config, page);
      if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
      return result;
    } finally {
      await browser.disconnect();
    }
  } finally {
    chrome.kill();
  }
}

/** The scripts a page loads once its first field has the focus and the network is quiet. */
async function scriptsAfterFirstTouch(url: string): Promise<string[]> {
  const chrome = await chromeLauncher.launch({
    chromePath: CHROME_PATH,
    chromeFlags: CHROME_FLAGS,
    logLevel: 'silent',
  });
  try {
    const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
    try {
      const page = await browser.newPage();
      const scripts = new Set<string>();
      page.on('request', (r) => {
        if (r.resourceType() === 'script') scripts.add(r.url());
      });
      await page.goto(url, { waitUntil: 'networkidle0' });
      await page.focus('input');
      await page.waitForNetworkIdle({ idleTime: 500 });
      return [...scripts];
    } finally {
      await browser.disconnect();
    }
  } finally {
    chrome.kill();
  }
}

/** Bytes of the body the server sends for `url` to a client that accepts only gzip. */
function gzipBytes(url: string): Promise<{ bytes: number; compressedByServer: boolean }> {
  return new Promise((resolve, reject) => {
    request(url, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        if (res.statusCode !== 200) return reject(new Error(`${url}: ${res.statusCode}`));
        const compressedByServer = res.headers['content-encoding'] === 'gzip';
        resolve({
          bytes: compressedByServer ? body.length : gzipSync(body).length,
          compressedByServer,
        });
      });
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

function printRun(label: string, run: number, f: RunFigures): void {
  console.log(
    `${label} #${run}: performance ${f.performance}, accessibility ${f.accessibility} | ` +
      `FCP ${(f.fcpMs / 1000).toFixed(2)} s, LCP ${(f.lcpMs / 1000).toFixed(2)} s, ` +
      `TBT ${Math.round(f.tbtMs)} ms, CLS ${f.cls.toFixed(3)} | ` +
      `${f.requests} requests, ${f.transferKb.toFixed(1)} kB (JS ${f.jsKb.toFixed(1)} kB, ` +
      `CSS ${f.cssKb.toFixed(1)} kB)`,
  );
}

async function main(): Promise<void> {
  if (!existsSync(CHROME_PATH)) throw new Error(`no Chromium at ${CHROME_PATH} (set CHROME_PATH)`);
  ensureBuilt();
  const dir = mkdtempSync(join(tmpdir(), 'lh-web-bench-'));
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const server = startServer(dir, port);
  try {
    await waitForHttp(`${origin}/healthz`, server, 600);
    console.log(`server on ${origin}; ${RUNS} run(s) of each audit`);

    const signIn = await fetch(`${origin}/api/auth/local`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(STUDENT),
    });
    if (!signIn.ok) throw new Error(`demo student sign-in: ${signIn.status}`);
    const login = (await signIn.json()) as { user: unknown; token: string; expiresAt: string };
    const session = JSON.stringify({
      isAuthenticated: true,
      user: login.user,
      token: login.token,
      expiresAt: login.expiresAt,
    });
    const seedSession = async (page: Page) => {
      // Any page of the origin will do; a static file loads none of the app's code.
      await page.goto(`${origin}/favicon.svg`);
      await page.evaluate(
        (key, value) =>
          (
            globalThis as unknown as { localStorage: { setItem(k: string, v: string): void } }
          ).localStorage.setItem(key, value),
        STORAGE_KEYS.session,
        session,
      );
    };

    const audits = [
      { key: 'login_mobile', url: `${origin}/login`, config: undefined, prepare: undefined },
      { key: 'home_mobile', url: `${origin}/`, config: undefined, prepare: seedSession },
      { key: 'login_desktop', url: `${origin}/login`, config: desktopConfig, prepare: undefined },
    ] as const;
    const results: Record<string, RunFigures[]> = {};
    const reports = mkdtempSync(join(tmpdir(), 'lh-web-reports-'));
    console.log(`Lighthouse reports (JSON) in ${reports}`);
    for (let run = 1; run <= RUNS; run++) {
      for (const a of audits) {
        let result: RunnerResult | undefined;
        for (let attempt = 1; !result; attempt++) {
          const candidate = await audit(a.url, a.config, a.prepare);
          const error = candidate.lhr.runtimeError;
          if (!error) result = candidate;
          else if (attempt >= ATTEMPTS) throw new Error(`${a.key}: Lighthouse: ${error.message}`);
          else console.log(`  (${a.key}: Lighthouse could not measure (${error.code}); again)`);
        }
        writeFileSync(join(reports, `${a.key}-${run}.json`), JSON.stringify(result.lhr));
        const finalPath = new URL(result.lhr.finalDisplayedUrl).pathname;
        const wanted = new URL(a.url).pathname;
        if (finalPath !== wanted) {
          throw new Error(
            `${a.key}: ended on ${finalPath}, not ${wanted} (was the session seeded?)`,
          );
        }
        for (const warning of result.lhr.runWarnings) {
          if (!/stored data|IndexedDB|localStorage/i.test(warning)) {
            console.log(`  (warning: ${warning})`);
          }
        }
        const f = figures(result);
        printRun(a.key, run, f);
        (results[a.key] ??= []).push(f);
      }
    }

    // /login's initial JavaScript: what its first mobile run loaded, as gzip sends it.
    const scripts = [...new Set(results.login_mobile![0]!.scripts)].filter((u) =>
      u.startsWith(origin),
    );
    let jsGzip = 0;
    let notCompressed = 0;
    for (const url of scripts) {
      const { bytes, compressedByServer } = await gzipBytes(url);
      jsGzip += bytes;
      if (!compressedByServer) notCompressed += 1;
    }
    console.log(
      `/login loads ${scripts.length} scripts: ` +
        scripts.map((u) => new URL(u).pathname.replace('/assets/', '')).join(', '),
    );
    if (notCompressed > 0) {
      console.log(`  (${notCompressed} of them were not sent gzipped; counted gzipped here)`);
    }
    // /login is plain HTML until it is used (docs/front-end.md): what the first touch then loads.
    const touched = await scriptsAfterFirstTouch(`${origin}/login`);
    let appGzip = 0;
    for (const url of touched.filter((u) => !scripts.includes(u))) {
      appGzip += (await gzipBytes(url)).bytes;
    }
    console.log(
      `/login's first touch loads the app: ${touched.length - scripts.length} more scripts, ` +
        `${kb(appGzip).toFixed(1)} kB gzip`,
    );
    if (scripts.some((u) => u.includes('password-strength'))) {
      console.log('  the password-strength worker loaded on /login: it should not');
    }

    const score = (key: string) => median(results[key]!.map((f) => f.performance));
    const a11y = (key: string) => Math.min(...results[key]!.map((f) => f.accessibility));
    const summary = {
      login_mobile: score('login_mobile'),
      home_mobile: score('home_mobile'),
      login_desktop: score('login_desktop'),
      login_js_gzip_kb: Math.round(kb(jsGzip)),
    };
    const checks: Array<[string, boolean]> = [
      [`/login mobile ≥ ${TARGETS.mobile}`, summary.login_mobile >= TARGETS.mobile],
      [`/ mobile ≥ ${TARGETS.mobile}`, summary.home_mobile >= TARGETS.mobile],
      [`/login desktop ≥ ${TARGETS.desktop}`, summary.login_desktop >= TARGETS.desktop],
      [
        `accessibility ${TARGETS.accessibility} everywhere`,
        audits.every((a) => a11y(a.key) >= TARGETS.accessibility),
      ],
      [
        `/login initial JS ≤ ${TARGETS.loginJsGzipKb} kB gzip`,
        summary.login_js_gzip_kb <= TARGETS.loginJsGzipKb,
      ],
    ];
    for (const [what, met] of checks) console.log(`${met ? 'met   ' : 'MISSED'} ${what}`);
    console.log(
      `web login_mobile=${summary.login_mobile} home_mobile=${summary.home_mobile} ` +
        `login_desktop=${summary.login_desktop} login_js_gzip_kb=${summary.login_js_gzip_kb}`,
    );
  } finally {
    await stop(server);
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
