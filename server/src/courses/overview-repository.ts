/**
 * SQL of the learner's and teacher's overviews (GET /api/me/learning) and of the participants
 * page's people search. The overview reads the assignments, submissions and grades tables of the
 * assignments area directly (read only; their columns are in migration 0006): a submission with
 * attempt > 0 is work handed in.
 */
import type { Db } from '../db';
import { likePattern } from './course-repository';

/** Active users without an in-force assignment in the course, matching `search` (max `limit`). */
export async function listCandidates(
  db: Db,
  courseId: string,
  search: string | undefined,
  nowIso: string,
  limit: number,
) {
  let query = db
    .selectFrom('users')
    .select(['users.id', 'users.username', 'users.firstname', 'users.lastname'])
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
  return query.orderBy('users.lastname').orderBy('users.firstname').limit(limit).execute();
}

/** The lesson the user opened last in one of `courseIds`. */
export async function lastViewedIn(db: Db, userId: string, courseIds: readonly string[]) {
  if (courseIds.length === 0) return null;
  return (
    (await db
      .selectFrom('lesson_progress as p')
      .innerJoin('lessons as l', 'l.id', 'p.lesson_id')
      .innerJoin('courses as c', 'c.id', 'p.course_id')
      .select([
        'p.course_id',
        'c.title as course_title',
        'p.lesson_id',
        'l.title as lesson_title',
        'p.viewed_at',
      ])
      .where('p.user_id', '=', userId)
      .where('p.course_id', 'in', [...courseIds])
      .orderBy('p.viewed_at', 'desc')
      .limit(1)
      .executeTakeFirst()) ?? null
  );
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

/**
 * Handed-in work waiting for a grade per course: each learner's latest attempt of an assignment
 * that has no grade, or whose grade is for an earlier attempt.
 */
export async function countToGrade(
  db: Db,
  courseIds: readonly string[],
): Promise<Map<string, number>> {
  if (courseIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('submissions as s')
    .select(['s.course_id', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('s.course_id', 'in', [...courseIds])
    .where('s.attempt', '>', 0)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('submissions as later')
            .select('later.id')
            .whereRef('later.assignment_id', '=', 's.assignment_id')
            .whereRef('later.user_id', '=', 's.user_id')
            .whereRef('later.attempt', '>', 's.attempt'),
        ),
      ),
    )
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('grades as g')
            .select('g.user_id')
            .whereRef('g.assignment_id', '=', 's.assignment_id')
            .whereRef('g.user_id', '=', 's.user_id')
            .whereRef('g.submission_id', '=', 's.id'),
        ),
      ),
    )
    .groupBy('s.course_id')
    .execute();
  return new Map(rows.map((r) => [r.course_id, Number(r.n)]));
}
