/**
 * The learner's and teacher's overview (GET /api/me/learning): the courses they are enrolled in,
 * where to continue (the next unfinished lesson, or that the course is complete), work due soon
 * or overdue, recent released grades; the courses they teach, and in those they may grade (the
 * grader page's rule) the work waiting for a grade, the latest hand-ins and what is due soon. A
 * constant number of queries, whatever the number of courses.
 */
import type { LearningOverview } from '@learning-hub/core';
import type { AccessService } from '../../platform/access/access-service';
import { waitingForGrade } from '../assignments/public';
import type { Db } from '../../platform/db';
import { courseAccess } from './course-access';
import { countEnrolled, findCourseRecords, type CourseRecord } from './course-repository';
import { buildCards, type Viewer } from './course-views';
import { courseVisibilityOf } from '../../platform/visibility/course-visibility';
import {
  assignmentTitles,
  countHandedIn,
  lastActivityByCourse,
  listCreatedCourseIds,
  listOpenWork,
  listRecentGrades,
  listRecentHandIns,
  listTeachingDue,
} from './overview-repository';
import { completedLessonIds, lastViewedLessonId } from './progress-repository';
import { nextLessonToContinue } from './resume';
import { loadOutline, readingOrder } from './structure-repository';
import { displayName } from '../../platform/auth/display-name';

/** How far ahead "due soon" looks. */
export const DUE_SOON_MS = 14 * 24 * 3_600_000;
const LIST_MAX = 20;
const RECENT_GRADES = 5;
const RECENT_HAND_INS = 5;
const TEACHING_DUE = 10;

type Card = Awaited<ReturnType<typeof buildCards>>[number];

/**
 * Continue: the next unfinished lesson of the course the learner was active in most recently that
 * still has one; else, when they were active in some course, that every lesson of the latest one
 * is complete.
 */
async function resumePoint(
  db: Db,
  userId: string,
  cards: readonly Card[],
): Promise<Pick<LearningOverview, 'continueLesson' | 'courseComplete'>> {
  const none = { continueLesson: null, courseComplete: null };
  const active = await lastActivityByCourse(
    db,
    userId,
    cards.map((c) => c.id),
  );
  const started = cards
    .filter((c) => active.has(c.id) && c.lessonCount > 0)
    .map((c) => ({ card: c, at: active.get(c.id) as string }))
    .sort((a, b) => b.at.localeCompare(a.at) || a.card.id.localeCompare(b.card.id));
  let unfinished: { card: Card; at: string | null } | undefined = started.find(
    ({ card }) => (card.progress?.completedLessons ?? 0) < card.lessonCount,
  );
  // Nothing under way: a course with lessons the learner has not opened yet is where they start.
  if (!unfinished) {
    const unopened = cards.find(
      (c) =>
        !active.has(c.id) &&
        c.lessonCount > 0 &&
        (c.progress?.completedLessons ?? 0) < c.lessonCount,
    );
    if (unopened) unfinished = { card: unopened, at: null };
  }
  if (!unfinished) {
    const latest = started[0];
    return latest
      ? {
          continueLesson: null,
          courseComplete: { courseId: latest.card.id, courseTitle: latest.card.title },
        }
      : none;
  }
  const { card, at } = unfinished;
  const [outline, done, last] = await Promise.all([
    loadOutline(db, card.id),
    completedLessonIds(db, userId, card.id),
    lastViewedLessonId(db, userId, card.id),
  ]);
  const lessons = readingOrder(outline);
  const next = nextLessonToContinue(
    lessons.map((l) => l.id),
    done,
    last,
  );
  const lesson = lessons.find((l) => l.id === next);
  if (!lesson) return none;
  return {
    continueLesson: {
      courseId: card.id,
      courseTitle: card.title,
      lessonId: lesson.id,
      lessonTitle: lesson.title,
      viewedAt: at,
    },
    courseComplete: null,
  };
}

/** What waits for someone who grades `courses`: the queue per assignment, hand-ins, due dates. */
async function teachingWork(
  db: Db,
  courses: readonly CourseRecord[],
  learners: ReadonlyMap<string, number>,
  now: number,
): Promise<{
  work: Pick<LearningOverview, 'toGrade' | 'recentHandIns' | 'teachingDue'>;
  /** Learners whose work waits for a grade, per course. */
  waitingIn: Map<string, number>;
}> {
  const ids = courses.map((c) => c.id);
  const titleOf = new Map(courses.map((c) => [c.id, c.title]));
  const [waiting, handIns, due] = await Promise.all([
    waitingForGrade(db, ids),
    listRecentHandIns(db, ids, RECENT_HAND_INS),
    listTeachingDue(
      db,
      ids,
      { after: new Date(now).toISOString(), until: new Date(now + DUE_SOON_MS).toISOString() },
      TEACHING_DUE,
    ),
  ]);
  const [titles, handedIn] = await Promise.all([
    assignmentTitles(
      db,
      waiting.map((w) => w.assignmentId),
    ),
    countHandedIn(
      db,
      due.map((d) => d.id),
    ),
  ]);
  const waitingIn = new Map<string, number>();
  for (const w of waiting) waitingIn.set(w.courseId, (waitingIn.get(w.courseId) ?? 0) + w.count);
  const toGrade = waiting
    .map((w) => ({
      assignmentId: w.assignmentId,
      assignmentTitle: titles.get(w.assignmentId) ?? '',
      courseId: w.courseId,
      courseTitle: titleOf.get(w.courseId) ?? '',
      count: w.count,
      firstSubmissionId: w.firstSubmissionId,
    }))
    .sort(
      (a, b) =>
        b.count - a.count ||
        a.courseTitle.localeCompare(b.courseTitle) ||
        a.assignmentTitle.localeCompare(b.assignmentTitle),
    )
    .slice(0, LIST_MAX);
  const work = {
    toGrade,
    recentHandIns: handIns.map((h) => ({
      submissionId: h.id,
      assignmentId: h.assignment_id,
      assignmentTitle: h.assignment_title,
      courseId: h.course_id,
      courseTitle: h.course_title,
      learnerName: displayName(h),
      attempt: Number(h.attempt),
      submittedAt: h.submitted_at as string,
      late: Boolean(h.is_late),
      graded: h.graded_submission_id === h.id,
    })),
    teachingDue: due.map((d) => ({
      assignmentId: d.id,
      assignmentTitle: d.title,
      courseId: d.course_id,
      courseTitle: d.course_title,
      dueAt: d.due_at as string,
      handedIn: handedIn.get(d.id) ?? 0,
      learners: learners.get(d.course_id) ?? 0,
    })),
  };
  return { work, waitingIn };
}

export async function learningOverview(
  db: Db,
  access: AccessService,
  viewer: Viewer,
  now: number,
): Promise<LearningOverview> {
  const user = viewer.user;
  const nowIso = new Date(now).toISOString();
  const visibility = courseVisibilityOf(access, user, now);
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
  // Where they may see the submissions, as the grader page decides it (in memory: no query).
  const grading = teaching.filter((c) => {
    const a = courseAccess(access, user, c, now);
    return a.canLearn && a.can('assignment.view_submissions');
  });
  const [cards, soon, late, grades, learners] = await Promise.all([
    buildCards(db, learning, viewer, visibility.enrolledIds, now),
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
  ]);
  const [resume, { work, waitingIn }] = await Promise.all([
    resumePoint(db, user.id, cards),
    teachingWork(db, grading, learners, now),
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
    ...resume,
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
        toGrade: waitingIn.get(c.id) ?? 0,
      })),
    ...work,
  };
}
