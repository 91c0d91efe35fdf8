/**
 * `npm run bench:wiki`: the wiki and the department pages on the embedded database (SQLite), on
 * the built server in its own process (issue 21).
 *
 * Population: 2,000 people in one department (`bench-big`) and 1,000 more over eight others
 * (copies of the demo student, written with better-sqlite3 into the database the server made),
 * and 20 writers (copies of the demo instructor, who may edit the company space);
 * ten courses of the big department, each with half of its members enrolled and lesson progress
 * for some. Then BENCH_PAGES (10,000) pages through the server's own API — `POST
 * /api/wiki/pages` as the demo admin, in the company space and the nine department spaces, as
 * trees of 50 pages; bodies of about 3 KB with headings, a list, a table and links to three
 * earlier pages by id and one by title — and two more saves of each (`PUT` with `baseRevision`),
 * so 30,000 revisions, each save sanitised, its links parsed and its search document written in
 * its transaction as the server always does. The write rates are printed.
 *
 * Measured (20 connections, BENCH_DURATION s each after a 1 s warm-up):
 * - read: `GET /api/wiki/pages/{id}` as a member of the big department, cycling through 200
 *   pages of the company and that department's space (backlinks, missing links and headings
 *   are worked out on every read);
 * - save: 20 concurrent writers, 20 different people, each saving its own company pages in turn
 *   with the revision its last save returned (no conflicts: it measures the save, not the
 *   refusal); the saves of the first second are the warm-up;
 * - diff: `GET …/diff?from=1&to=2` of a page whose two revisions are 100 KB each (a tenth of the
 *   paragraphs changed, some added and removed), 30 times one after another; p95 of those;
 * - department: `GET /api/departments/bench-big` (2,000 members: courses with their progress,
 *   library, wiki) as a member; the first members page is printed beside it;
 * - the peer in the same run, `GET /api/auth/me`;
 * - the cheap route under load: `GET /api/auth/me` as the member on 2 connections, alone (idle)
 *   and then during the save load (at once, the same warm-up and duration); its p95 under load
 *   over its idle p95 is the ratio.
 *
 * PostgreSQL: with BENCH_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test) the people
 * are copied from the SQLite file into a database of its own on that server, created for the run
 * and dropped after it (postgres.ts); the server runs on it and the pages are written through
 * its API as on SQLite. The same lines are printed.
 *
 * Targets: read p95 ≤ 30 ms, save p95 ≤ 50 ms (goal 30 ms), diff ≤ 50 ms, department p95
 * ≤ 50 ms, `/me` under the save load ≤ 3 × its idle p95 (goal 1.5 ×).
 * Knobs: BENCH_PAGES, BENCH_DURATION, BENCH_DATABASE_URL, BENCH_SKIP_BUILD=1, BENCH_KEEP=1
 * (keeps the SQLite file or the PostgreSQL database), BENCH_SERVER_NODE_ARGS.
 *
 * Last line: `wiki read_p95_ms=<n> save_p95_ms=<n> diff_ms=<n> department_p95_ms=<n>
 * me_p95_ms=<n> me_idle_p95_ms=<n> me_under_load_p95_ms=<n> db=<sqlite|postgres>`.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { BENCH_DATABASE_URL, copySqliteToPostgres, createBenchDatabase } from './postgres';
import {
  cheapRouteUnderLoad,
  databaseEnv,
  ensureServerBuilt,
  p95Of,
  probeInOwnProcess,
  REPO_ROOT,
  signIn,
  signInAll,
  stop,
  underLoadSummary,
  waitForHttp,
  type Latency,
} from './server-process';

const PAGES = Number(process.env.BENCH_PAGES ?? 10_000);
const DURATION_S = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = 20;
const BIG_DEPARTMENT = 'bench-big';
const BIG_MEMBERS = 2_000;
const OTHER_DEPARTMENTS = 8;
const OTHER_MEMBERS = 1_000;
const TREE = 50;
const WRITERS = 8;
const TARGET_READ_MS = 30;
const TARGET_SAVE_MS = 50;
const GOAL_SAVE_MS = 30;
const TARGET_DIFF_MS = 50;
const TARGET_DEPARTMENT_MS = 50;

const pad = (n: number, w: number) => String(n).padStart(w, '0');

/** The built server on the SQLite file in `dir`, or on the PostgreSQL database at `postgresUrl`. */
function startServer(dir: string, port: number, postgresUrl?: string): ChildProcess {
  const { DATABASE_URL: _ignored, ...env } = process.env;
  return fork(join(REPO_ROOT, 'server/dist/server.js'), [], {
    cwd: REPO_ROOT,
    execArgv: process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [],
    env: {
      ...env,
      ...databaseEnv(dir, postgresUrl),
      PORT: String(port),
      HOST: '127.0.0.1',
      FILES_DIR: join(dir, 'files'),
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
      SEED_DEMO: 'true',
      NODE_ENV: 'production',
    },
    stdio: 'inherit',
  });
}

