/**
 * The classroom (spec §2 `/classroom`, `/course/create`, `/course-creator`,
 * `/learning-management`; spec §6 course.*, assignment.*, grade.*): courses with sections and
 * lessons, enrolment, progress, assignments, submissions, grades and the gradebook.
 *
 * Rich-text fields (`summaryHtml`, `bodyHtml`, `instructionsHtml`, `textHtml`, `feedbackHtml`)
 * carry the editor's HTML as a string. The server sanitises every one of them before storing it
 * (server/src/platform/rich-text) and serves only what it stored; the web app renders what it is served.
 * See docs/classroom.md for the model and the readings of the spec behind it.
 */
import { z } from 'zod';
import {
  ExpectedRevisionSchema,
  IsoDateTime,
  PageQuerySchema,
  pageOf,
  pageQuery,
  RevisionSchema,
  storableText,
} from './common';
import { CourseCardSchema, CourseStateSchema, EnrolmentModeSchema, ProgressSchema } from './course';

// ---------------------------------------------------------------- limits

/** Longest rich-text document accepted, in characters of HTML (about 100 pages of text). */
export const RICH_TEXT_MAX = 500_000;
/** A course code: letters, digits and `-`/`_`/`.`, e.g. `OTDR-101`. */
export const COURSE_CODE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$/;
/** Most sections in one course, lessons in one section, assignments in one course. */
export const COURSE_SECTIONS_MAX = 100;
export const SECTION_LESSONS_MAX = 200;
export const COURSE_ASSIGNMENTS_MAX = 200;
/** Most files attached to one submission attempt. */
export const SUBMISSION_FILES_MAX = 10;
/** The largest points an assignment can be worth. */
export const ASSIGNMENT_POINTS_MAX = 10_000;

const richText = (label: string) =>
  storableText(RICH_TEXT_MAX, label).describe(
    'HTML from the rich-text editor; sanitised by the server with an allow-list before it is stored',
  );
const title = (label: string, max = 200) =>
  storableText(max, label)
    .trim()
    .min(1, `Enter ${label.toLowerCase()}`)
    .refine((v) => !/[\r\n\t]/.test(v), { message: `${label} must be on one line` });
const id = z.string().min(1).max(64);
const nullableInstant = IsoDateTime.nullable();

// ---------------------------------------------------------------- courses

/** The viewer's relation to a course and what they may do in it (decided by the server). */
export const CourseViewerSchema = z.object({
  /** Holds an enrolment (course-student assignment) in force now. */
  enrolled: z.boolean(),
  /** When that enrolment ends; null for none or no end. */
  enrolmentEndsAt: nullableInstant,
  /** Course-level context roles held now (course-instructor, course-assistant, course-student). */
  roles: z.array(z.string()),
  /** May read lessons and assignments: enrolled, or teaching, or able to edit the course. */
  canLearn: z.boolean(),
  canEnrol: z.boolean(),
  /** Why self-enrolment is not possible now, in words; null when canEnrol or already enrolled. */
  enrolBlockedReason: z.string().nullable(),
  canUnenrol: z.boolean(),
  /** May change the course now: course.edit there, and it is not archived. */
  canEdit: z.boolean(),
  /** May restore it: it is archived and the viewer holds course.edit there. */
  canRestore: z.boolean(),
  canViewParticipants: z.boolean(),
  canManageParticipants: z.boolean(),
  canCreateAssignments: z.boolean(),
  canViewSubmissions: z.boolean(),
  canGrade: z.boolean(),
  canViewAllGrades: z.boolean(),
  canEditGrades: z.boolean(),
  canExportGrades: z.boolean(),
});
export type CourseViewer = z.infer<typeof CourseViewerSchema>;

/** GET /api/courses: the catalogue (published courses) or, for people who build courses, more. */
export const CatalogueQuerySchema = PageQuerySchema.extend({
  /** Matches code, title and summary, case-insensitively. */
  search: z.string().trim().max(100).optional(),
  departmentId: z.string().max(64).optional(),
  /** `mine`: courses I am enrolled in or teach; `all`: every course I may see (default). */
  scope: z.enum(['all', 'mine']).default('all'),
  /**
   * Which states to list. Default: published. `draft` and `archived` list only the courses the
   * viewer may edit (every course for those who hold course.edit everywhere).
   */
  state: z.enum(['published', 'draft', 'archived', 'any']).default('published'),
});
export type CatalogueQuery = z.infer<typeof CatalogueQuerySchema>;
export const CatalogueSchema = pageOf(CourseCardSchema);
export type Catalogue = z.infer<typeof CatalogueSchema>;

