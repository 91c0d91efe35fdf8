/**
 * All SQL about learners' progress through lessons (`lesson_progress`: one row per learner and
 * lesson once opened; `completed_at` when marked complete).
 */
import type { Progress } from '@learning-hub/core';
import { sql, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { Db } from '../../platform/db';

/** 0–100 rounded down, from completed and total lessons. */
export function toProgress(completed: number, total: number): Progress {
  const done = Math.min(completed, total);
  return {
    completedLessons: done,
    totalLessons: total,
    percent: total === 0 ? 0 : Math.floor((done * 100) / total),
  };
}

/** Records that the learner opened the lesson now (first time or again). */
export async function recordLessonViewed(
  db: Db,
  entry: { userId: string; lessonId: string; courseId: string },
  at: string,
): Promise<void> {
  await db
    .insertInto('lesson_progress')
    .values({
      user_id: entry.userId,
      lesson_id: entry.lessonId,
      course_id: entry.courseId,
      viewed_at: at,
      completed_at: null,
    })
    .onConflict((oc) => oc.columns(['user_id', 'lesson_id']).doUpdateSet({ viewed_at: at }))
    .execute();
}

/** Marks a lesson complete (keeping the first completion time) or not complete. */
export async function setLessonCompleted(
  db: Db,
  entry: { userId: string; lessonId: string; courseId: string },
  completed: boolean,
  at: string,
): Promise<void> {
  await db
    .insertInto('lesson_progress')
    .values({
      user_id: entry.userId,
      lesson_id: entry.lessonId,
      course_id: entry.courseId,
      viewed_at: at,
      completed_at: completed ? at : null,
    })
    .onConflict((oc) =>
      oc.columns(['user_id', 'lesson_id']).doUpdateSet((eb) => ({
        completed_at: completed ? eb.fn.coalesce('lesson_progress.completed_at', eb.val(at)) : null,
      })),
    )
    .execute();
}

/** The lessons of a course the learner has completed. */
export async function completedLessonIds(
  db: Db,
  userId: string,
  courseId: string,
): Promise<Set<string>> {
  const rows = await db
    .selectFrom('lesson_progress')
    .select('lesson_id')
    .where('user_id', '=', userId)
    .where('course_id', '=', courseId)
    .where('completed_at', 'is not', null)
    .execute();
  return new Set(rows.map((r) => r.lesson_id));
}

/** The lesson of a course the learner opened last. */
export async function lastViewedLessonId(
  db: Db,
  userId: string,
  courseId: string,
): Promise<string | null> {
  const row = await db
    .selectFrom('lesson_progress')
    .select('lesson_id')
    .where('user_id', '=', userId)
    .where('course_id', '=', courseId)
    .orderBy('viewed_at', 'desc')
    .orderBy('lesson_id')
    .limit(1)
    .executeTakeFirst();
  return row?.lesson_id ?? null;
}

/** Completed lessons per course for one learner. */
export async function countCompletedByCourse(
  db: Db,
  userId: string,
  courseIds: readonly string[],
): Promise<Map<string, number>> {
  if (courseIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('lesson_progress')
    .select(['course_id', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('user_id', '=', userId)
    .where('course_id', 'in', [...courseIds])
    .where('completed_at', 'is not', null)
    .groupBy('course_id')
    .execute();
  return new Map(rows.map((r) => [r.course_id, Number(r.n)]));
}

/** Completed lessons per learner in one course. */
export async function countCompletedByUser(
  db: Db,
  courseId: string,
  userIds: readonly string[],
): Promise<Map<string, number>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('lesson_progress')
    .select(['user_id', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('course_id', '=', courseId)
    .where('user_id', 'in', [...userIds])
    .where('completed_at', 'is not', null)
    .groupBy('user_id')
    .execute();
  return new Map(rows.map((r) => [r.user_id, Number(r.n)]));
}

/** A group of learners' progress in one course (enrolled, completed, average percent). */
export interface GroupProgress {
  enrolled: number;
  completed: number;
  averageProgress: number;
}

/**
 * The ids of a group of people (`user_id`), as a subquery the figures below count over: the
 * department page passes its members (department-repository's memberIds).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any query that selects `user_id`
export type LearnerIds = SelectQueryBuilder<any, any, { user_id: string }>;

/**
 * For each course, the learners of the group enrolled in it now (an in-force course-student
 * assignment, as the catalogue counts them), how many of them completed every lesson, and their
 * average progress — each learner's percent as the classroom computes it (toProgress: completed
 * lessons of all, rounded down), averaged and rounded. One query, whatever the courses and
 * learners; a learner's completed lessons are read over lesson_progress's (user, course) index.
 */
export async function progressOfGroup(
  db: Db,
  learners: LearnerIds,
  courseIds: readonly string[],
  nowIso: string,
): Promise<Map<string, GroupProgress>> {
  if (courseIds.length === 0) return new Map();
  // Each enrolled learner with their completed lessons (a grouped join: a correlated count would
  // be repeated by SQLite for every use of it in the sums below).
  const enrolled = db
    .selectFrom('context_assignments as e')
    .leftJoin('lesson_progress as lp', (join) =>
      join
        .onRef('lp.user_id', '=', 'e.user_id')
        .on(sql<SqlBool>`lp.course_id = substr(e.context_key, 8)`)
        .on('lp.completed_at', 'is not', null),
    )
    .select([
      sql<string>`substr(e.context_key, 8)`.as('course_id'),
      (eb) => eb.fn.count<number>('lp.lesson_id').as('done'),
    ])
    .where(
      'e.context_key',
      'in',
      courseIds.map((id) => `course:${id}`),
    )
    .where('e.roles', 'like', '%"course-student"%')
    .where('e.is_active', '=', 1)
    .where((eb) => eb.or([eb('e.expires_at', 'is', null), eb('e.expires_at', '>', nowIso)]))
    .where('e.user_id', 'in', learners)
    .groupBy(['e.context_key', 'e.user_id']);
  const lessons = db
    .selectFrom('lessons')
    .select(['course_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('course_id', 'in', [...courseIds])
    .groupBy('course_id');
  const rows = await db
    .selectFrom(enrolled.as('m'))
    .leftJoin(lessons.as('t'), 't.course_id', 'm.course_id')
    .select([
      'm.course_id',
      (eb) => eb.fn.countAll<number | string>().as('enrolled'),
      sql<number | string>`sum(case when t.n > 0 and m.done >= t.n then 1 else 0 end)`.as(
        'completed',
      ),
      sql<number | string>`sum(case when t.n is null or t.n = 0 then 0
        when m.done >= t.n then 100 else (m.done * 100) / t.n end)`.as('percent'),
    ])
    .groupBy('m.course_id')
    .execute();
  return new Map(
    rows.map((r) => {
      const count = Number(r.enrolled);
      return [
        r.course_id,
        {
          enrolled: count,
          completed: Number(r.completed),
          averageProgress: count === 0 ? 0 : Math.round(Number(r.percent) / count),
        },
      ];
    }),
  );
}