// ---------------------------------------------------------------- the people

/**
 * Members of the big department and the others, its courses and progress, and the writers,
 * straight into SQL.
 */
function populatePeople(file: string): { learner: string; writers: string[] } {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  const at = new Date().toISOString();
  const insertDepartment = db.prepare(
    `insert into departments (id, name, description, created_at, slug) values (?, ?, '', ?, ?)`,
  );
  const departments = [BIG_DEPARTMENT];
  db.transaction(() => {
    insertDepartment.run(BIG_DEPARTMENT, 'Bench Operations', at, BIG_DEPARTMENT);
    for (let d = 0; d < OTHER_DEPARTMENTS; d++) {
      const id = `bench-dept-${d}`;
      insertDepartment.run(id, `Bench Region ${d}`, at, id);
      departments.push(id);
    }
  })();
  const template = db.prepare(`select * from users where username = 'student'`).get() as Record<
    string,
    unknown
  >;
  const columns = Object.keys(template);
  const insertUser = db.prepare(
    `insert into users (${columns.join(', ')}) values (${columns.map((c) => `@${c}`).join(', ')})`,
  );
  const bigMembers: string[] = [];
  db.transaction(() => {
    for (let i = 0; i < BIG_MEMBERS + OTHER_MEMBERS; i++) {
      const username = `member${pad(i, 5)}`;
      const id = `bench-user-${pad(i, 5)}`;
      const department =
        i < BIG_MEMBERS ? BIG_DEPARTMENT : departments[1 + (i % OTHER_DEPARTMENTS)];
      if (i < BIG_MEMBERS) bigMembers.push(id);
      insertUser.run({
        ...template,
        id,
        username,
        username_key: username,
        email: `${username}@fiberco.example`,
        firstname: ['Jordan', 'María', 'Tomasz', 'Aisha', 'Liam', 'Mei'][i % 6],
        lastname: `Member ${i}`,
        department_id: department,
        created_at: at,
        updated_at: at,
      });
    }
  })();
  // The writers: copies of the demo instructor (their role may edit the company space).
  const instructor = db
    .prepare(`select * from users where username = 'instructor'`)
    .get() as Record<string, unknown>;
  const writers: string[] = [];
  db.transaction(() => {
    for (let w = 0; w < CONNECTIONS; w++) {
      const username = `writer${pad(w, 2)}`;
      writers.push(username);
      insertUser.run({
        ...instructor,
        id: `bench-writer-${pad(w, 2)}`,
        username,
        username_key: username,
        email: `${username}@fiberco.example`,
        lastname: `Writer ${w}`,
        created_at: at,
        updated_at: at,
      });
    }
  })();
  // Ten courses of the big department with five lessons each; half its members enrolled in each,
  // a third of those with progress.
  const insertCourse = db.prepare(
    `insert into courses (id, code, title, description, summary_html, department_id, created_at,
       state, enrolment_mode, updated_at, published_at, revision)
     values (?, ?, ?, '', '', ?, ?, 'published', 'open', ?, ?, 1)`,
  );
  const insertSection = db.prepare(
    `insert into course_sections (id, course_id, title, position, created_at) values (?, ?, 'Part 1', 0, ?)`,
  );
  const insertLesson = db.prepare(
    `insert into lessons (id, course_id, section_id, title, body_html, duration_minutes, position, created_at, updated_at)
     values (?, ?, ?, ?, '<p>Lesson</p>', 15, ?, ?, ?)`,
  );
  const enrol = db.prepare(
    `insert or ignore into context_assignments (user_id, context_key, context_type, roles, direct_permissions,
       assigned_by, assigned_at, expires_at, is_active)
     values (?, ?, 'course', '["course-student"]', '[]', 'system', ?, null, 1)`,
  );
  const progress = db.prepare(
    `insert into lesson_progress (user_id, lesson_id, course_id, viewed_at, completed_at) values (?, ?, ?, ?, ?)`,
  );
  db.transaction(() => {
    for (let c = 0; c < 10; c++) {
      const id = `bench-big-course-${c}`;
      insertCourse.run(id, `BB-${c}`, `Operations course ${c + 1}`, BIG_DEPARTMENT, at, at, at);
      insertSection.run(`${id}-s`, id, at);
      for (let l = 0; l < 5; l++) {
        insertLesson.run(`${id}-l${l}`, id, `${id}-s`, `Lesson ${l + 1}`, l, at, at);
      }
      bigMembers.forEach((user, u) => {
        if ((u + c) % 2 !== 0) return;
        enrol.run(user, `course:${id}`, at);
        if (u % 3 !== 0) return;
        for (let l = 0; l <= (u + c) % 5; l++) progress.run(user, `${id}-l${l}`, id, at, at);
      });
    }
  })();
  db.close();
  return { learner: 'member00000', writers };
}