/** A lesson in the outline (no body). */
export const LessonOutlineSchema = z.object({
  id: z.string(),
  sectionId: z.string(),
  title: z.string(),
  durationMinutes: z.number().int().nullable(),
  position: z.number().int(),
  /** For the viewer; false when not enrolled. */
  completed: z.boolean(),
  /** The lesson's own revision (its title, duration and body); PATCH sends it back. */
  revision: RevisionSchema,
});
export type LessonOutline = z.infer<typeof LessonOutlineSchema>;

export const SectionSchema = z.object({
  id: z.string(),
  title: z.string(),
  position: z.number().int(),
  lessons: z.array(LessonOutlineSchema),
});
export type Section = z.infer<typeof SectionSchema>;

/** GET /api/courses/{courseId}: one course with its outline and the viewer's place in it. */
export const CourseDetailSchema = CourseCardSchema.extend({
  summaryHtml: z.string(),
  /** Only for people who may edit the course; null otherwise. */
  enrolmentKey: z.string().nullable(),
  createdAt: IsoDateTime,
  publishedAt: nullableInstant,
  /** Increases with every change to the course record; PATCH may send it to refuse a stale edit. */
  revision: z.number().int(),
  sections: z.array(SectionSchema),
  viewer: CourseViewerSchema,
  /** The lesson the viewer opened last; null if none. */
  lastLessonId: z.string().nullable(),
  /**
   * Where to continue: the lesson opened last while it is unfinished, else the next unfinished
   * lesson after it, else the first unfinished one (the first lesson when none was opened); null
   * when the viewer has completed every lesson, or the course has none.
   */
  nextLessonId: z.string().nullable(),
});
export type CourseDetail = z.infer<typeof CourseDetailSchema>;

const courseCode = z
  .string()
  .trim()
  .regex(
    COURSE_CODE_PATTERN,
    'The code is 1–40 letters, digits, dots, dashes or underscores and starts with a letter or digit',
  );

/** POST /api/courses: only a code and a title are needed. */
export const CourseCreateSchema = z.strictObject({
  code: courseCode,
  title: title('The title'),
  summaryHtml: richText('The summary').optional(),
  departmentId: id.nullable().optional(),
  enrolmentMode: EnrolmentModeSchema.optional(),
  enrolmentKey: title('The enrolment key', 100).nullable().optional(),
  startsAt: nullableInstant.optional(),
  endsAt: nullableInstant.optional(),
  capacity: z.number().int().min(1).max(1_000_000).nullable().optional(),
  coverFileId: id.nullable().optional(),
});
export type CourseCreate = z.infer<typeof CourseCreateSchema>;

/** PATCH /api/courses/{courseId}: any subset; `state` moves draft → published → archived and back. */
export const CourseUpdateSchema = CourseCreateSchema.partial().extend({
  state: CourseStateSchema.optional(),
  /**
   * When given, the update is refused with 409 unless the course is still at this revision (the
   * other things people edit require it; docs/architecture.md, "Two people editing at once").
   */
  revision: ExpectedRevisionSchema.optional(),
});
export type CourseUpdate = z.infer<typeof CourseUpdateSchema>;

/** POST /api/courses/{courseId}/copy: a new draft with the structure, lessons and assignments. */
export const CourseCopySchema = z.strictObject({
  code: courseCode,
  title: title('The title'),
});

// ---------------------------------------------------------------- sections and lessons

export const SectionCreateSchema = z.strictObject({ title: title('The section title') });
export const SectionUpdateSchema = z.strictObject({ title: title('The section title') });

/** PUT /api/courses/{courseId}/outline: the whole order at once (drag and drop or keyboard). */
export const OutlineOrderSchema = z.strictObject({
  sections: z
    .array(z.strictObject({ id, lessonIds: z.array(id).max(SECTION_LESSONS_MAX) }))
    .max(COURSE_SECTIONS_MAX),
});
export type OutlineOrder = z.infer<typeof OutlineOrderSchema>;

/** A lesson to read. */
export const LessonSchema = LessonOutlineSchema.extend({
  courseId: z.string(),
  /** Sanitised HTML; media `src` carry a short-lived signature for the viewer. */
  bodyHtml: z.string(),
  updatedAt: IsoDateTime,
  previousLessonId: z.string().nullable(),
  nextLessonId: z.string().nullable(),
});
export type Lesson = z.infer<typeof LessonSchema>;

