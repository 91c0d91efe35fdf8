/**
 * All SQL about learners' progress through lessons (`lesson_progress`: one row per learner and
 * lesson once opened; `completed_at` when marked complete).
 */
import type { Progress } from '@learning-hub/core';
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