// ---------------------------------------------------------------- the pages

const WORDS =
  'splice closure fibre tray buffer tube ribbon fusion cleave OTDR trace event reflectance loss budget connector ferrule polish inspection scope manhole duct microduct blowing cable jacket strength member armour grounding bonding handhole pedestal drop terminal splitter GPON ONT OLT wavelength attenuation bend radius pigtail patch panel rack label'.split(
    ' ',
  );

function sentence(seed: number, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += (i ? ' ' : '') + WORDS[(seed * 31 + i * 17) % WORDS.length];
  return s.charAt(0).toUpperCase() + s.slice(1) + '.';
}

/** A page body of about 3 KB: headings, paragraphs, a list, a table and links. */
function pageHtml(n: number, links: string[], variant: number): string {
  const paragraphs = Array.from(
    { length: 5 },
    (_, p) => `<p>${sentence(n + p + (p === variant % 5 ? variant * 7 : 0), 28)}</p>`,
  );
  const linkList = links.map((id, i) => `<li><a href="/wiki/pages/${id}">Step ${i + 1}</a></li>`);
  return (
    `<h2>Before you start</h2>${paragraphs.slice(0, 2).join('')}` +
    `<ul>${linkList.join('')}<li><a href="/wiki/go?space=company&amp;title=Missing%20page%20${n % 50}">Missing page ${n % 50}</a></li></ul>` +
    `<h2>Steps</h2>${paragraphs.slice(2).join('')}` +
    `<table><tbody><tr><th>Tool</th><th>Check</th></tr><tr><td>${WORDS[n % WORDS.length]}</td><td>${sentence(n, 6)}</td></tr></tbody></table>` +
    `<h3>Notes</h3><p>Revision ${variant} of page ${n}.</p>`
  );
}

/** A 100 KB body; `changed` alters a tenth of its paragraphs, drops two and adds two. */
function bigHtml(changed: boolean): string {
  const blocks: string[] = [];
  for (let p = 0; blocks.join('').length < 100_000; p++) {
    if (changed && p % 97 === 3) continue;
    const altered = changed && p % 10 === 5;
    blocks.push(
      p % 20 === 0
        ? `<h2>Section ${p / 20 + 1}</h2>`
        : `<p>${sentence(p + (altered ? 5 : 0), 40)}${altered ? ' Changed here.' : ''}</p>`,
    );
    if (changed && p % 151 === 7) blocks.push(`<p>${sentence(p * 3, 30)} Added paragraph.</p>`);
  }
  return blocks.join('');
}

