/**
 * `npm run bench:library`: the library and search at company scale on the embedded database
 * (SQLite), on the built server in its own process (issue 20) — 10,000 users in 20 departments,
 * 1,000 published courses with 20,000 lessons, 8 enrolments per user, and 10,000 library items
 * (documents whose current version has a few hundred words of extracted text, a tenth with an
 * older version too; tags, categories) spread over the scopes: 30 % everyone, 40 % a department,
 * 30 % a course. Everything is in the search index (`search_documents` and its FTS5 table).
 *
 * The population is written directly with better-sqlite3 into the database the server made
 * (schema, demo accounts and library), the search documents included. `index_docs_per_s` is how
 * fast the library items are indexed: for each item, in one transaction, the SQL of the server's
 * `indexItem` (library-repository.ts) run through prepared statements — the item with its current
 * version and file, its tags, the body built the same way (plain description, tags, file name,
 * extracted text) and the upsert into `search_documents`, whose triggers write the real FTS5
 * index (porter tokenizer, prefix indexes). Left out: Kysely's own overhead, and sanitize-html
 * (the bench's descriptions are one paragraph, made plain by a regex) — the server's code itself
 * cannot be imported here (bench is its own TypeScript project). The courses and lessons (shorter
 * documents, indexed in one transaction) have their rate printed beside it.
 *
 * Measured (autocannon, 20 connections, BENCH_DURATION s per route after a 1 s warm-up, p95
 * from every response's time) as BENCH_SEARCHERS (200) learners signed in, each request as the
 * next of them in turn, as in reality many people search at once (and search's per-person limits
 * — requests in flight, searches a minute — apply to each: a 429 fails the run, the bench would
 * be wrong). Each belongs to one department and is enrolled in 8 courses, so the visibility
 * filters do real work (about 3,200 of the 10,000 items are the last learner's, checked):
 * - search, `GET /api/search?q=<two words>`, the connections cycling through 12 queries;
 * - the library list, `GET /api/library/items` (default sort, page 1), and the same with
 *   `search=` (the same 12 queries);
 * - the catalogue's search, `GET /api/courses?search=otdr`;
 * - the peer in the same run, `GET /api/auth/me` (the cheapest authenticated route) as the last
 *   learner, so the ratios show what the library's queries themselves cost;
 * - the cheap route under load: `GET /api/auth/me` as the last learner on 2 connections, alone
 *   (idle) and then during the search load (two autocannon runs at once, the same warm-up and
 *   duration); its p95 under load over its idle p95 is the ratio.
 * Then one resumable upload (tus) of BENCH_RESUMABLE_MB (1,024) in PATCHes of 256 MB, after a
 * 16 MB warm-up: the server process's peak RSS growth (sampled every 20 ms), as bench:storage.
 *
 * PostgreSQL: with BENCH_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test) the same
 * population is copied from the SQLite file into a database of its own on that server, created
 * for the run and dropped after it (postgres.ts), and the server runs on it; the same lines are
 * printed. `index_docs_per_s` there is the rate at which the copy writes `search_documents`
 * (rows of up to 1,000 a statement; PostgreSQL computes each one's tsvector and its GIN entries).
 *
 * Targets: search p95 ≤ 100 ms (goal 50 ms), the list with a search term p95 ≤ 150 ms, catalogue
 * search p95 ≤ 50 ms, `/me` under the search load ≤ 3 × its idle p95 (goal 1.5 ×), the upload's
 * RSS growth < 64 MB. Knobs: BENCH_USERS, BENCH_DEPARTMENTS, BENCH_COURSES, BENCH_LESSONS (per
 * course), BENCH_ENROLMENTS (per user), BENCH_ITEMS, BENCH_SEARCHERS (learners the load comes
 * from), BENCH_DURATION, BENCH_RESUMABLE_MB, BENCH_DATABASE_URL, BENCH_SKIP_BUILD=1,
 * BENCH_KEEP=1 (keeps the database, SQLite file or PostgreSQL database, to look at query
 * plans), BENCH_SERVER_NODE_ARGS (the server process's Node options).
 *
 * Last line: `library search_p95_ms=<n> list_p95_ms=<n> list_search_p95_ms=<n>
 * catalogue_p95_ms=<n> me_p95_ms=<n> me_idle_p95_ms=<n> me_under_load_p95_ms=<n>
 * upload_rss_mb=<n> index_docs_per_s=<n> db=<sqlite|postgres>`.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { BENCH_DATABASE_URL, copySqliteToPostgres, createBenchDatabase } from './postgres';
import {
  cheapRouteUnderLoad,
  databaseEnv,
  download,
  ensureServerBuilt,
  MB,
  p95Of,
  probeInOwnProcess,
  REPO_ROOT,
  resumableUpload,
  rssOf,
  sampleRss,
  signIn,
  signInAll,
  stop,
  underLoadSummary,
  waitForHttp,
} from './server-process';
// The server's own type tokens (node:crypto only), as its upsert writes them.
import { scopeTextOf } from '../server/src/platform/search/scope-tokens';

const USERS = Number(process.env.BENCH_USERS ?? 10_000);
const DEPARTMENTS = Number(process.env.BENCH_DEPARTMENTS ?? 20);
const COURSES = Number(process.env.BENCH_COURSES ?? 1_000);
const LESSONS_PER_COURSE = Number(process.env.BENCH_LESSONS ?? 20);
const ENROLMENTS_PER_USER = Number(process.env.BENCH_ENROLMENTS ?? 8);
const ITEMS = Number(process.env.BENCH_ITEMS ?? 10_000);
const SEARCHERS = Math.min(USERS, Number(process.env.BENCH_SEARCHERS ?? 200));
const CONNECTIONS = 20;
const DURATION_S = Number(process.env.BENCH_DURATION ?? 5);
const RESUMABLE_MB = Number(process.env.BENCH_RESUMABLE_MB ?? 1024);
const WARM_MB = 16;
const SECTIONS_PER_COURSE = 4;
const TARGET_SEARCH_P95_MS = 100;
const GOAL_SEARCH_P95_MS = 50;
const TARGET_LIST_SEARCH_P95_MS = 150;
const TARGET_CATALOGUE_P95_MS = 50;
const TARGET_RSS_MB = 64;

// ---------------------------------------------------------------- the words

/** Deterministic pseudo-random numbers (mulberry32), so every run indexes the same text. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Topics with their own words: a document is mostly about one, partly about another. */
const TOPICS: { title: string; words: string[] }[] = [
  {
    title: 'Fiber Splicing',
    words:
      'fusion splicer cleaver splice loss protector sleeve tray closure arc alignment electrode heat shrink ribbon'.split(
        ' ',
      ),
  },
  {
    title: 'OTDR Testing',
    words:
      'otdr trace traces event reflectance launch dead zone ghost gainer bidirectional pulse width averaging backscatter'.split(
        ' ',
      ),
  },
  {
    title: 'GPON Provisioning',
    words:
      'gpon olt ont onu splitter provisioning vlan activation serial downstream upstream ranging profile xgspon'.split(
        ' ',
      ),
  },
  {
    title: 'Aerial Fiber',
    words:
      'aerial strand lashing pole clamp span sag messenger clearance anchor guy bracket lasher'.split(
        ' ',
      ),
  },
  {
    title: 'Underground Ducts',
    words:
      'duct conduit manhole rodding blowing microduct trench handhole jetting subduct backfill boring'.split(
        ' ',
      ),
  },
  {
    title: 'Customer Care',
    words:
      'customer appointment premises drop wall outlet router wifi complaint visit courtesy handover'.split(
        ' ',
      ),
  },
  {
    title: 'Network Safety',
    words:
      'safety ppe harness ladder traffic permit confined gas hazard laser eyewear helmet'.split(
        ' ',
      ),
  },
  {
    title: 'DWDM Basics',
    words:
      'dwdm channel wavelength amplifier edfa mux demux dispersion transponder grid osnr spacing'.split(
        ' ',
      ),
  },
  {
    title: 'Fault Finding',
    words:
      'fault outage restoration break locator escalation ticket repair root cause diagnosis alarm'.split(
        ' ',
      ),
  },
  {
    title: 'Cabinet Installation',
    words:
      'cabinet rack patch panel grounding bonding rectifier battery jumper plinth door cooling'.split(
        ' ',
      ),
  },
  {
    title: 'Connector Care',
    words:
      'connector ferrule endface inspection cleaning apc upc contamination polish scope adapter mating'.split(
        ' ',
      ),
  },
  {
    title: 'Power Budgets',
    words:
      'power meter source attenuation budget acceptance certification report margin decibel milliwatt tier'.split(
        ' ',
      ),
  },
];

