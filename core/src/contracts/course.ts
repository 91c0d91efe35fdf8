/**
 * A course as lists show it: the course of course roles (admin pickers) and the course card of the
 * catalogue and of the start page. A module of its own so that the start page's overview
 * (contracts/learning.ts) builds these few schemas, not all of the classroom's and the admin's
 * (docs/front-end.md "Each area's code in its own chunks").
 */
import { z } from 'zod';
import { IsoDateTime } from './common';

const nullableInstant = IsoDateTime.nullable();

/** A course (the context of course roles). */
export const CourseSchema = z.object({
  id: z.string(),
  code: z.string(),
  title: z.string(),
  description: z.string(),
  departmentId: z.string().nullable(),
  departmentName: z.string().nullable(),
});
export type Course = z.infer<typeof CourseSchema>;

/** The life of a course: drafts are seen only by those who can edit it; archived ones are read-only. */
export const COURSE_STATES = ['draft', 'published', 'archived'] as const;
export const CourseStateSchema = z.enum(COURSE_STATES);
export type CourseState = z.infer<typeof CourseStateSchema>;

/**
 * How people join: `open` (anyone who may view it enrols themselves), `key` (self-enrolment with
 * the enrolment key), `manual` (only people who manage participants add learners).
 */
export const ENROLMENT_MODES = ['open', 'key', 'manual'] as const;
export const EnrolmentModeSchema = z.enum(ENROLMENT_MODES);
export type EnrolmentMode = z.infer<typeof EnrolmentModeSchema>;

/** A learner's progress through a course's lessons. */
export const ProgressSchema = z.object({
  completedLessons: z.number().int().nonnegative(),
  totalLessons: z.number().int().nonnegative(),
  /** 0–100, rounded down. */
  percent: z.number().int().min(0).max(100),
});
export type Progress = z.infer<typeof ProgressSchema>;

/** A course as the catalogue shows it (also what the admin pickers read, see CourseSchema). */
export const CourseCardSchema = CourseSchema.extend({
  /** Plain-text summary for cards and search (derived from summaryHtml). */
  summary: z.string(),
  state: CourseStateSchema,
  enrolmentMode: EnrolmentModeSchema,
  startsAt: nullableInstant,
  endsAt: nullableInstant,
  capacity: z.number().int().positive().nullable(),
  /** Learners enrolled now (course-student assignments in force). */
  enrolledCount: z.number().int().nonnegative(),
  /** Stored image id; shown through GET /api/files/{fileId}/thumbnail. */
  coverFileId: z.string().nullable(),
  /** Signed URL of the cover's thumbnail, usable in an <img>; null without a cover. */
  coverUrl: z.string().nullable(),
  lessonCount: z.number().int().nonnegative(),
  /** The viewer's progress when enrolled, else null. */
  progress: ProgressSchema.nullable(),
  enrolled: z.boolean(),
  updatedAt: IsoDateTime,
});
export type CourseCard = z.infer<typeof CourseCardSchema>;