async function call(
  base: string,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: Record<string, unknown>; ms: number }> {
  const started = performance.now();
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  const ms = performance.now() - started;
  return {
    status: res.status,
    json: text ? (JSON.parse(text) as Record<string, unknown>) : {},
    ms,
  };
}

/** Runs `work(i)` for i in [0, n) on `width` concurrent lanes. */
async function pool(n: number, width: number, work: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < n) await work(next++);
    }),
  );
}

interface Page {
  id: string;
  revision: number;
  n: number;
  links: string[];
}

async function createPages(base: string, admin: string): Promise<Page[]> {
  const spaces = ['company', `department:${BIG_DEPARTMENT}`];
  for (let d = 0; d < OTHER_DEPARTMENTS; d++) spaces.push(`department:bench-dept-${d}`);
  const pages: Page[] = new Array<Page>(PAGES);
  // Each tree's root first (its children name it as their parent), then the rest in parallel.
  const roots = Math.ceil(PAGES / TREE);
  const create = async (n: number) => {
    const tree = Math.floor(n / TREE);
    const root = n % TREE === 0;
    const links = [1, 7, 23]
      .map((k) => pages[n - k]?.id)
      .filter((id): id is string => id !== undefined);
    const res = await call(base, admin, 'POST', '/api/wiki/pages', {
      title: `Procedure ${pad(tree, 3)}.${pad(n % TREE, 2)} ${WORDS[n % WORDS.length]}`,
      space: spaces[tree % spaces.length],
      parentId: root ? null : (pages[tree * TREE]?.id ?? null),
      html: pageHtml(n, links, 0),
      summary: 'First version',
      status: 'published',
    });
    if (res.status !== 201)
      throw new Error(`POST page ${n}: ${res.status} ${JSON.stringify(res.json)}`);
    pages[n] = { id: String(res.json.id), revision: Number(res.json.revision), n, links };
  };
  await pool(roots, WRITERS, (t) => create(t * TREE));
  const rest = Array.from({ length: PAGES }, (_, n) => n).filter((n) => n % TREE !== 0);
  await pool(rest.length, WRITERS, (i) => create(rest[i] as number));
  return pages;
}

async function save(base: string, token: string, page: Page, variant: number): Promise<number> {
  const res = await call(base, token, 'PUT', `/api/wiki/pages/${page.id}`, {
    baseRevision: page.revision,
    title: `Procedure page ${page.n} ${WORDS[page.n % WORDS.length]}`,
    html: pageHtml(page.n, page.links, variant),
    summary: `Edit ${variant}`,
  });
  if (res.status !== 200)
    throw new Error(`PUT page ${page.n}: ${res.status} ${JSON.stringify(res.json)}`);
  page.revision = Number(res.json.revision);
  return res.ms;
}

/**
 * One writer per token, each saving its own pages in turn for 1 s of warm-up and DURATION_S
 * more; p95 of every save after the warm-up.
 */
async function saveLoad(base: string, tokens: readonly string[], pages: Page[]): Promise<Latency> {
  const times: number[] = [];
  const measuredFrom = performance.now() + 1000;
  const until = measuredFrom + DURATION_S * 1000;
  let variant = 10;
  await Promise.all(
    tokens.map(async (token, w) => {
      const own = pages.filter((_, i) => i % tokens.length === w).slice(0, 50);
      for (let k = 0; performance.now() < until; k++) {
        const started = performance.now();
        const ms = await save(base, token, own[k % own.length] as Page, variant++);
        if (started >= measuredFrom) times.push(ms);
      }
    }),
  );
  times.sort((a, b) => a - b);
  return {
    p95: times[Math.floor(times.length * 0.95)] ?? NaN,
    rps: times.length / DURATION_S,
    requests: times.length,
  };
}