/** Words of every topic, from the most to the least used. */
const GENERAL = (
  'the fiber cable crew network field site work check record team link route install ' +
  'optical test result before after each every when then must should always never ' +
  'technician supervisor vehicle tool kit spare label map plan design survey schedule ' +
  'quality standard procedure checklist document photo report customer area street ' +
  'building floor riser backbone access distribution feeder node hub core cladding buffer ' +
  'tube jacket singlemode multimode loose tight armoured sheath kevlar gel water blocking ' +
  'bend radius macrobend microbend tension pulling reel slack loop storage coil figure ' +
  'eight marker locate utility permit council traffic weather rain cold heat light ' +
  'measurement value limit threshold nominal typical maximum minimum length distance metre ' +
  'kilometre wavelength nanometre port ratio rack tray panel closure patch jumper pigtail ' +
  'documentation asbuilt gis coordinates handover maintenance upgrade migration capacity ' +
  'bandwidth latency redundancy protection ring metro rural urban village estate'
).split(' ');

/**
 * `n` words: about 35 % of the main topic, 10 % of a second one (none when it is the main one),
 * the rest general; in each bag some words are used far more than others.
 */
function words(rand: () => number, main: number, second: number, n: number): string {
  const topic = TOPICS[main]?.words ?? [];
  const other = TOPICS[second]?.words ?? [];
  const out: string[] = [];
  let sentence = 0;
  for (let w = 0; w < n; w++) {
    const r = rand();
    const bag = r < 0.35 ? topic : r < 0.45 ? other : GENERAL;
    // Squaring favours the front of a bag: some words are everywhere, others rare.
    let word = bag[Math.floor(bag.length * rand() ** 2)] ?? 'fiber';
    if (sentence === 0) word = word.charAt(0).toUpperCase() + word.slice(1);
    sentence++;
    if (sentence > 7 + rand() * 10 || w === n - 1) {
      word += '.';
      sentence = 0;
    }
    out.push(word);
  }
  return out.join(' ');
}

