/**
 * All SQL about the course record (the context of course roles): finding, the catalogue page
 * with its per-page figures, creating, the conditional update, deleting, and the row lock every
 * change that depends on the course's state or counts takes first (docs/classroom.md).
 */
import type { Course, CourseState } from '@learning-hub/core';
import { sql, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Db } from '../../platform/db';
import type { Database } from '../../platform/db/schema';
import { searchIndex } from '../../platform/search/search-index';
import { searchTerms } from '../../platform/search/terms';
import {
  FALSE,
  visibleIn,
  type CourseVisibility,
} from '../../platform/visibility/course-visibility';

/** A course row as the domain uses it. */
export interface CourseRecord {
  id: string;
  code: string;
  title: string;
  description: string;
  departmentId: string | null;
  departmentName: string | null;
  summaryHtml: string;
  state: CourseState;
  enrolmentMode: 'open' | 'key' | 'manual';
  enrolmentKey: string | null;
  startsAt: string | null;
  endsAt: string | null;
  capacity: number | null;
  coverFileId: string | null;
  /** The cover file exists and has a thumbnail. */
  coverHasThumbnail: boolean;
  createdBy: string | null;
  createdAt: string;
  updatedAt: string;
  publishedAt: string | null;
  revision: number;
}

function courseQuery(db: Db) {
  return db
    .selectFrom('courses')
    .leftJoin('departments', 'departments.id', 'courses.department_id')
    .leftJoin('files', 'files.id', 'courses.cover_file_id')
    .select([
      'courses.id',
      'courses.code',
      'courses.title',
      'courses.description',
      'courses.department_id',
      'departments.name as department_name',
      'courses.summary_html',
      'courses.state',
      'courses.enrolment_mode',
      'courses.enrolment_key',
      'courses.starts_at',
      'courses.ends_at',
      'courses.capacity',
      'courses.cover_file_id',
      'files.thumbnail_key',
      'courses.created_by',
      'courses.created_at',
      'courses.updated_at',
      'courses.published_at',
      'courses.revision',
    ]);
}

type Row = NonNullable<Awaited<ReturnType<ReturnType<typeof courseQuery>['executeTakeFirst']>>>;

const STATES = new Set(['draft', 'published', 'archived']);
const MODES = new Set(['open', 'key', 'manual']);

function toRecord(r: Row): CourseRecord {
  return {
    id: r.id,
    code: r.code,
    title: r.title,
    description: r.description,
    departmentId: r.department_id,
    departmentName: r.department_name,
    summaryHtml: r.summary_html,
    state: (STATES.has(r.state) ? r.state : 'draft') as CourseState,
    enrolmentMode: (MODES.has(r.enrolment_mode)
      ? r.enrolment_mode
      : 'manual') as CourseRecord['enrolmentMode'],
    enrolmentKey: r.enrolment_key,
    startsAt: r.starts_at,
    endsAt: r.ends_at,
    capacity: r.capacity === null ? null : Number(r.capacity),
    coverFileId: r.cover_file_id,
    coverHasThumbnail: r.thumbnail_key !== null && r.thumbnail_key !== undefined,
    createdBy: r.created_by,
    createdAt: r.created_at,
    updatedAt: r.updated_at ?? r.created_at,
    publishedAt: r.published_at,
    revision: Number(r.revision),
  };
}

/** The course as the admin pickers and context labels know it. */
export const toCourse = (c: CourseRecord): Course => ({
  id: c.id,
  code: c.code,
  title: c.title,
  description: c.description,
  departmentId: c.departmentId,
  departmentName: c.departmentName,
});

export async function findCourseRecord(db: Db, id: string): Promise<CourseRecord | null> {
  const row = await courseQuery(db).where('courses.id', '=', id).executeTakeFirst();
  return row ? toRecord(row) : null;
}

export async function findCourse(db: Db, id: string): Promise<Course | null> {
  const record = await findCourseRecord(db, id);
  return record ? toCourse(record) : null;
}

/** Several courses by id (any order). */
export async function findCourseRecords(db: Db, ids: readonly string[]): Promise<CourseRecord[]> {
  if (ids.length === 0) return [];
  const rows = await courseQuery(db)
    .where('courses.id', 'in', [...ids])
    .orderBy('courses.title')
    .orderBy('courses.id')
    .execute();
  return rows.map(toRecord);
}

