/**
 * `npm run bench:classroom`: the classroom at company scale on the embedded database (SQLite) —
 * 10,000 users, 1,000 published courses, 100,000 enrolments and 20,000 handed-in submissions,
 * one course with 5,000 learners — on the built server in its own process.
 *
 * Measured (autocannon, 20 connections, one run each, after a short warm-up):
 * - catalogue search (`GET /api/courses?search=…`), search (`GET /api/search?q=…`) and the course page (`GET /api/courses/{id}`)
 *   as a learner, p95 latency (from every response's time); the peer in the same run is
 *   `GET /api/auth/me`, the cheapest authenticated route, so the ratio shows what the classroom
 *   query itself costs;
 * - the gradebook CSV export of the 5,000-learner course: rows/s and the server's peak RSS
 *   growth while it streams;
 * - a 200 MB upload: the server's peak RSS growth while it streams.
 * Targets: p95 ≤ 50 ms; export ≥ 50,000 rows/s with RSS growth < 64 MB; upload RSS < 64 MB.
 *
 * Last line:
 * `classroom catalogue_p95_ms=<n> search_p95_ms=<n> course_p95_ms=<n> export_rows_per_s=<n> export_rss_mb=<n> upload_rss_mb=<n>`.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import {
  ensureServerBuilt,
  MB,
  p95Of,
  REPO_ROOT,
  rssOf,
  sampleRss,
  signIn,
  stop,
  upload,
  waitForHttp,
} from './server-process';

const USERS = Number(process.env.BENCH_USERS ?? 10_000);
const COURSES = Number(process.env.BENCH_COURSES ?? 1_000);
const ENROLMENTS = Number(process.env.BENCH_ENROLMENTS ?? 100_000);
const BIG_COURSE_LEARNERS = Number(process.env.BENCH_BIG_COURSE ?? 5_000);
const BIG_COURSE_ASSIGNMENTS = 4; // × 5,000 learners = 20,000 submissions
const CONNECTIONS = 20;
const DURATION_S = Number(process.env.BENCH_DURATION ?? 5);
const UPLOAD_MB = Number(process.env.BENCH_UPLOAD_MB ?? 200);
const TARGET_P95_MS = 50;
const TARGET_ROWS_PER_S = 50_000;
const TARGET_RSS_MB = 64;

const TOPICS = [
  'Fiber Splicing',
  'OTDR Testing',
  'GPON Provisioning',
  'Aerial Fiber',
  'Underground Ducts',
  'Customer Care',
  'Network Safety',
  'DWDM Basics',
  'Fault Finding',
  'Cabinet Installation',
];

function startServer(dir: string, port: number): ChildProcess {
  return fork(join(REPO_ROOT, 'server/dist/server.js'), [], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      SQLITE_PATH: join(dir, 'bench.db'),
      FILES_DIR: join(dir, 'files'),
      UPLOAD_MAX_BYTES: String((UPLOAD_MB + 1) * MB),
      LOG_LEVEL: 'warn',
      SEED_DEMO: 'true',
      NODE_ENV: 'production',
    },
    stdio: 'inherit',
  });
}

/** Fills the database the server made (schema and demo accounts) with the bench's population. */
function populate(file: string): {
  bigCourseId: string;
  learnerUsername: string;
  courseId: string;
} {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  const at = new Date().toISOString();
  const template = db.prepare(`select * from users where username = 'student'`).get() as Record<
    string,
    unknown
  >;
  const departments = (db.prepare('select id from departments').all() as { id: string }[]).map(
    (d) => d.id,
  );
  const columns = Object.keys(template);
  const insertUser = db.prepare(
    `insert into users (${columns.join(', ')}) values (${columns.map((c) => `@${c}`).join(', ')})`,
  );
  const pad = (n: number, w: number) => String(n).padStart(w, '0');
  const userIds: string[] = [];
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
        department_id: departments[i % departments.length] ?? null,
        created_at: at,
        updated_at: at,
      });
    }
  })();

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
  const insertAssignment = db.prepare(
    `insert into assignments (id, course_id, title, instructions_html, due_at, points, submission_kinds,
       file_kinds, max_file_bytes, late_policy, max_attempts, grades_released, position, created_at, updated_at)
     values (?, ?, ?, '<p>Hand in your work.</p>', ?, 10, '["text","file"]', '[]', 26214400, 'mark_late', 3, 1, ?, ?, ?)`,
  );
  // The search index (server/src/platform/search), as the repositories keep it: the FTS5 triggers follow.
  const insertDocument = db.prepare(
    `insert into search_documents (doc_type, doc_id, course_id, title, body) values (?, ?, ?, ?, ?)`,
  );
  const courseIds: string[] = [];
  db.transaction(() => {
    for (let c = 0; c < COURSES; c++) {
      const id = `bench-course-${pad(c, 4)}`;
      courseIds.push(id);
      const topic = TOPICS[c % TOPICS.length] as string;
      const title = `${topic} ${Math.floor(c / TOPICS.length) + 1}`;
      const summary = `How field crews handle ${topic.toLowerCase()} on the job, part ${c}.`;
      insertCourse.run(
        id,
        `BN-${pad(c, 4)}`,
        title,
        summary,
        `<p>${summary}</p>`,
        departments[c % departments.length] ?? null,
        at,
        at,
        at,
      );
      insertDocument.run('course', id, id, title, `BN-${pad(c, 4)} BN ${pad(c, 4)}\n${summary}`);
      for (let s = 0; s < 3; s++) {
        const sectionId = `${id}-s${s}`;
        insertSection.run(sectionId, id, `Part ${s + 1}`, s, at);
        for (let l = 0; l < 4; l++) {
          insertLesson.run(
            `${sectionId}-l${l}`,
            id,
            sectionId,
            `Lesson ${s + 1}.${l + 1}`,
            `<h2>Lesson ${l + 1}</h2><p>${summary}</p>`,
            l,
            at,
            at,
          );
          insertDocument.run(
            'lesson',
            `${sectionId}-l${l}`,
            id,
            `Lesson ${s + 1}.${l + 1}`,
            `Lesson ${l + 1}\n${summary}`,
          );
        }
      }
      const assignments = c === 0 ? BIG_COURSE_ASSIGNMENTS : 2;
      for (let a = 0; a < assignments; a++) {
        insertAssignment.run(`${id}-a${a}`, id, `Task ${a + 1}`, at, a, at, at);
      }
    }
  })();

  // Enrolments: the big course gets the first BIG_COURSE_LEARNERS users; the rest spread evenly.
  const enrol = db.prepare(
    `insert or ignore into context_assignments (user_id, context_key, context_type, roles, direct_permissions,
       assigned_by, assigned_at, expires_at, is_active)
     values (?, ?, 'course', '["course-student"]', '[]', 'system', ?, null, 1)`,
  );
  let enrolments = 0;
  db.transaction(() => {
    for (let u = 0; u < BIG_COURSE_LEARNERS; u++) {
      enrol.run(userIds[u], `course:${courseIds[0]}`, at);
      enrolments++;
    }
    for (let k = 0; enrolments < ENROLMENTS; k++) {
      const user = userIds[k % USERS] as string;
      const course = courseIds[1 + ((k * 7 + Math.floor(k / USERS)) % (COURSES - 1))] as string;
      enrolments += enrol.run(user, `course:${course}`, at).changes;
    }
  })();

  // 20,000 handed-in, graded submissions in the big course.
  const submit = db.prepare(
    `insert into submissions (id, assignment_id, course_id, user_id, attempt, status, text_html, submitted_at, is_late, created_at, updated_at)
     values (?, ?, ?, ?, 1, 'submitted', '<p>Done.</p>', ?, 0, ?, ?)`,
  );
  const grade = db.prepare(
    `insert into grades (assignment_id, course_id, user_id, submission_id, points, feedback_html, graded_by, graded_at, is_override, revision)
     values (?, ?, ?, ?, ?, '', 'bench', ?, 0, 1)`,
  );
  db.transaction(() => {
    for (let a = 0; a < BIG_COURSE_ASSIGNMENTS; a++) {
      for (let u = 0; u < BIG_COURSE_LEARNERS; u++) {
        const id = `bench-sub-${a}-${u}`;
        const assignmentId = `${courseIds[0]}-a${a}`;
        submit.run(id, assignmentId, courseIds[0], userIds[u], at, at, at);
        grade.run(assignmentId, courseIds[0], userIds[u], id, (u * 7 + a) % 11, at);
      }
    }
  })();
  db.pragma('optimize');
  db.close();
  // A learner enrolled in ordinary courses; the course page measured is one of theirs.
  return {
    bigCourseId: courseIds[0] as string,
    learnerUsername: `learner${pad(USERS - 1, 5)}`,
    courseId: courseIds[1] as string,
  };
}