/** Two words a learner types; the connections cycle through them. */
const QUERIES = [
  'otdr trace',
  'splice loss',
  'gpon splitter',
  'connector cleaning',
  'aerial strand',
  'fusion splicer',
  'duct rodding',
  'safety harness',
  'dwdm channel',
  'fault restoration',
  'power budget',
  'cabinet grounding',
];

const TAGS =
  'fiber splicing otdr gpon aerial underground safety dwdm fault cabinet connectors testing onboarding field-guide checklist video-notes reference'.split(
    ' ',
  );
const DOCUMENT_KINDS = [
  'field guide',
  'procedure',
  'checklist',
  'reference card',
  'training notes',
];

// ---------------------------------------------------------------- the population

/** The built server on the SQLite file in `dir`, or on the PostgreSQL database at `postgresUrl`. */
function startServer(dir: string, port: number, postgresUrl?: string): ChildProcess {
  const { DATABASE_URL: _ignored, ...env } = process.env;
  return fork(join(REPO_ROOT, 'server/dist/server.js'), [], {
    cwd: REPO_ROOT,
    // e.g. BENCH_SERVER_NODE_ARGS=--cpu-prof to see where the server's time goes.
    execArgv: process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [],
    env: {
      ...env,
      ...databaseEnv(dir, postgresUrl),
      PORT: String(port),
      HOST: '127.0.0.1',
      FILES_DIR: join(dir, 'files'),
      UPLOAD_MAX_BYTES: String(64 * MB),
      UPLOAD_RESUMABLE_MAX_BYTES: String((RESUMABLE_MB + 1) * MB),
      UPLOAD_USER_MAX_UNATTACHED_BYTES: String((RESUMABLE_MB + WARM_MB + 64) * 2 * MB),
      LOG_LEVEL: 'warn',
      SEED_DEMO: 'true',
      NODE_ENV: 'production',
    },
    stdio: 'inherit',
  });
}

const pad = (n: number, w: number) => String(n).padStart(w, '0');

/** Plain text of the bench's simple rich text, as richTextToPlainText gives it. */
const plain = (html: string) =>
  html
    .replace(/<\/(p|h[1-6])>/g, '$&\n')
    .replace(/<[^>]+>/g, '')
    .replace(/[ \t]+\n/g, '\n')
    .trim();

/** Text as the index stores it (search/terms.ts `indexable`). */
const indexable = (text: string) => text.replace(/[\uE000\uE001]/g, '');

