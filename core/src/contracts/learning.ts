/**
 * GET /api/me/learning: what the learner's page (`/learning-management`) and the start page (`/`)
 * show. Apart from the rest of the classroom's contracts (contracts/classroom.ts) so that the
 * start page builds only these schemas (docs/front-end.md "Each area's code in its own chunks").
 */
import { z } from 'zod';
import { IsoDateTime } from './common';
import { CourseCardSchema, CourseStateSchema } from './course';

// ---------------------------------------------------------------- learner and teacher overviews

/** A piece of work with a date, for "due soon" and "overdue". */
export const DueItemSchema = z.object({
  assignmentId: z.string(),
  assignmentTitle: z.string(),
  courseId: z.string(),
  courseTitle: z.string(),
  dueAt: IsoDateTime,
  overdue: z.boolean(),
});
export const RecentGradeSchema = z.object({
  assignmentId: z.string(),
  assignmentTitle: z.string(),
  courseId: z.string(),
  courseTitle: z.string(),
  points: z.number(),
  maxPoints: z.number(),
  gradedAt: IsoDateTime,
});
export const TeachingCourseSchema = z.object({
  courseId: z.string(),
  courseTitle: z.string(),
  code: z.string(),
  state: CourseStateSchema,
  learners: z.number().int().nonnegative(),
  /** Learners whose latest handed-in attempt waits for a grade (0 where the viewer may not grade). */
  toGrade: z.number().int().nonnegative(),
});
/** One assignment's queue of handed-in work waiting for a grade, for someone who grades it. */
export const ToGradeItemSchema = z.object({
  assignmentId: z.string(),
  assignmentTitle: z.string(),
  courseId: z.string(),
  courseTitle: z.string(),
  /** Learners whose latest handed-in attempt has no grade yet (the grader page's count). */
  count: z.number().int().positive(),
  /** The waiting attempt to open first in the grader (the one that has waited longest). */
  firstSubmissionId: z.string(),
});
/** A handed-in attempt, for those who grade the course. */
export const HandInSchema = z.object({
  submissionId: z.string(),
  assignmentId: z.string(),
  assignmentTitle: z.string(),
  courseId: z.string(),
  courseTitle: z.string(),
  learnerName: z.string(),
  attempt: z.number().int().positive(),
  submittedAt: IsoDateTime,
  late: z.boolean(),
  /** This attempt has a grade. */
  graded: z.boolean(),
});
/** An assignment of a taught course due soon, with how many learners have handed it in. */
export const TeachingDueItemSchema = z.object({
  assignmentId: z.string(),
  assignmentTitle: z.string(),
  courseId: z.string(),
  courseTitle: z.string(),
  dueAt: IsoDateTime,
  /** Learners who have handed in at least one attempt. */
  handedIn: z.number().int().nonnegative(),
  /** Learners enrolled in the course now. */
  learners: z.number().int().nonnegative(),
});

/**
 * GET /api/me/learning: the learner's own page (`/learning-management`) and the start page (`/`).
 * Every part is computed by the server from what the viewer really takes, teaches and may grade:
 * a learner who teaches nothing gets empty teaching parts.
 */
export const LearningOverviewSchema = z.object({
  courses: z.array(CourseCardSchema),
  /**
   * Where to continue: in the course the learner was active in most recently that still has an
   * unfinished lesson, the next unfinished lesson (CourseDetail.nextLessonId). `viewedAt` is the
   * learner's last activity in that course. Null when no started course has anything left.
   */
  continueLesson: z
    .object({
      courseId: z.string(),
      courseTitle: z.string(),
      lessonId: z.string(),
      lessonTitle: z.string(),
      /** When the learner was last active in the course; null for a course not started yet. */
      viewedAt: IsoDateTime.nullable(),
    })
    .nullable(),
  /**
   * When there is nothing to continue: the course the learner was active in last, every lesson of
   * which they have completed. Null otherwise.
   */
  courseComplete: z.object({ courseId: z.string(), courseTitle: z.string() }).nullable(),
  /** Not yet handed in, due in the next 14 days, soonest first. */
  dueSoon: z.array(DueItemSchema),
  /** Not handed in and past the due date (only where late work is still accepted or unclaimed). */
  overdue: z.array(DueItemSchema),
  recentGrades: z.array(RecentGradeSchema),
  /** Courses the viewer teaches (course-instructor or course-assistant, or created). */
  teaching: z.array(TeachingCourseSchema),
  /**
   * In the taught courses where the viewer may see submissions (the grader page's rule): the
   * assignments with work waiting for a grade, most waiting first.
   */
  toGrade: z.array(ToGradeItemSchema),
  /** The latest handed-in attempts there, newest first. */
  recentHandIns: z.array(HandInSchema),
  /** Assignments there due in the next 14 days, soonest first. */
  teachingDue: z.array(TeachingDueItemSchema),
});
export type LearningOverview = z.infer<typeof LearningOverviewSchema>;