export const LessonCreateSchema = z.strictObject({
  sectionId: id,
  title: title('The lesson title'),
  bodyHtml: richText('The lesson').optional(),
  durationMinutes: z.number().int().min(1).max(10_000).nullable().optional(),
});
/** PATCH …/lessons/{lessonId}: any subset, with the revision the editor read (409 when stale). */
export const LessonUpdateSchema = z.strictObject({
  title: title('The lesson title').optional(),
  bodyHtml: richText('The lesson').optional(),
  durationMinutes: z.number().int().min(1).max(10_000).nullable().optional(),
  revision: ExpectedRevisionSchema,
});
export type LessonUpdate = z.infer<typeof LessonUpdateSchema>;

/** PUT /api/lessons/{lessonId}/progress. */
export const LessonProgressUpdateSchema = z.strictObject({ completed: z.boolean() });
export const LessonProgressSchema = z.object({
  lessonId: z.string(),
  completed: z.boolean(),
  progress: ProgressSchema,
});

// ---------------------------------------------------------------- enrolment and participants

/** POST /api/courses/{courseId}/enrolment (self). */
export const SelfEnrolSchema = z.strictObject({
  /** Needed when the course's enrolment mode is `key`. */
  key: z.string().max(100).optional(),
});
export const EnrolmentSchema = z.object({
  courseId: z.string(),
  userId: z.string(),
  enrolled: z.boolean(),
  endsAt: nullableInstant,
});
export type Enrolment = z.infer<typeof EnrolmentSchema>;

/** The course context roles participants are given. */
export const COURSE_ROLE_IDS = ['course-instructor', 'course-assistant', 'course-student'] as const;
export const CourseRoleSchema = z.enum(COURSE_ROLE_IDS);
export type CourseRole = z.infer<typeof CourseRoleSchema>;

/** PUT /api/courses/{courseId}/participants/{userId}: set a person's course roles. */
export const ParticipantSetSchema = z.strictObject({
  roles: z.array(CourseRoleSchema).min(1, 'Choose at least one role').max(3),
  /** When the roles end; null for no end. */
  endsAt: nullableInstant.optional(),
});
export type ParticipantSet = z.infer<typeof ParticipantSetSchema>;

/** A participant with their progress (learners) — GET /api/courses/{courseId}/participants. */
export const ParticipantSchema = z.object({
  id: z.string(),
  username: z.string(),
  firstname: z.string(),
  lastname: z.string(),
  roles: z.array(z.string()),
  expiresAt: z.string().nullable(),
  progress: ProgressSchema.nullable(),
});
/** The participants list: all of a course at the default size, 500 a page at most. */
export const ParticipantListQuerySchema = pageQuery({ defaultSize: 500, maxSize: 500 });
export const ParticipantListSchema = pageOf(ParticipantSchema);

// ---------------------------------------------------------------- files and grades shared below

/** A file of a submission or an assignment, with a signed URL usable in <img>/<video>/<a>. */
export const SubmissionFileSchema = z.object({
  id: z.string(),
  name: z.string(),
  mime: z.string(),
  size: z.number().int().nonnegative(),
  url: z.string(),
  thumbnailUrl: z.string().nullable(),
});
export type SubmissionFile = z.infer<typeof SubmissionFileSchema>;

export const GradeSchema = z.object({
  assignmentId: z.string(),
  userId: z.string(),
  submissionId: z.string().nullable(),
  points: z.number(),
  maxPoints: z.number(),
  feedbackHtml: z.string(),
  gradedBy: z.string(),
  gradedByName: z.string(),
  gradedAt: IsoDateTime,
  /** Set by a gradebook override (grade.edit) rather than by grading a submission. */
  override: z.boolean(),
  /** Whether the learner can see it (the assignment's grades are released). */
  released: z.boolean(),
  /** 1 for the first grade, then one more for each regrade. */
  revision: z.number().int().positive(),
});
export type Grade = z.infer<typeof GradeSchema>;

// ---------------------------------------------------------------- assignments

export const SUBMISSION_KINDS = ['text', 'file'] as const;
export const SubmissionKindSchema = z.enum(SUBMISSION_KINDS);
/** What happens to work handed in after the due date. */
export const LATE_POLICIES = ['accept', 'mark_late', 'refuse'] as const;
export const LatePolicySchema = z.enum(LATE_POLICIES);
export type LatePolicy = z.infer<typeof LatePolicySchema>;