// ---------------------------------------------------------------- the catalogue

export interface CatalogueFilter {
  search?: string | undefined;
  departmentId?: string | undefined;
  /** `mine`: only courses in `visibility.participantIds`. */
  scope: 'all' | 'mine';
  state: CourseState | 'any';
  visibility: CourseVisibility;
  offset: number;
  limit: number;
}

/** One page of the catalogue (ordered by title) and the total, in two queries (three for a page past the end). */
export async function listCataloguePage(
  db: Db,
  filter: CatalogueFilter,
): Promise<{ courses: CourseRecord[]; total: number }> {
  const states: CourseState[] =
    filter.state === 'any' ? ['published', 'draft', 'archived'] : [filter.state];
  let base = db
    .selectFrom('courses')
    .where((eb) => eb.or(states.map((s) => visibleIn(eb, s, filter.visibility))));
  if (filter.scope === 'mine') {
    const ids = filter.visibility.participantIds;
    base = base.where((eb) => (ids.length > 0 ? eb('courses.id', 'in', [...ids]) : FALSE));
  }
  if (filter.departmentId) base = base.where('courses.department_id', '=', filter.departmentId);
  if (filter.search) {
    // The search index (title, code and summary; prefixes and stems). Nothing to search for
    // (only symbols) finds nothing.
    const terms = searchTerms(filter.search);
    const matching = terms.length > 0 ? searchIndex(db).matchingIds('course', terms) : null;
    base = base.where(matching ? sql<SqlBool>`courses.id in ${matching}` : FALSE);
  }
  // The page and the total in one pass (a window count); only a page past the end needs a
  // second query for the total.
  const page = await base
    .select(['courses.id', (eb) => eb.fn.countAll<number | string>().over().as('n')])
    .orderBy('courses.title')
    .orderBy('courses.id')
    .limit(filter.limit)
    .offset(filter.offset)
    .execute();
  const total =
    page.length > 0
      ? { n: page[0]?.n ?? 0 }
      : await base
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .executeTakeFirstOrThrow();
  const rows = await findCourseRecords(
    db,
    page.map((r) => r.id),
  );
  return { courses: rows, total: Number(total.n) };
}

/** The in-force course-student condition on context_assignments, at `nowIso`. */
function inForceStudent(nowIso: string) {
  return (eb: ExpressionBuilder<Database, 'context_assignments'>) =>
    eb.and([
      eb('context_assignments.roles', 'like', '%"course-student"%'),
      eb('context_assignments.is_active', '=', 1),
      eb.or([
        eb('context_assignments.expires_at', 'is', null),
        eb('context_assignments.expires_at', '>', nowIso),
      ]),
    ]);
}