interface Populated {
  learnerUsername: string;
  learnerDepartment: string;
  learnerCourses: number;
  visibleItems: number;
  courseDocs: number;
  courseDocsPerS: number;
  itemDocs: number;
  itemDocsPerS: number;
  textMb: number;
}

/** Fills the database the server made (schema, demo accounts and library) with the population. */
function populate(file: string): Populated {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  const rand = random(20);
  const now = Date.now();
  const at = new Date(now).toISOString();
  const ago = (days: number) => new Date(now - days * 86_400_000).toISOString();

  // Departments: the demo's and more, up to DEPARTMENTS.
  const departments = (
    db.prepare('select id from departments order by id').all() as { id: string }[]
  ).map((d) => d.id);
  const insertDepartment = db.prepare(
    `insert into departments (id, name, description, created_at) values (?, ?, '', ?)`,
  );
  db.transaction(() => {
    for (let d = departments.length; d < DEPARTMENTS; d++) {
      const id = `bench-dept-${pad(d, 2)}`;
      insertDepartment.run(id, `Region ${d}`, at);
      departments.push(id);
    }
  })();

  // Users, as copies of the demo student (same password), each in one department.
  const template = db.prepare(`select * from users where username = 'student'`).get() as Record<
    string,
    unknown
  >;
  const columns = Object.keys(template);
  const insertUser = db.prepare(
    `insert into users (${columns.join(', ')}) values (${columns.map((c) => `@${c}`).join(', ')})`,
  );
  const userIds: string[] = [];
  const departmentOf = (u: number) => departments[u % departments.length] as string;
  db.transaction(() => {
    for (let i = 0; i < USERS; i++) {
      const username = `learner${pad(i, 5)}`;
      const id = `bench-user-${pad(i, 5)}`;
      userIds.push(id);
      insertUser.run({
        ...template,
        id,
        username,
        username_key: username,
        email: `${username}@fiberco.example`,
        firstname: ['Jordan', 'María', 'Tomasz', 'Aisha', 'Liam', 'Mei'][i % 6],
        lastname: `Learner ${i}`,
        department_id: departmentOf(i),
        created_at: at,
        updated_at: at,
      });
    }
  })();
  const authors = (
    db
      .prepare(`select id from users where username in ('admin', 'instructor') order by username`)
      .all() as { id: string }[]
  ).map((u) => u.id);

  // Courses with sections and lessons (HTML bodies of 60–120 words).
  const insertCourse = db.prepare(
    `insert into courses (id, code, title, description, summary_html, department_id, created_at,
       state, enrolment_mode, updated_at, published_at, revision)
     values (?, ?, ?, ?, ?, ?, ?, 'published', 'open', ?, ?, 1)`,
  );
  const insertSection = db.prepare(
    `insert into course_sections (id, course_id, title, position, created_at) values (?, ?, ?, ?, ?)`,
  );
  const insertLesson = db.prepare(
    `insert into lessons (id, course_id, section_id, title, body_html, duration_minutes, position, created_at, updated_at)
     values (?, ?, ?, ?, ?, 15, ?, ?, ?)`,
  );
  const courseIds: string[] = [];
  const courseDocs: [string, string, string, string, string][] = [];
  db.transaction(() => {
    for (let c = 0; c < COURSES; c++) {
      const id = `bench-course-${pad(c, 4)}`;
      courseIds.push(id);
      const main = c % TOPICS.length;
      const topic = TOPICS[main]?.title ?? 'Fiber';
      const title = `${topic} ${Math.floor(c / TOPICS.length) + 1}`;
      const code = `BN-${pad(c, 4)}`;
      const summary = `How field crews handle ${topic.toLowerCase()} on the job, part ${c}.`;
      insertCourse.run(id, code, title, summary, `<p>${summary}</p>`, departmentOf(c), at, at, at);
      // As the courses area indexes a course: the code twice (as typed, and as words), the summary.
      courseDocs.push([
        'course',
        id,
        id,
        title,
        `${code} ${code.replace(/[^\p{L}\p{N}]+/gu, ' ')}\n${summary}`,
      ]);
      const perSection = Math.ceil(LESSONS_PER_COURSE / SECTIONS_PER_COURSE);
      for (let l = 0; l < LESSONS_PER_COURSE; l++) {
        const s = Math.floor(l / perSection);
        const sectionId = `${id}-s${s}`;
        if (l % perSection === 0) insertSection.run(sectionId, id, `Part ${s + 1}`, s, at);
        const lessonId = `${sectionId}-l${l}`;
        const lessonTitle = `${topic}: lesson ${l + 1}`;
        // A third of the lessons touch a second topic.
        const second = l % 3 === 0 ? (main + 1 + (l % 5)) % TOPICS.length : main;
        const bodyHtml = `<h2>${lessonTitle}</h2><p>${words(rand, main, second, 60 + Math.floor(rand() * 60))}</p>`;
        insertLesson.run(lessonId, id, sectionId, lessonTitle, bodyHtml, l, at, at);
        courseDocs.push(['lesson', lessonId, id, lessonTitle, plain(bodyHtml)]);
      }
    }
  })();

  // The search index: the upsert every repository runs (server/src/platform/search/search-index.ts),
  // the FTS5 triggers following.
  const upsertDocument = db.prepare(
    `insert into search_documents (doc_type, doc_id, course_id, department_id, title, body, scope)
     values (?, ?, ?, ?, ?, ?, ?)
     on conflict (doc_type, doc_id) do update set course_id = excluded.course_id,
       department_id = excluded.department_id, title = excluded.title, body = excluded.body,
       scope = excluded.scope`,
  );
  let started = performance.now();
  db.transaction(() => {
    for (const [type, id, courseId, title, body] of courseDocs) {
      upsertDocument.run(
        type,
        id,
        courseId,
        null,
        indexable(title),
        indexable(body),
        scopeTextOf({ type }),
      );
    }
  })();
  const courseDocsPerS = courseDocs.length / ((performance.now() - started) / 1000);

  // Enrolments: every user in ENROLMENTS_PER_USER courses, spread evenly.
  const enrol = db.prepare(
    `insert or ignore into context_assignments (user_id, context_key, context_type, roles, direct_permissions,
       assigned_by, assigned_at, expires_at, is_active)
     values (?, ?, 'course', '["course-student"]', '[]', 'system', ?, null, 1)`,
  );
  const enrolledIn = (u: number) =>
    Array.from(
      { length: ENROLMENTS_PER_USER },
      (_, k) => courseIds[(u * 37 + k * 131) % COURSES] as string,
    );
  db.transaction(() => {
    for (let u = 0; u < USERS; u++) {
      for (const course of enrolledIn(u)) enrol.run(userIds[u], `course:${course}`, at);
    }
  })();

  // Library items: documents with a file, versions with extracted text, tags, a category.
  const categories = (
    db.prepare('select id from library_categories order by name_key').all() as { id: string }[]
  ).map((c) => c.id);
  const insertItem = db.prepare(
    `insert into library_items (id, kind, title, description_html, category_id, scope_type,
       department_id, course_id, url, current_version, created_by, created_at, updated_at,
       updated_by, deleted_at, deleted_by, view_count, download_count)
     values (@id, 'document', @title, @description, @category, @scope, @department, @course, null,
       @version, @by, @created, @updated, @by, null, null, @views, @downloads)`,
  );
  const insertFile = db.prepare(
    `insert into files (id, storage_key, original_name, mime, size, sha256, uploaded_by, created_at,
       owner_type, owner_id, attached_at, thumbnail_key)
     values (?, ?, ?, ?, ?, ?, ?, ?, 'library-item', ?, ?, null)`,
  );
  const insertVersion = db.prepare(
    `insert into library_versions (id, item_id, version, file_id, created_by, created_at,
       text_state, text_error, extracted_text)
     values (?, ?, ?, ?, ?, ?, 'extracted', null, ?)`,
  );
  const insertTag = db.prepare(
    `insert or ignore into library_item_tags (item_id, tag) values (?, ?)`,
  );
  const itemIds: string[] = [];
  let textBytes = 0;
  const scopes: { department: string | null; course: string | null }[] = [];
  db.transaction(() => {
    for (let i = 0; i < ITEMS; i++) {
      const id = `bench-item-${pad(i, 5)}`;
      itemIds.push(id);
      const main = Math.floor(rand() * TOPICS.length);
      // Half the documents touch a second topic.
      const second =
        rand() < 0.5 ? (main + 1 + Math.floor(rand() * (TOPICS.length - 1))) % TOPICS.length : main;
      const topic = TOPICS[main]?.title ?? 'Fiber';
      const kind = DOCUMENT_KINDS[i % DOCUMENT_KINDS.length] ?? 'notes';
      const title = `${topic} ${kind} ${Math.floor(i / TOPICS.length) + 1}`;
      const r = rand();
      const scope =
        r < 0.3
          ? { type: 'everyone', department: null, course: null }
          : r < 0.7
            ? { type: 'department', department: departmentOf(i * 7 + 3), course: null }
            : { type: 'course', department: null, course: courseIds[(i * 13) % COURSES] as string };
      scopes.push(scope);
      const versions = i % 10 === 0 ? 2 : 1;
      const by = authors[i % authors.length] as string;
      const created = ago(365 * rand());
      insertItem.run({
        id,
        title,
        description: `<p>${words(rand, main, second, 12 + Math.floor(rand() * 20))}</p>`,
        category: categories[i % categories.length] ?? null,
        scope: scope.type,
        department: scope.department,
        course: scope.course,
        version: versions,
        by,
        created,
        updated: created < ago(30) && rand() < 0.3 ? ago(30 * rand()) : created,
        views: Math.floor(200 * rand() ** 3),
        downloads: Math.floor(50 * rand() ** 3),
      });
      for (let v = 1; v <= versions; v++) {
        const fileId = `bench-file-${pad(i, 5)}-v${v}`;
        const pdf = i % 4 !== 3;
        const name = `${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}${v > 1 ? `-v${v}` : ''}.${pdf ? 'pdf' : 'txt'}`;
        const text = words(rand, main, second, 200 + Math.floor(rand() * 250));
        textBytes += text.length;
        insertFile.run(
          fileId,
          `bench/${fileId}`,
          name,
          pdf ? 'application/pdf' : 'text/plain',
          text.length * 3,
          createHash('sha256').update(fileId).digest('hex'),
          by,
          created,
          id,
          created,
        );
        insertVersion.run(`${id}-v${v}`, id, v, fileId, by, created, text);
      }
      const tagCount = 1 + Math.floor(rand() * 3);
      for (let t = 0; t < tagCount; t++) {
        insertTag.run(id, TAGS[(main + t * 5 + Math.floor(rand() * 3)) % TAGS.length]);
      }
    }
  })();

  // Indexing the items, timed: what indexItem does for each, in one transaction.
  const readItem = db.prepare(
    `select i.id, i.title, i.description_html, i.department_id, i.course_id, i.url, i.deleted_at,
       f.original_name as file_name, v.extracted_text
     from library_items i
     left join library_versions v on v.item_id = i.id and v.version = i.current_version
     left join files f on f.id = v.file_id
     where i.id = ?`,
  );
  const readTags = db.prepare(`select tag from library_item_tags where item_id = ? order by tag`);
  started = performance.now();
  db.transaction(() => {
    for (const id of itemIds) {
      const row = readItem.get(id) as {
        id: string;
        title: string;
        description_html: string;
        department_id: string | null;
        course_id: string | null;
        url: string | null;
        file_name: string | null;
        extracted_text: string | null;
      };
      const tags = (readTags.all(id) as { tag: string }[]).map((t) => t.tag);
      const body = [
        plain(row.description_html),
        tags.join(' '),
        row.file_name ?? row.url ?? '',
        row.extracted_text ?? '',
      ]
        .filter((part) => part !== '')
        .join('\n');
      upsertDocument.run(
        'library-item',
        row.id,
        row.course_id,
        row.department_id,
        indexable(row.title),
        indexable(body),
        scopeTextOf({ type: 'library-item' }),
      );
    }
  })();
  const itemDocsPerS = itemIds.length / ((performance.now() - started) / 1000);
  db.pragma('optimize');
  db.close();

  // The measured learner: the last one; their department and their courses.
  const learner = USERS - 1;
  const mine = new Set(enrolledIn(learner));
  const visibleItems = scopes.filter(
    (s) =>
      (s.department === null && s.course === null) ||
      s.department === departmentOf(learner) ||
      (s.course !== null && mine.has(s.course)),
  ).length;
  return {
    learnerUsername: `learner${pad(learner, 5)}`,
    learnerDepartment: departmentOf(learner),
    learnerCourses: mine.size,
    visibleItems,
    courseDocs: courseDocs.length,
    courseDocsPerS,
    itemDocs: itemIds.length,
    itemDocsPerS,
    textMb: textBytes / MB,
  };
}

