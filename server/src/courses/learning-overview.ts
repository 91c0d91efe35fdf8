/**
 * The learner's and teacher's overview (GET /api/me/learning): the courses they are enrolled in,
 * where to continue, work due soon or overdue, recent released grades, and the courses they
 * teach. A constant number of queries, whatever the number of courses.
 */
import type { LearningOverview } from '@learning-hub/core';
import type { AccessService } from '../access/access-service';
import type { Db } from '../db';
import { countEnrolled, findCourseRecords } from './course-repository';
import { buildCards, visibilityOf, type Viewer } from './course-views';
import {
  countToGrade,
  lastViewedIn,
  listCreatedCourseIds,
  listOpenWork,
  listRecentGrades,
} from './overview-repository';

/** How far ahead "due soon" looks. */
export const DUE_SOON_MS = 14 * 24 * 3_600_000;
const LIST_MAX = 20;
const RECENT_GRADES = 5;

export async function learningOverview(
  db: Db,
  access: AccessService,
  viewer: Viewer,
  now: number,
): Promise<LearningOverview> {
  const user = viewer.user;
  const nowIso = new Date(now).toISOString();
  const visibility = visibilityOf(access, user, now);
  const enrolledIds = [...visibility.enrolledIds];
  const teachingRoles = new Set<string>();
  for (const a of access.engine.subjectOf(user.id)?.contextAssignments ?? []) {
    if (a.context.type !== 'course' || !visibility.participantIds.includes(a.context.courseId)) {
      continue;
    }
    if (a.roles.includes('course-instructor') || a.roles.includes('course-assistant')) {
      teachingRoles.add(a.context.courseId);
    }
  }
  const created = await listCreatedCourseIds(db, user.id);
  const teachingIds = [...new Set([...teachingRoles, ...created])];
  const records = await findCourseRecords(db, [...new Set([...enrolledIds, ...teachingIds])]);
  const byId = new Map(records.map((c) => [c.id, c]));
  // A learner's courses: the ones they are enrolled in that they may still see (not drafts).
  const learning = records.filter((c) => visibility.enrolledIds.has(c.id) && c.state !== 'draft');
  const learningIds = learning.map((c) => c.id);
  const teaching = teachingIds.flatMap((id) => byId.get(id) ?? []);
  const [cards, last, soon, late, grades, learners, toGrade] = await Promise.all([
    buildCards(db, learning, viewer, visibility.enrolledIds, now),
    lastViewedIn(db, user.id, learningIds),
    listOpenWork(
      db,
      user.id,
      learningIds,
      { after: nowIso, until: new Date(now + DUE_SOON_MS).toISOString(), overdue: false },
      LIST_MAX,
    ),
    listOpenWork(db, user.id, learningIds, { after: null, until: nowIso, overdue: true }, LIST_MAX),
    listRecentGrades(db, user.id, RECENT_GRADES),
    countEnrolled(
      db,
      teaching.map((c) => c.id),
      nowIso,
    ),
    countToGrade(
      db,
      teaching.map((c) => c.id),
    ),
  ]);
  const dueItem = (overdue: boolean) => (w: Awaited<ReturnType<typeof listOpenWork>>[number]) => ({
    assignmentId: w.id,
    assignmentTitle: w.title,
    courseId: w.course_id,
    courseTitle: w.course_title,
    dueAt: w.due_at as string,
    overdue,
  });
  return {
    courses: cards,
    continueLesson: last
      ? {
          courseId: last.course_id,
          courseTitle: last.course_title,
          lessonId: last.lesson_id,
          lessonTitle: last.lesson_title,
          viewedAt: last.viewed_at,
        }
      : null,
    dueSoon: soon.map(dueItem(false)),
    // Overdue work is listed only where late work is still taken (latest first).
    overdue: late.map(dueItem(true)),
    recentGrades: grades.map((g) => ({
      assignmentId: g.assignment_id,
      assignmentTitle: g.assignment_title,
      courseId: g.course_id,
      courseTitle: g.course_title,
      points: Number(g.points),
      maxPoints: Number(g.max_points),
      gradedAt: g.graded_at,
    })),
    teaching: teaching
      .sort((a, b) => a.title.localeCompare(b.title))
      .map((c) => ({
        courseId: c.id,
        courseTitle: c.title,
        code: c.code,
        state: c.state,
        learners: learners.get(c.id) ?? 0,
        toGrade: toGrade.get(c.id) ?? 0,
      })),
  };
}