/** File kinds an assignment may allow (checked against the type detected from the content). */
export const FILE_KIND_MIME: Record<string, readonly string[]> = {
  pdf: ['application/pdf'],
  image: ['image/png', 'image/jpeg', 'image/webp', 'image/gif'],
  video: ['video/mp4', 'video/webm', 'video/quicktime'],
  office: [
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    'application/vnd.oasis.opendocument.text',
    'application/vnd.oasis.opendocument.spreadsheet',
    'application/msword',
    'application/vnd.ms-excel',
  ],
  archive: ['application/zip'],
  text: ['text/plain', 'text/csv'],
};
export const FILE_KINDS = ['pdf', 'image', 'video', 'office', 'archive', 'text'] as const;
export const FileKindSchema = z.enum(FILE_KINDS);

/** A learner's latest attempt at an assignment, as they see it. */
export const AssignmentAttemptStateSchema = z.object({
  status: z.enum(['none', 'draft', 'submitted', 'graded']),
  attemptsUsed: z.number().int().nonnegative(),
  /** Released grade, else null. */
  points: z.number().nullable(),
  late: z.boolean(),
});

export const AssignmentSchema = z.object({
  id: z.string(),
  courseId: z.string(),
  title: z.string(),
  instructionsHtml: z.string(),
  dueAt: nullableInstant,
  points: z.number().int().min(0).max(ASSIGNMENT_POINTS_MAX),
  submissionKinds: z.array(SubmissionKindSchema).min(1),
  /** Empty: any file type. */
  fileKinds: z.array(FileKindSchema),
  /** Largest file accepted, bytes (never more than the server's upload limit). */
  maxFileBytes: z.number().int().positive(),
  latePolicy: LatePolicySchema,
  /** null: unlimited. */
  maxAttempts: z.number().int().positive().nullable(),
  /** Students see their grades for this assignment only once released. */
  gradesReleased: z.boolean(),
  /** Saving a grade releases the assignment's grades (in the same transaction as the grade). */
  releaseOnSave: z.boolean(),
  position: z.number().int(),
  createdAt: IsoDateTime,
  updatedAt: IsoDateTime,
  /** Changes with every change to the assignment (its grades released included); PATCH sends it. */
  revision: RevisionSchema,
  /** For a learner: their latest attempt's state; null for others. */
  mine: AssignmentAttemptStateSchema.nullable(),
  /** For graders: submitted attempts not yet graded; null for others. */
  toGrade: z.number().int().nonnegative().nullable(),
  /** For graders: grades given that learners cannot see yet (0 once released); null for others. */
  unreleasedGrades: z.number().int().nonnegative().nullable(),
  /** Whether the viewer may release or hide the grades (assignment.edit, course not archived). */
  canReleaseGrades: z.boolean(),
});
export type Assignment = z.infer<typeof AssignmentSchema>;
/** A course's assignments: all of them at the default size. */
export const CourseAssignmentListQuerySchema = pageQuery({ defaultSize: 200, maxSize: 200 });
export const CourseAssignmentListSchema = pageOf(AssignmentSchema);

export const AssignmentCreateSchema = z.strictObject({
  title: title('The title'),
  instructionsHtml: richText('The instructions').optional(),
  dueAt: nullableInstant.optional(),
  points: z.number().int().min(0).max(ASSIGNMENT_POINTS_MAX).optional(),
  submissionKinds: z
    .array(SubmissionKindSchema)
    .min(1, 'Allow text, files or both')
    .max(2)
    .optional(),
  fileKinds: z.array(FileKindSchema).max(FILE_KINDS.length).optional(),
  maxFileBytes: z.number().int().min(1024).optional(),
  latePolicy: LatePolicySchema.optional(),
  maxAttempts: z.number().int().min(1).max(100).nullable().optional(),
  /** Release the grades as they are saved; off when not given (releasing stays by hand). */
  releaseOnSave: z.boolean().optional(),
  /** Files (already uploaded) to attach to the instructions. */
  attachmentFileIds: z.array(id).max(SUBMISSION_FILES_MAX).optional(),
});
export type AssignmentCreate = z.infer<typeof AssignmentCreateSchema>;
/** PATCH /api/assignments/{assignmentId}: any subset, with the revision read (409 when stale). */
export const AssignmentUpdateSchema = AssignmentCreateSchema.partial().extend({
  gradesReleased: z.boolean().optional(),
  revision: ExpectedRevisionSchema,
});
export type AssignmentUpdate = z.infer<typeof AssignmentUpdateSchema>;

