/**
 * SQL of the learner's and teacher's overviews (GET /api/me/learning) and of the participants
 * page's people search. The overview reads the assignments, submissions and grades tables of the
 * assignments area directly (read only; their columns are in migration 0006): a submission with
 * attempt > 0 is work handed in.
 */
import type { Db } from '../../platform/db';
import { likePattern } from '../../platform/db/sql';

/** Active users without an in-force assignment in the course, matching `search` (max `limit`). */
export async function listCandidates(
  db: Db,
  courseId: string,
  search: string | undefined,
  nowIso: string,
  window: { offset: number; limit: number },
) {
  let query = db
    .selectFrom('users')
    .where('users.is_active', '=', 1)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('context_assignments as a')
            .select('a.user_id')
            .whereRef('a.user_id', '=', 'users.id')
            .where('a.context_key', '=', `course:${courseId}`)
            .where('a.is_active', '=', 1)
            .where((eb) =>
              eb.or([eb('a.expires_at', 'is', null), eb('a.expires_at', '>', nowIso)]),
            ),
        ),
      ),
    );
  if (search) {
    const pattern = likePattern(search);
    query = query.where((eb) =>
      eb.or(
        (['users.username_key', 'users.firstname', 'users.lastname', 'users.email'] as const).map(
          (c) => eb(eb.fn('lower', [c]), 'like', pattern),
        ),
      ),
    );
  }
  const [users, counted] = await Promise.all([
    query
      .select(['users.id', 'users.username', 'users.firstname', 'users.lastname'])
      .orderBy('users.lastname')
      .orderBy('users.firstname')
      .orderBy('users.id')
      .limit(window.limit)
      .offset(window.offset)
      .execute(),
    query.select((eb) => eb.fn.countAll().as('count')).executeTakeFirstOrThrow(),
  ]);
  return { users, total: Number(counted.count) };
}

/** When the user last opened a lesson of each of `courseIds` they have opened one of. */
export async function lastActivityByCourse(
  db: Db,
  userId: string,
  courseIds: readonly string[],
): Promise<Map<string, string>> {
  if (courseIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('lesson_progress')
    .select(['course_id', (eb) => eb.fn.max('viewed_at').as('last')])
    .where('user_id', '=', userId)
    .where('course_id', 'in', [...courseIds])
    .groupBy('course_id')
    .execute();
  return new Map(rows.map((r) => [r.course_id, String(r.last)]));
}

/**
 * Assignments with a due date in `courseIds` (published courses only) that the user has not
 * handed in, due in (after, until]: soonest first, or latest first for overdue work (which then
 * lists only assignments still taking late work).
 */
export async function listOpenWork(
  db: Db,
  userId: string,
  courseIds: readonly string[],
  range: { after: string | null; until: string; overdue: boolean },
  limit: number,
) {
  if (courseIds.length === 0) return [];
  let query = db
    .selectFrom('assignments as a')
    .innerJoin('courses as c', 'c.id', 'a.course_id')
    .select([
      'a.id',
      'a.title',
      'a.course_id',
      'c.title as course_title',
      'a.due_at',
      'a.late_policy',
    ])
    .where('a.course_id', 'in', [...courseIds])
    .where('c.state', '=', 'published')
    .where('a.due_at', 'is not', null)
    .where('a.due_at', '<=', range.until)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('submissions as s')
            .select('s.id')
            .whereRef('s.assignment_id', '=', 'a.id')
            .where('s.user_id', '=', userId)
            .where('s.attempt', '>', 0),
        ),
      ),
    )
    .orderBy('a.due_at', range.overdue ? 'desc' : 'asc')
    .orderBy('a.id')
    .limit(limit);
  if (range.after !== null) query = query.where('a.due_at', '>', range.after);
  if (range.overdue) query = query.where('a.late_policy', '!=', 'refuse');
  return query.execute();
}

/** The user's latest released grades. */
export async function listRecentGrades(db: Db, userId: string, limit: number) {
  return db
    .selectFrom('grades as g')
    .innerJoin('assignments as a', 'a.id', 'g.assignment_id')
    .innerJoin('courses as c', 'c.id', 'g.course_id')
    .select([
      'g.assignment_id',
      'a.title as assignment_title',
      'g.course_id',
      'c.title as course_title',
      'g.points',
      'a.points as max_points',
      'g.graded_at',
    ])
    .where('g.user_id', '=', userId)
    .where('a.grades_released', '=', 1)
    .orderBy('g.graded_at', 'desc')
    .limit(limit)
    .execute();
}

/** Courses the user created (they teach those too, while they exist). */
export async function listCreatedCourseIds(db: Db, userId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('courses')
    .select('id')
    .where('created_by', '=', userId)
    .execute();
  return rows.map((r) => r.id);
}

/** Titles of assignments by id. */
export async function assignmentTitles(
  db: Db,
  ids: readonly string[],
): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('assignments')
    .select(['id', 'title'])
    .where('id', 'in', [...ids])
    .execute();
  return new Map(rows.map((r) => [r.id, r.title]));
}

/** The latest handed-in attempts in `courseIds`, newest first, with whether each is graded. */
export async function listRecentHandIns(db: Db, courseIds: readonly string[], limit: number) {
  if (courseIds.length === 0) return [];
  return db
    .selectFrom('submissions as s')
    .innerJoin('assignments as a', 'a.id', 's.assignment_id')
    .innerJoin('courses as c', 'c.id', 's.course_id')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .leftJoin('grades as g', (join) =>
      join.onRef('g.assignment_id', '=', 's.assignment_id').onRef('g.user_id', '=', 's.user_id'),
    )
    .select([
      's.id',
      's.assignment_id',
      'a.title as assignment_title',
      's.course_id',
      'c.title as course_title',
      'u.firstname',
      'u.lastname',
      'u.username',
      's.attempt',
      's.submitted_at',
      's.is_late',
      'g.submission_id as graded_submission_id',
    ])
    .where('s.course_id', 'in', [...courseIds])
    .where('s.status', '=', 'submitted')
    .where('s.attempt', '>', 0)
    .where('s.submitted_at', 'is not', null)
    .orderBy('s.submitted_at', 'desc')
    .orderBy('s.id', 'desc')
    .limit(limit)
    .execute();
}

/** Assignments of `courseIds` (published courses) due in (after, until], soonest first. */
export async function listTeachingDue(
  db: Db,
  courseIds: readonly string[],
  range: { after: string; until: string },
  limit: number,
) {
  if (courseIds.length === 0) return [];
  return db
    .selectFrom('assignments as a')
    .innerJoin('courses as c', 'c.id', 'a.course_id')
    .select(['a.id', 'a.title', 'a.course_id', 'c.title as course_title', 'a.due_at'])
    .where('a.course_id', 'in', [...courseIds])
    .where('c.state', '=', 'published')
    .where('a.due_at', '>', range.after)
    .where('a.due_at', '<=', range.until)
    .orderBy('a.due_at')
    .orderBy('a.id')
    .limit(limit)
    .execute();
}

/** Learners who have handed in at least one attempt, per assignment of `assignmentIds`. */
export async function countHandedIn(
  db: Db,
  assignmentIds: readonly string[],
): Promise<Map<string, number>> {
  if (assignmentIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('submissions')
    .select(['assignment_id', (eb) => eb.fn.count<number | string>('user_id').distinct().as('n')])
    .where('assignment_id', 'in', [...assignmentIds])
    .where('attempt', '>', 0)
    .groupBy('assignment_id')
    .execute();
  return new Map(rows.map((r) => [r.assignment_id, Number(r.n)]));
}
