/**
 * Course records turned into what the API answers: the catalogue cards (figures for a whole page
 * in a constant number of queries) and one course's detail with its outline and the viewer's flags
 * (which courses a viewer may see is the platform's rule: platform/visibility/course-visibility.ts).
 * See docs/classroom.md.
 */
import { contextKey, type CourseCard, type CourseDetail } from '@learning-hub/core';
import type { AccessService } from '../../platform/access/access-service';
import type { UserRecord } from '../../platform/auth/user-repository';
import type { Db } from '../../platform/db';
import { courseAccess, courseContext, viewerFlags, type CourseAccess } from './course-access';
import { countEnrolled, type CourseRecord } from './course-repository';
import { isEnrolmentBlocked, selfEnrolDecision } from './enrolment-service';
import {
  completedLessonIds,
  countCompletedByCourse,
  lastViewedLessonId,
  toProgress,
} from './progress-repository';
import { nextLessonToContinue } from './resume';
import { countLessonsOf, loadOutline, readingOrder } from './structure-repository';

/** Who is looking, and how to sign file URLs for their session. */
export interface Viewer {
  user: UserRecord;
  /** Signs a `/api/files/…` path for the viewer's session. */
  sign: (path: string) => string;
  /** Signs every stored-file reference of sanitised HTML for the viewer's session. */
  signHtml: (html: string) => string;
}

function coverUrl(course: CourseRecord, viewer: Viewer): string | null {
  if (!course.coverFileId) return null;
  const path = `/api/files/${course.coverFileId}${course.coverHasThumbnail ? '/thumbnail' : ''}`;
  return viewer.sign(path);
}

/** Catalogue cards for a page of courses: three queries, whatever the page size. */
export async function buildCards(
  db: Db,
  courses: readonly CourseRecord[],
  viewer: Viewer,
  enrolledIds: ReadonlySet<string>,
  now: number,
): Promise<CourseCard[]> {
  const ids = courses.map((c) => c.id);
  const mine = ids.filter((id) => enrolledIds.has(id));
  const [enrolled, lessons, completed] = await Promise.all([
    countEnrolled(db, ids, new Date(now).toISOString()),
    countLessonsOf(db, ids),
    countCompletedByCourse(db, viewer.user.id, mine),
  ]);
  return courses.map((c) => {
    const lessonCount = lessons.get(c.id) ?? 0;
    const isEnrolled = enrolledIds.has(c.id);
    return {
      id: c.id,
      code: c.code,
      title: c.title,
      description: c.description,
      departmentId: c.departmentId,
      departmentName: c.departmentName,
      summary: c.description,
      state: c.state,
      enrolmentMode: c.enrolmentMode,
      startsAt: c.startsAt,
      endsAt: c.endsAt,
      capacity: c.capacity,
      enrolledCount: enrolled.get(c.id) ?? 0,
      coverFileId: c.coverFileId,
      coverUrl: coverUrl(c, viewer),
      lessonCount,
      progress: isEnrolled ? toProgress(completed.get(c.id) ?? 0, lessonCount) : null,
      enrolled: isEnrolled,
      updatedAt: c.updatedAt,
    };
  });
}

/** The self-enrolment decision for the viewer's flags (the rule enrolment itself applies). */
export function enrolDecisionFor(
  access: AccessService,
  user: UserRecord,
  course: CourseRecord,
  enrolledCount: number,
  now: number,
  roles: readonly string[] = [],
  blocked = false,
) {
  const permission = access.decide(
    user.id,
    { permissions: ['course.enroll'], mode: 'all', roles: [] },
    courseContext(course.id),
  );
  return selfEnrolDecision(course, {
    permission: permission.allowed ? null : permission.reason,
    enrolled: enrolledCount,
    now,
    roles,
    blocked,
  });
}

/** One course with its outline, the viewer's progress and what they may do in it. */
export async function buildDetail(
  db: Db,
  access: AccessService,
  course: CourseRecord,
  viewer: Viewer,
  now: number,
  gate?: CourseAccess,
): Promise<CourseDetail> {
  const user = viewer.user;
  const a = gate ?? courseAccess(access, user, course, now);
  const enrolledIds = new Set(a.enrolled ? [course.id] : []);
  const [[card], outline, done, last, blocked] = await Promise.all([
    buildCards(db, [course], viewer, enrolledIds, now),
    loadOutline(db, course.id),
    a.enrolled ? completedLessonIds(db, user.id, course.id) : Promise.resolve(new Set<string>()),
    a.canLearn ? lastViewedLessonId(db, user.id, course.id) : Promise.resolve(null),
    a.enrolled ? Promise.resolve(false) : isEnrolmentBlocked(db, course.id, user.id),
  ]);
  const base = card as CourseCard;
  const enrol = enrolDecisionFor(access, user, course, base.enrolledCount, now, a.roles, blocked);
  return {
    ...base,
    summaryHtml: viewer.signHtml(course.summaryHtml),
    enrolmentKey: a.canEdit || a.editor ? course.enrolmentKey : null,
    createdAt: course.createdAt,
    publishedAt: course.publishedAt,
    revision: course.revision,
    sections: outline.sections.map((s) => ({
      id: s.id,
      title: s.title,
      position: s.position,
      lessons: s.lessons.map((l) => ({
        id: l.id,
        sectionId: l.sectionId,
        title: l.title,
        durationMinutes: l.durationMinutes,
        position: l.position,
        completed: done.has(l.id),
        revision: l.revision,
      })),
    })),
    viewer: viewerFlags(a, course, enrol),
    lastLessonId: last,
    nextLessonId: a.canLearn
      ? nextLessonToContinue(
          readingOrder(outline).map((l) => l.id),
          done,
          last,
        )
      : null,
  };
}

/** The context key of a course (`course:<id>`). */
export const courseKey = (courseId: string) => contextKey(courseContext(courseId));