/** GET /api/assignments/{assignmentId}: the assignment with its instruction files. */
export const AssignmentDetailSchema = AssignmentSchema.extend({
  courseTitle: z.string(),
  attachments: z.array(SubmissionFileSchema),
});
export type AssignmentDetail = z.infer<typeof AssignmentDetailSchema>;

// ---------------------------------------------------------------- submissions

export const SUBMISSION_STATUSES = ['draft', 'submitted'] as const;
export const SubmissionSchema = z.object({
  id: z.string(),
  assignmentId: z.string(),
  courseId: z.string(),
  userId: z.string(),
  /** The learner's name, for graders. */
  userName: z.string(),
  attempt: z.number().int().positive(),
  status: z.enum(SUBMISSION_STATUSES),
  textHtml: z.string(),
  files: z.array(SubmissionFileSchema),
  submittedAt: nullableInstant,
  late: z.boolean(),
  updatedAt: IsoDateTime,
  /** The grade of this attempt if graded (and, for the learner, released); else null. */
  grade: GradeSchema.nullable(),
});
export type Submission = z.infer<typeof SubmissionSchema>;
/** An assignment's submissions: all of them at the default size, 500 a page at most. */
export const SubmissionListQuerySchema = pageQuery({ defaultSize: 500, maxSize: 500 });
export const SubmissionListSchema = pageOf(SubmissionSchema);

/**
 * POST /api/assignments/{assignmentId}/submissions: saves the learner's draft (`submit: false`)
 * or hands in an attempt (`submit: true`). The draft is one per learner and assignment; handing
 * in turns it into the next attempt.
 */
export const SubmissionSaveSchema = z.strictObject({
  textHtml: richText('The answer').optional(),
  /** Uploaded files to keep in the attempt (ids from POST /api/files); replaces the list. */
  fileIds: z.array(id).max(SUBMISSION_FILES_MAX).optional(),
  submit: z.boolean().default(false),
});
export type SubmissionSave = z.infer<typeof SubmissionSaveSchema>;

// ---------------------------------------------------------------- grades

/** A grade's points: within the assignment's range, with at most two decimals. */
const gradePoints = z
  .number()
  .min(0)
  .max(ASSIGNMENT_POINTS_MAX)
  .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, {
    message: 'Points can have at most two decimals',
  });

/** PUT /api/submissions/{submissionId}/grade. */
export const GradeSetSchema = z.strictObject({
  points: gradePoints,
  feedbackHtml: richText('The feedback').optional(),
});
export type GradeSet = z.infer<typeof GradeSetSchema>;

/** PUT /api/courses/{courseId}/grades/{assignmentId}/{userId}: a gradebook override. */
export const GradeOverrideSchema = z.strictObject({
  points: gradePoints,
  feedbackHtml: richText('The feedback').optional(),
});

/** GET …/grades/{userId}/history: a page of a grade's revisions, newest first. */
export const GradeHistoryQuerySchema = pageQuery({ defaultSize: 25, maxSize: 100 });
/** A grade's history (its revisions, newest first). */
export const GradeHistorySchema = pageOf(GradeSchema);

/** GET /api/courses/{courseId}/grades: the gradebook (all learners, or only the viewer's row). */
export const GradebookSchema = z.object({
  courseId: z.string(),
  assignments: z.array(
    z.object({
      id: z.string(),
      title: z.string(),
      points: z.number(),
      dueAt: nullableInstant,
      gradesReleased: z.boolean(),
      /** With grade.view_all: grades given that learners cannot see yet; null for others. */
      unreleasedGrades: z.number().int().nonnegative().nullable(),
    }),
  ),
  /** One row per learner, a page at a time. */
  items: z.array(
    z.object({
      userId: z.string(),
      username: z.string(),
      name: z.string(),
      /** Keyed by assignment id; null where there is no (visible) grade. */
      grades: z.record(
        z.string(),
        z
          .object({
            points: z.number(),
            override: z.boolean(),
            late: z.boolean(),
            submissionId: z.string().nullable(),
          })
          .nullable(),
      ),
      /** Sum of visible points over the sum of the assignments' points; null with none graded. */
      totalPoints: z.number().nullable(),
      percent: z.number().nullable(),
    }),
  ),
  total: z.number().int().nonnegative(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type Gradebook = z.infer<typeof GradebookSchema>;
export const GradebookQuerySchema = PageQuerySchema.extend({
  search: z.string().trim().max(100).optional(),
});

// The learner's and the teacher's overview (GET /api/me/learning): contracts/learning.ts. The
// course card and the course states: contracts/course.ts.