/** One autocannon run of `url` as `token` (server-process's p95Of with this bench's settings). */
const p95 = (url: string, token: string) =>
  p95Of(url, token, { connections: CONNECTIONS, durationS: DURATION_S });

async function main(): Promise<void> {
  ensureServerBuilt();
  const dir = mkdtempSync(join(tmpdir(), 'lh-bench-classroom-'));
  const port = 3900 + Math.floor(Math.random() * 200);
  const base = `http://127.0.0.1:${port}`;
  let server = startServer(dir, port);
  try {
    await waitForHttp(`${base}/healthz`, server, 400);
    await stop(server);
    const filled = performance.now();
    const { bigCourseId, learnerUsername, courseId } = populate(join(dir, 'bench.db'));
    console.log(
      `populated ${USERS} users, ${COURSES} courses, ${ENROLMENTS} enrolments, ` +
        `${BIG_COURSE_LEARNERS * BIG_COURSE_ASSIGNMENTS} submissions in ${((performance.now() - filled) / 1000).toFixed(1)} s`,
    );

    server = startServer(dir, port);
    await waitForHttp(`${base}/healthz`, server, 400);
    const learner = await signIn(base, learnerUsername, 'student-demo-pass');
    const admin = await signIn(base, 'admin', 'admin-demo-pass');

    const me = await p95(`${base}/api/auth/me`, learner);
    const catalogue = await p95(`${base}/api/courses?search=otdr&page=2&pageSize=24`, learner);
    const course = await p95(`${base}/api/courses/${courseId}`, learner);
    const search = await p95(`${base}/api/search?q=otdr%20traces`, learner);

    // Gradebook export of the 5,000-learner course.
    const pid = server.pid as number;
    await fetch(`${base}/api/courses/${bigCourseId}/grades.csv`, {
      headers: { authorization: `Bearer ${admin}` },
    }).then((r) => r.arrayBuffer()); // warm-up
    await new Promise((r) => setTimeout(r, 300));
    const exportBefore = rssOf(pid);
    const exportSampler = sampleRss(pid);
    const started = performance.now();
    const res = await fetch(`${base}/api/courses/${bigCourseId}/grades.csv`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    if (res.status !== 200 || !res.body) throw new Error(`export answered ${res.status}`);
    let lines = 0;
    for await (const chunk of res.body) {
      for (const byte of chunk as Uint8Array) if (byte === 10) lines++;
    }
    const exportSeconds = (performance.now() - started) / 1000;
    const exportRss = (exportSampler.stop() - exportBefore) / MB;
    const rows = lines - 1; // the header
    if (rows < BIG_COURSE_LEARNERS) throw new Error(`export had ${rows} rows`);
    const rowsPerS = rows / exportSeconds;

    // A 200 MB upload (after a 16 MB warm-up, as bench:storage does).
    await upload(`${base}/api/files`, admin, 16 * MB);
    await new Promise((r) => setTimeout(r, 300));
    const uploadBefore = rssOf(pid);
    const uploadSampler = sampleRss(pid);
    const sent = await upload(`${base}/api/files`, admin, UPLOAD_MB * MB);
    const uploadRss = (uploadSampler.stop() - uploadBefore) / MB;
    if (sent.status !== 201) throw new Error(`upload answered ${sent.status} ${sent.body}`);

    const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
    console.log('');
    console.log(
      `autocannon: ${CONNECTIONS} connections, ${DURATION_S} s per route (after 1 s warm-up)`,
    );
    console.log(
      `peer     GET /api/auth/me          p95 ${me.p95.toFixed(1)} ms, ${me.rps.toFixed(0)} req/s`,
    );
    console.log(
      `catalogue search                   p95 ${catalogue.p95.toFixed(1)} ms, ${catalogue.rps.toFixed(0)} req/s ` +
        `(×${(catalogue.p95 / me.p95).toFixed(1)} the peer; target ≤ ${TARGET_P95_MS} ms: ${verdict(catalogue.p95 <= TARGET_P95_MS)})`,
    );
    console.log(
      `search   GET /api/search           p95 ${search.p95.toFixed(1)} ms, ${search.rps.toFixed(0)} req/s ` +
        `(×${(search.p95 / me.p95).toFixed(1)} the peer; target ≤ ${TARGET_P95_MS} ms: ${verdict(search.p95 <= TARGET_P95_MS)})`,
    );
    console.log(
      `course page                        p95 ${course.p95.toFixed(1)} ms, ${course.rps.toFixed(0)} req/s ` +
        `(×${(course.p95 / me.p95).toFixed(1)} the peer; target ≤ ${TARGET_P95_MS} ms: ${verdict(course.p95 <= TARGET_P95_MS)})`,
    );
    console.log(
      `export   ${rows} rows in ${exportSeconds.toFixed(2)} s = ${rowsPerS.toFixed(0)} rows/s ` +
        `(target ≥ ${TARGET_ROWS_PER_S}: ${verdict(rowsPerS >= TARGET_ROWS_PER_S)}), ` +
        `RSS growth ${exportRss.toFixed(1)} MB (target < ${TARGET_RSS_MB}: ${verdict(exportRss < TARGET_RSS_MB)})`,
    );
    console.log(
      `upload   ${UPLOAD_MB} MB, RSS growth ${uploadRss.toFixed(1)} MB ` +
        `(target < ${TARGET_RSS_MB}: ${verdict(uploadRss < TARGET_RSS_MB)})`,
    );
    console.log(
      `classroom catalogue_p95_ms=${catalogue.p95.toFixed(1)} search_p95_ms=${search.p95.toFixed(1)} course_p95_ms=${course.p95.toFixed(1)} ` +
        `export_rows_per_s=${rowsPerS.toFixed(0)} export_rss_mb=${exportRss.toFixed(1)} upload_rss_mb=${uploadRss.toFixed(1)}`,
    );
  } finally {
    await stop(server);
    // BENCH_KEEP=1 keeps the populated database, to look at its query plans.
    if (process.env.BENCH_KEEP === '1') console.log(`kept ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

await main();