// ---------------------------------------------------------------- the run

async function main(): Promise<void> {
  ensureServerBuilt();
  const dir = mkdtempSync(join(tmpdir(), 'lh-bench-library-'));
  const port = 4100 + Math.floor(Math.random() * 200);
  const base = `http://127.0.0.1:${port}`;
  const postgres = BENCH_DATABASE_URL
    ? await createBenchDatabase(BENCH_DATABASE_URL, 'library')
    : undefined;
  let server = startServer(dir, port);
  try {
    await waitForHttp(`${base}/healthz`, server, 400);
    await stop(server);
    const filled = performance.now();
    const p = populate(join(dir, 'bench.db'));
    console.log(
      `populated ${USERS} users in ${DEPARTMENTS} departments, ${COURSES} courses with ` +
        `${COURSES * LESSONS_PER_COURSE} lessons, ${USERS * ENROLMENTS_PER_USER} enrolments, ` +
        `${ITEMS} library items (${p.textMb.toFixed(1)} MB of extracted text) in ` +
        `${((performance.now() - filled) / 1000).toFixed(1)} s`,
    );
    console.log(
      `index    ${p.itemDocs} library items at ${p.itemDocsPerS.toFixed(0)} docs/s; ` +
        `${p.courseDocs} courses and lessons at ${p.courseDocsPerS.toFixed(0)} docs/s`,
    );
    let indexDocsPerS = p.itemDocsPerS;
    if (postgres) {
      // The server migrates and seeds the new database; then it gets the SQLite file's rows.
      server = startServer(dir, port, postgres.url);
      await waitForHttp(`${base}/healthz`, server, 1200);
      await stop(server);
      const copy = await copySqliteToPostgres(join(dir, 'bench.db'), postgres.url);
      indexDocsPerS = copy.searchDocsPerS;
      console.log(
        `postgres ${postgres.name}: ${copy.rows} rows of ${copy.tables} tables copied and ` +
          `analysed in ${copy.seconds.toFixed(1)} s; search documents at ` +
          `${copy.searchDocsPerS.toFixed(0)} docs/s`,
      );
    }
    console.log(
      `learner  ${p.learnerUsername}: department ${p.learnerDepartment}, ${p.learnerCourses} ` +
        `courses; sees ${p.visibleItems} of ${ITEMS} items`,
    );

    server = startServer(dir, port, postgres?.url);
    await waitForHttp(`${base}/healthz`, server, 1200);
    // The load's people: the last SEARCHERS learners (every department), the measured one last.
    const searchers = Array.from(
      { length: SEARCHERS },
      (_, i) => `learner${pad(USERS - SEARCHERS + i, 5)}`,
    );
    const signingIn = performance.now();
    const tokens = await signInAll(base, searchers, 'student-demo-pass');
    console.log(
      `         ${SEARCHERS} learners signed in in ${((performance.now() - signingIn) / 1000).toFixed(1)} s`,
    );
    const learner = tokens.at(-1) as string;
    const admin = await signIn(base, 'admin', 'admin-demo-pass');

    // What the learner sees, checked once (the visibility filters are working).
    const listed = (await (
      await fetch(`${base}/api/library/items`, { headers: { authorization: `Bearer ${learner}` } })
    ).json()) as { total: number };
    if (listed.total < p.visibleItems) {
      throw new Error(`the list shows ${listed.total} items, expected ${p.visibleItems}`);
    }
    const found = (await (
      await fetch(`${base}/api/search?q=${encodeURIComponent(QUERIES[0] ?? '')}`, {
        headers: { authorization: `Bearer ${learner}` },
      })
    ).json()) as { total: number };
    console.log(
      `         the list shows ${listed.total} items; "${QUERIES[0]}" finds ${found.total} results`,
    );

    // The loads come from all the learners in turn; the peer and the probe are the last one.
    const run = (url: string, paths?: readonly string[]) =>
      p95Of(url, tokens, {
        connections: CONNECTIONS,
        durationS: DURATION_S,
        ...(paths ? { paths } : {}),
      });
    const me = await p95Of(`${base}/api/auth/me`, learner, {
      connections: CONNECTIONS,
      durationS: DURATION_S,
    });
    // In a process of its own: its timings are the server's, not this process's.
    const probe = () => probeInOwnProcess(`${base}/api/auth/me`, learner, DURATION_S);
    const searchLoad = await cheapRouteUnderLoad(probe, () =>
      run(
        base,
        QUERIES.map((q) => `/api/search?q=${encodeURIComponent(q)}`),
      ),
    );
    const search = searchLoad.load;
    const list = await run(`${base}/api/library/items`);
    const listSearch = await run(
      base,
      QUERIES.map((q) => `/api/library/items?search=${encodeURIComponent(q)}`),
    );
    const catalogue = await run(`${base}/api/courses?search=otdr`);

    // One resumable upload of RESUMABLE_MB, after a small one (first-use costs in the baseline).
    const pid = server.pid as number;
    await resumableUpload(base, admin, WARM_MB * MB);
    await new Promise((r) => setTimeout(r, 500));
    const before = rssOf(pid);
    const sampler = sampleRss(pid);
    const uploadStarted = performance.now();
    const sent = await resumableUpload(base, admin, RESUMABLE_MB * MB);
    const uploadSeconds = (performance.now() - uploadStarted) / 1000;
    const uploadRss = (sampler.stop() - before) / MB;
    const back = await download(`${base}/api/files/${sent.fileId}`, admin);
    if (back.size !== RESUMABLE_MB * MB || back.sha256 !== sent.sha256) {
      throw new Error('the resumable upload stored something else than was sent');
    }

    const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
    const line = (label: string, l: { p95: number; rps: number }, target?: string) =>
      console.log(
        `${label.padEnd(42)} p95 ${l.p95.toFixed(1).padStart(6)} ms, ${l.rps.toFixed(0).padStart(5)} req/s` +
          (l === me
            ? ''
            : ` (×${(l.p95 / me.p95).toFixed(1)} the peer${target ? `; ${target}` : ''})`),
      );
    const database = postgres ? 'postgres' : 'sqlite';
    console.log('');
    console.log(
      `autocannon on ${database}: ${CONNECTIONS} connections, ${DURATION_S} s per route (after 1 s ` +
        `warm-up), as ${SEARCHERS} learners in turn (the peer and the probe as ${p.learnerUsername})`,
    );
    line('peer     GET /api/auth/me', me);
    line(
      `search   GET /api/search?q= (${QUERIES.length} queries)`,
      search,
      `target ≤ ${TARGET_SEARCH_P95_MS} ms: ${verdict(search.p95 <= TARGET_SEARCH_P95_MS)}, goal ${GOAL_SEARCH_P95_MS} ms: ${verdict(search.p95 <= GOAL_SEARCH_P95_MS)}`,
    );
    line('list     GET /api/library/items', list);
    line(
      `list     GET /api/library/items?search= (${QUERIES.length})`,
      listSearch,
      `target ≤ ${TARGET_LIST_SEARCH_P95_MS} ms: ${verdict(listSearch.p95 <= TARGET_LIST_SEARCH_P95_MS)}`,
    );
    line(
      'catalogue GET /api/courses?search=otdr',
      catalogue,
      `target ≤ ${TARGET_CATALOGUE_P95_MS} ms: ${verdict(catalogue.p95 <= TARGET_CATALOGUE_P95_MS)}`,
    );
    console.log(
      underLoadSummary('cheap    GET /api/auth/me while 20 connections search', searchLoad),
    );
    console.log(
      `upload   ${RESUMABLE_MB} MB resumable (PATCHes of 256 MB) in ${uploadSeconds.toFixed(1)} s, ` +
        `server RSS ${(before / MB).toFixed(1)} MB, growth ${uploadRss.toFixed(1)} MB ` +
        `(target < ${TARGET_RSS_MB} MB: ${verdict(uploadRss < TARGET_RSS_MB)}); SHA-256 matches`,
    );
    console.log(
      `library search_p95_ms=${search.p95.toFixed(1)} list_p95_ms=${list.p95.toFixed(1)} ` +
        `list_search_p95_ms=${listSearch.p95.toFixed(1)} ` +
        `catalogue_p95_ms=${catalogue.p95.toFixed(1)} me_p95_ms=${me.p95.toFixed(1)} ` +
        `me_idle_p95_ms=${searchLoad.idle.p95.toFixed(2)} ` +
        `me_under_load_p95_ms=${searchLoad.underLoad.p95.toFixed(2)} ` +
        `upload_rss_mb=${uploadRss.toFixed(1)} index_docs_per_s=${indexDocsPerS.toFixed(0)} ` +
        `db=${database}`,
    );
  } finally {
    await stop(server);
    // BENCH_KEEP=1 keeps the populated database, to look at its query plans.
    if (process.env.BENCH_KEEP === '1') {
      console.log(`kept ${dir}${postgres ? ` and ${postgres.url}` : ''}`);
    } else {
      rmSync(dir, { recursive: true, force: true });
      await postgres?.drop();
    }
  }
}

await main();