// ---------------------------------------------------------------- the run

async function main(): Promise<void> {
  ensureServerBuilt();
  const dir = mkdtempSync(join(tmpdir(), 'lh-bench-wiki-'));
  const port = 4300 + Math.floor(Math.random() * 200);
  const base = `http://127.0.0.1:${port}`;
  const postgres = BENCH_DATABASE_URL
    ? await createBenchDatabase(BENCH_DATABASE_URL, 'wiki')
    : undefined;
  let server = startServer(dir, port);
  try {
    await waitForHttp(`${base}/healthz`, server, 400);
    await stop(server);
    const people = populatePeople(join(dir, 'bench.db'));
    if (postgres) {
      // The server migrates and seeds the new database; then it gets the SQLite file's rows.
      server = startServer(dir, port, postgres.url);
      await waitForHttp(`${base}/healthz`, server, 1200);
      await stop(server);
      const copy = await copySqliteToPostgres(join(dir, 'bench.db'), postgres.url);
      console.log(
        `postgres ${postgres.name}: ${copy.rows} rows of ${copy.tables} tables copied and ` +
          `analysed in ${copy.seconds.toFixed(1)} s`,
      );
    }
    server = startServer(dir, port, postgres?.url);
    await waitForHttp(`${base}/healthz`, server, 1200);
    const admin = await signIn(base, 'admin', 'admin-demo-pass');
    const writers = await signInAll(base, people.writers, 'instructor-demo-pass');
    const learner = await signIn(base, people.learner, 'student-demo-pass');

    let started = performance.now();
    const pages = await createPages(base, admin);
    const createRate = PAGES / ((performance.now() - started) / 1000);
    started = performance.now();
    for (const variant of [1, 2]) {
      await pool(PAGES, WRITERS, (i) =>
        save(base, admin, pages[i] as Page, variant).then(() => {}),
      );
    }
    const saveRate = (2 * PAGES) / ((performance.now() - started) / 1000);
    console.log(
      `populated ${BIG_MEMBERS + OTHER_MEMBERS} people (${BIG_MEMBERS} in ${BIG_DEPARTMENT}), ` +
        `${PAGES} pages with ${3 * PAGES} revisions through the API: ` +
        `${createRate.toFixed(0)} creates/s, ${saveRate.toFixed(0)} saves/s (${WRITERS} writers)`,
    );

    // The pages the learner reads: the company's and their department's (spaces 0 and 1).
    const readable = pages.filter((p) => Math.floor(p.n / TREE) % (OTHER_DEPARTMENTS + 2) < 2);
    const readPaths = readable.slice(0, 200).map((p) => `/api/wiki/pages/${p.id}`);
    const check = await call(base, learner, 'GET', readPaths[0] as string);
    if (check.status !== 200) throw new Error(`the learner cannot read a page: ${check.status}`);

    const run = (url: string, token: string, paths?: readonly string[]) =>
      p95Of(url, token, {
        connections: CONNECTIONS,
        durationS: DURATION_S,
        ...(paths ? { paths } : {}),
      });
    const me = await run(`${base}/api/auth/me`, learner);
    const read = await run(base, learner, readPaths);
    // The writers write in the company space (the department spaces are their members'), while
    // the member's probe asks who they are.
    const companyPages = pages.filter(
      (p) => Math.floor(p.n / TREE) % (OTHER_DEPARTMENTS + 2) === 0,
    );
    // In a process of its own: its timings are the server's, not this process's.
    const probe = () => probeInOwnProcess(`${base}/api/auth/me`, learner, DURATION_S);
    const saveRun = await cheapRouteUnderLoad(probe, () => saveLoad(base, writers, companyPages));
    const saves = saveRun.load;
    const department = await run(`${base}/api/departments/${BIG_DEPARTMENT}`, learner);
    const members = await run(`${base}/api/departments/${BIG_DEPARTMENT}/members`, learner);

    // Two 100 KB revisions and their diff.
    const big = await call(base, admin, 'POST', '/api/wiki/pages', {
      title: 'Bench long procedure',
      space: 'company',
      html: bigHtml(false),
      status: 'published',
    });
    if (big.status !== 201) throw new Error(`big page: ${big.status}`);
    const bigId = String(big.json.id);
    const second = await call(base, admin, 'PUT', `/api/wiki/pages/${bigId}`, {
      baseRevision: 1,
      title: 'Bench long procedure',
      html: bigHtml(true),
      summary: 'A tenth changed',
    });
    if (second.status !== 200) throw new Error(`big page save: ${second.status}`);
    const diffTimes: number[] = [];
    let diffBlocks = 0;
    for (let i = 0; i < 31; i++) {
      const res = await call(base, admin, 'GET', `/api/wiki/pages/${bigId}/diff?from=1&to=2`);
      if (res.status !== 200) throw new Error(`diff: ${res.status}`);
      diffBlocks = (res.json.blocks as unknown[]).length;
      if (i > 0) diffTimes.push(res.ms);
    }
    diffTimes.sort((a, b) => a - b);
    const diffMs = diffTimes[Math.floor(diffTimes.length * 0.95)] ?? NaN;
    const revisionSizes = [bigHtml(false).length, bigHtml(true).length].map(
      (s) => `${(s / 1000).toFixed(0)} KB`,
    );

    const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
    const line = (label: string, l: Latency, target?: number, goal?: number) =>
      console.log(
        `${label.padEnd(44)} p95 ${l.p95.toFixed(1).padStart(6)} ms, ${l.rps.toFixed(0).padStart(5)} req/s` +
          (l === me
            ? ''
            : ` (×${(l.p95 / me.p95).toFixed(1)} the peer` +
              (target ? `; target ≤ ${target} ms: ${verdict(l.p95 <= target)}` : '') +
              (goal ? `, goal ${goal} ms: ${verdict(l.p95 <= goal)}` : '') +
              ')'),
      );
    const database = postgres ? 'postgres' : 'sqlite';
    console.log('');
    console.log(
      `${database}: ${CONNECTIONS} connections, ${DURATION_S} s per route (after 1 s warm-up)`,
    );
    line('peer  GET /api/auth/me', me);
    line(`read  GET /api/wiki/pages/{id} (${readPaths.length} pages)`, read, TARGET_READ_MS);
    line(
      `save  PUT /api/wiki/pages/{id} (${writers.length} writers)`,
      saves,
      TARGET_SAVE_MS,
      GOAL_SAVE_MS,
    );
    line(`dept  GET /api/departments/${BIG_DEPARTMENT}`, department, TARGET_DEPARTMENT_MS);
    line(`dept  GET /api/departments/${BIG_DEPARTMENT}/members`, members);
    console.log(underLoadSummary('cheap GET /api/auth/me while 20 writers save', saveRun));
    console.log(
      `diff  two revisions of ${revisionSizes.join(' and ')} (${diffBlocks} blocks): p95 of 30 ` +
        `${diffMs.toFixed(1)} ms (target ≤ ${TARGET_DIFF_MS} ms: ${verdict(diffMs <= TARGET_DIFF_MS)})`,
    );
    console.log(
      `wiki read_p95_ms=${read.p95.toFixed(1)} save_p95_ms=${saves.p95.toFixed(1)} ` +
        `diff_ms=${diffMs.toFixed(1)} department_p95_ms=${department.p95.toFixed(1)} ` +
        `me_p95_ms=${me.p95.toFixed(1)} me_idle_p95_ms=${saveRun.idle.p95.toFixed(2)} ` +
        `me_under_load_p95_ms=${saveRun.underLoad.p95.toFixed(2)} db=${database}`,
    );
  } finally {
    await stop(server);
    if (process.env.BENCH_KEEP === '1') {
      console.log(`kept ${dir}${postgres ? ` and ${postgres.url}` : ''}`);
    } else {
      rmSync(dir, { recursive: true, force: true });
      await postgres?.drop();
    }
  }
}

await main();