/** Learners enrolled now per course (in-force course-student assignments). */
export async function countEnrolled(
  db: Db,
  courseIds: readonly string[],
  nowIso: string,
): Promise<Map<string, number>> {
  if (courseIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('context_assignments')
    .select(['context_key', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where(
      'context_key',
      'in',
      courseIds.map((id) => `course:${id}`),
    )
    .where(inForceStudent(nowIso))
    .groupBy('context_key')
    .execute();
  return new Map(rows.map((r) => [r.context_key.slice('course:'.length), Number(r.n)]));
}

/**
 * Learners enrolled now in one course, other than `exceptUserId`: the capacity count, read under
 * the course's row lock (see lockCourse).
 */
export async function countEnrolledExcept(
  db: Db,
  courseId: string,
  exceptUserId: string,
  nowIso: string,
): Promise<number> {
  const row = await db
    .selectFrom('context_assignments')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('context_key', '=', `course:${courseId}`)
    .where('user_id', '!=', exceptUserId)
    .where(inForceStudent(nowIso))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

// ---------------------------------------------------------------- changes

/**
 * (Re)indexes the course for search from its row as it is now: title; code and plain summary.
 * Every write of those columns calls it in its transaction (docs/search.md).
 */
export async function indexCourse(db: Db, id: string): Promise<void> {
  const row = await db
    .selectFrom('courses')
    .select(['id', 'code', 'title', 'description'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) return;
  await searchIndex(db).upsert(db, {
    type: 'course',
    id: row.id,
    courseId: row.id,
    title: row.title,
    // The code also as separate words: PostgreSQL reads `FO-150` as `fo` and `-150`.
    body: `${row.code} ${row.code.replace(/[^\p{L}\p{N}]+/gu, ' ')}\n${row.description}`,
  });
}

/** The fields of a new course. */
export interface NewCourse {
  code: string;
  title: string;
  description: string;
  summaryHtml: string;
  departmentId: string | null;
  enrolmentMode: string;
  enrolmentKey: string | null;
  startsAt: string | null;
  endsAt: string | null;
  capacity: number | null;
  coverFileId: string | null;
  createdBy: string | null;
  state: CourseState;
}

/**
 * The first id of `slug`, `slug-2`, `slug-3`, … that no course has, as one expression the insert
 * evaluates: a recursive walk that goes on while the id it reached is taken. Decided by the
 * statement that writes the row, so nothing can take the id between a read and the write on
 * SQLite (one writer); on PostgreSQL two inserts running at once may both reach the same id, and
 * the primary key refuses the second (isCourseIdTaken), which the caller retries.
 */
function firstFreeCourseId(slug: string) {
  return sql<string>`(
    with recursive candidate(n, id) as (
      select 1, cast(${slug} as text)
      union all
      select n + 1, cast(${slug} as text) || '-' || cast(n + 1 as text)
      from candidate
      where exists (select 1 from courses where courses.id = candidate.id)
    )
    select id from candidate
    where not exists (select 1 from courses where courses.id = candidate.id)
  )`;
}

/**
 * Inserts a course whose id is its readable `slug` (`osp-150`), or that slug with the first free
 * suffix (`osp-150-2`), and returns the id. A unique violation on `code` is the caller's 409; one
 * on the id (a concurrent insert took it first, PostgreSQL) is the caller's to retry.
 */
export async function createCourse(
  db: Db,
  slug: string,
  course: NewCourse,
  at: string,
): Promise<string> {
  const row = await db
    .insertInto('courses')
    .values({
      id: firstFreeCourseId(slug),
      code: course.code,
      title: course.title,
      description: course.description,
      summary_html: course.summaryHtml,
      department_id: course.departmentId,
      enrolment_mode: course.enrolmentMode,
      enrolment_key: course.enrolmentKey,
      starts_at: course.startsAt,
      ends_at: course.endsAt,
      capacity: course.capacity,
      cover_file_id: course.coverFileId,
      created_by: course.createdBy,
      state: course.state,
      created_at: at,
      updated_at: at,
      published_at: course.state === 'published' ? at : null,
      revision: 0,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await indexCourse(db, row.id);
  return row.id;
}

/** A bare published course (tests, the demo seed, directory-mapped contexts). */
export async function insertCourse(
  db: Db,
  course: Omit<Course, 'departmentName'>,
  at: string,
): Promise<void> {
  await db
    .insertInto('courses')
    .values({
      id: course.id,
      code: course.code,
      title: course.title,
      description: course.description,
      department_id: course.departmentId,
      created_at: at,
      updated_at: at,
      published_at: at,
    })
    .execute();
  await indexCourse(db, course.id);
}

export async function countCourses(db: Db): Promise<number> {
  const row = await db
    .selectFrom('courses')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Takes the course's row lock for the rest of the transaction (a no-op write: SQLite has no
 * SELECT … FOR UPDATE) and returns its state as it is now; null when there is no such course.
 * Capacity, structure limits and deletion are decided under it, so they cannot race.
 */
export async function lockCourse(db: Db, id: string): Promise<CourseRecord | null> {
  const locked = await db
    .updateTable('courses')
    .set({ revision: sql`revision` })
    .where('id', '=', id)
    .executeTakeFirst();
  if (Number(locked.numUpdatedRows) === 0) return null;
  return findCourseRecord(db, id);
}

/** Marks the course as changed now (structure edits), without touching its revision. */
export async function touchCourse(db: Db, id: string, at: string): Promise<void> {
  await db.updateTable('courses').set({ updated_at: at }).where('id', '=', id).execute();
}

/** The course columns PATCH may change. */
export interface CourseChanges {
  code?: string;
  title?: string;
  summaryHtml?: string;
  description?: string;
  departmentId?: string | null;
  enrolmentMode?: string;
  enrolmentKey?: string | null;
  startsAt?: string | null;
  endsAt?: string | null;
  capacity?: number | null;
  coverFileId?: string | null;
  state?: CourseState;
}

/**
 * Applies changes only if the course is still in `expect.state` (and at `expect.revision` when
 * given): revision + 1, updated_at, published_at on the first publication. False when the
 * condition failed (someone else changed it first). A code taken by another course throws the
 * database's unique violation.
 */
export async function updateCourse(
  db: Db,
  id: string,
  changes: CourseChanges,
  expect: { state: CourseState; revision?: number | undefined },
  at: string,
): Promise<boolean> {
  const set: Record<string, unknown> = {};
  const columns: [keyof CourseChanges, string][] = [
    ['code', 'code'],
    ['title', 'title'],
    ['summaryHtml', 'summary_html'],
    ['description', 'description'],
    ['departmentId', 'department_id'],
    ['enrolmentMode', 'enrolment_mode'],
    ['enrolmentKey', 'enrolment_key'],
    ['startsAt', 'starts_at'],
    ['endsAt', 'ends_at'],
    ['capacity', 'capacity'],
    ['coverFileId', 'cover_file_id'],
    ['state', 'state'],
  ];
  for (const [key, column] of columns) if (changes[key] !== undefined) set[column] = changes[key];
  let query = db
    .updateTable('courses')
    .set({
      ...set,
      revision: sql`revision + 1`,
      updated_at: at,
      ...(changes.state === 'published'
        ? { published_at: sql`coalesce(published_at, ${at})` }
        : {}),
    })
    .where('id', '=', id)
    .where('state', '=', expect.state);
  if (expect.revision !== undefined) query = query.where('revision', '=', expect.revision);
  const result = await query.executeTakeFirst();
  const applied = Number(result.numUpdatedRows) === 1;
  if (applied && (set['code'] ?? set['title'] ?? set['description']) !== undefined) {
    await indexCourse(db, id);
  }
  return applied;
}

/** Whether any learner's work or grade hangs on the course (then it is archived, not deleted). */
export async function hasSubmissionsOrGrades(db: Db, courseId: string): Promise<boolean> {
  const submission = await db
    .selectFrom('submissions')
    .select('id')
    .where('course_id', '=', courseId)
    .limit(1)
    .executeTakeFirst();
  if (submission) return true;
  const grade = await db
    .selectFrom('grades')
    .select('user_id')
    .where('course_id', '=', courseId)
    .limit(1)
    .executeTakeFirst();
  return grade !== undefined;
}

/** Users with an assignment (in force or not) in the course. */
export async function listCourseAssignmentUsers(db: Db, courseId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('context_assignments')
    .select('user_id')
    .where('context_key', '=', `course:${courseId}`)
    .execute();
  return rows.map((r) => r.user_id);
}

/** Deletes the course row; sections, lessons, progress, assignments go with it (cascade). */
export async function deleteCourseRow(db: Db, courseId: string): Promise<boolean> {
  await searchIndex(db).removeCourse(db, courseId);
  const result = await db.deleteFrom('courses').where('id', '=', courseId).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/** Whether a department exists (a course's department must). */
export async function departmentExists(db: Db, id: string): Promise<boolean> {
  const row = await db
    .selectFrom('departments')
    .select('id')
    .where('id', '=', id)
    .executeTakeFirst();
  return row !== undefined;
}

/** Clears the cover if it is still `fileId` (its attach failed after all). */
export async function clearCover(db: Db, courseId: string, fileId: string): Promise<void> {
  await db
    .updateTable('courses')
    .set({ cover_file_id: null })
    .where('id', '=', courseId)
    .where('cover_file_id', '=', fileId)
    .execute();
}

/** Sets the cover and summary of a copy once its media are copied. */
export async function setCoverAndSummary(
  db: Db,
  courseId: string,
  coverFileId: string | null,
  summaryHtml: string,
): Promise<void> {
  await db
    .updateTable('courses')
    .set({ cover_file_id: coverFileId, summary_html: summaryHtml })
    .where('id', '=', courseId)
    .execute();
}
