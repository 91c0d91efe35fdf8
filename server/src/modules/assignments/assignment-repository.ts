/**
 * All SQL about assignments (the course's pieces of work), and the few facts about a course the
 * assignment rules need (its state, title and code), read straight from `courses`. See
 * docs/classroom.md for the model.
 */
import type { LatePolicy } from '@learning-hub/core';
import { sql, type Selectable } from 'kysely';
import type { Db } from '../../platform/db';
import { updateAtRevision } from '../../platform/db/revision';
import type { AssignmentsTable } from '../../platform/db/schema';
import { sortableId } from '../../platform/ids';

type FileKind = 'pdf' | 'image' | 'video' | 'office' | 'archive' | 'text';
type SubmissionKind = 'text' | 'file';

/** The course fields the rules of assignments, submissions and grades need. */
export interface CourseGateRecord {
  id: string;
  state: string;
  title: string;
  code: string;
  /** The owning department (course.view there lets one see a published course). */
  departmentId: string | null;
}

export async function findCourseGate(db: Db, id: string): Promise<CourseGateRecord | null> {
  const row = await db
    .selectFrom('courses')
    .select(['id', 'state', 'title', 'code', 'department_id as departmentId'])
    .where('id', '=', id)
    .executeTakeFirst();
  return row ?? null;
}

/** An assignment as stored (the API adds the viewer's part: `mine`, `toGrade`, signed HTML). */
export interface AssignmentRecord {
  id: string;
  courseId: string;
  title: string;
  instructionsHtml: string;
  dueAt: string | null;
  points: number;
  submissionKinds: SubmissionKind[];
  fileKinds: FileKind[];
  maxFileBytes: number;
  latePolicy: LatePolicy;
  maxAttempts: number | null;
  gradesReleased: boolean;
  /** Saving a grade releases the grades (grade-repository.ts `setGrade`). */
  releaseOnSave: boolean;
  position: number;
  createdAt: string;
  updatedAt: string;
  /** One more with every change (PATCH, and grades released by a grade saved). */
  revision: number;
}

type Row = Selectable<AssignmentsTable>;

function toRecord(row: Row): AssignmentRecord {
  return {
    id: row.id,
    courseId: row.course_id,
    title: row.title,
    instructionsHtml: row.instructions_html,
    dueAt: row.due_at,
    points: Number(row.points),
    submissionKinds: JSON.parse(row.submission_kinds) as SubmissionKind[],
    fileKinds: JSON.parse(row.file_kinds) as FileKind[],
    maxFileBytes: Number(row.max_file_bytes),
    latePolicy: row.late_policy as LatePolicy,
    maxAttempts: row.max_attempts === null ? null : Number(row.max_attempts),
    gradesReleased: Number(row.grades_released) === 1,
    releaseOnSave: Number(row.release_on_save) === 1,
    position: Number(row.position),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    revision: Number(row.revision),
  };
}

export async function findAssignment(db: Db, id: string): Promise<AssignmentRecord | null> {
  const row = await db
    .selectFrom('assignments')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? toRecord(row) : null;
}

/** A course's assignments in their order. */
export async function listAssignments(db: Db, courseId: string): Promise<AssignmentRecord[]> {
  const rows = await db
    .selectFrom('assignments')
    .selectAll()
    .where('course_id', '=', courseId)
    .orderBy('position')
    .orderBy('id')
    .execute();
  return rows.map(toRecord);
}

export async function countAssignments(db: Db, courseId: string): Promise<number> {
  const row = await db
    .selectFrom('assignments')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('course_id', '=', courseId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export type NewAssignment = Omit<
  AssignmentRecord,
  'id' | 'position' | 'createdAt' | 'updatedAt' | 'gradesReleased' | 'revision'
>;

/** Adds an assignment at the end of the course's list. */
export async function insertAssignment(
  db: Db,
  input: NewAssignment,
  at: string,
): Promise<AssignmentRecord> {
  const id = sortableId();
  await db
    .insertInto('assignments')
    .values((eb) => ({
      id,
      course_id: input.courseId,
      title: input.title,
      instructions_html: input.instructionsHtml,
      due_at: input.dueAt,
      points: input.points,
      submission_kinds: JSON.stringify(input.submissionKinds),
      file_kinds: JSON.stringify(input.fileKinds),
      max_file_bytes: input.maxFileBytes,
      late_policy: input.latePolicy,
      max_attempts: input.maxAttempts,
      grades_released: 0,
      release_on_save: input.releaseOnSave ? 1 : 0,
      // The next position in one statement: two creations at once still get distinct ones
      // (SQLite serialises writers; on PostgreSQL a tie only orders by id, never loses a row).
      position: eb
        .selectFrom('assignments')
        .select(sql<number>`coalesce(max(position), -1) + 1`.as('p'))
        .where('course_id', '=', input.courseId),
      created_at: at,
      updated_at: at,
    }))
    .execute();
  const created = await findAssignment(db, id);
  if (!created) throw new Error('created assignment vanished');
  return created;
}

export type AssignmentChanges = Partial<
  Omit<AssignmentRecord, 'id' | 'courseId' | 'position' | 'createdAt' | 'updatedAt' | 'revision'>
>;

/**
 * Changes an assignment only while it is at `revision` (one conditional UPDATE that bumps it:
 * platform/db/revision.ts; 404 when gone, 409 when changed by someone else since) and answers it
 * as it is then.
 */
export async function updateAssignment(
  db: Db,
  id: string,
  revision: number,
  changes: AssignmentChanges,
  at: string,
): Promise<AssignmentRecord | null> {
  const set: Partial<Record<keyof AssignmentsTable, unknown>> = { updated_at: at };
  if (changes.title !== undefined) set.title = changes.title;
  if (changes.instructionsHtml !== undefined) set.instructions_html = changes.instructionsHtml;
  if (changes.dueAt !== undefined) set.due_at = changes.dueAt;
  if (changes.points !== undefined) set.points = changes.points;
  if (changes.submissionKinds !== undefined)
    set.submission_kinds = JSON.stringify(changes.submissionKinds);
  if (changes.fileKinds !== undefined) set.file_kinds = JSON.stringify(changes.fileKinds);
  if (changes.maxFileBytes !== undefined) set.max_file_bytes = changes.maxFileBytes;
  if (changes.latePolicy !== undefined) set.late_policy = changes.latePolicy;
  if (changes.maxAttempts !== undefined) set.max_attempts = changes.maxAttempts;
  if (changes.gradesReleased !== undefined) set.grades_released = changes.gradesReleased ? 1 : 0;
  if (changes.releaseOnSave !== undefined) set.release_on_save = changes.releaseOnSave ? 1 : 0;
  await updateAtRevision(
    db,
    { table: 'assignments', id, revision, set: set as never },
    { notFound: 'Assignment not found' },
  );
  return findAssignment(db, id);
}

/**
 * Deletes the assignment (its drafts go with it) only while nothing was handed in and nothing
 * graded, in one conditional statement: work handed in at the same moment keeps it. False when
 * it was not deleted.
 */
export async function deleteAssignmentWithoutWork(db: Db, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('assignments')
    .where('id', '=', id)
    .where((eb) =>
      eb.not(
        eb.or([
          eb.exists(
            eb
              .selectFrom('submissions')
              .select('submissions.id')
              .whereRef('submissions.assignment_id', '=', 'assignments.id')
              .where('submissions.status', '=', 'submitted'),
          ),
          eb.exists(
            eb
              .selectFrom('grades')
              .select('grades.user_id')
              .whereRef('grades.assignment_id', '=', 'assignments.id'),
          ),
        ]),
      ),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/** The ids of the assignment's drafts (their files go when the assignment goes). */
export async function listDraftIds(db: Db, assignmentId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('submissions')
    .select('id')
    .where('assignment_id', '=', assignmentId)
    .where('status', '=', 'draft')
    .execute();
  return rows.map((r) => r.id);
}

/** The highest points given for the assignment so far (null with no grade). */
export async function highestGrade(db: Db, assignmentId: string): Promise<number | null> {
  const row = await db
    .selectFrom('grades')
    .select((eb) => eb.fn.max('points').as('p'))
    .where('assignment_id', '=', assignmentId)
    .executeTakeFirst();
  return row?.p === null || row?.p === undefined ? null : Number(row.p);
}

/** A learner's state in one assignment (AssignmentSchema.mine). */
export interface LearnerState {
  status: 'none' | 'draft' | 'submitted' | 'graded';
  attemptsUsed: number;
  points: number | null;
  late: boolean;
}

/**
 * One learner's state in each of a course's assignments: handed-in attempts, their draft, and
 * their grade where released. `graded` when the released grade is for the latest attempt (or an
 * override); a newer attempt than the graded one is `submitted` again.
 */
export async function learnerStates(
  db: Db,
  courseId: string,
  userId: string,
  assignmentId?: string,
): Promise<Map<string, LearnerState>> {
  let subs = db
    .selectFrom('submissions')
    .select(['id', 'assignment_id', 'attempt', 'status', 'is_late'])
    .where('course_id', '=', courseId)
    .where('user_id', '=', userId);
  if (assignmentId) subs = subs.where('assignment_id', '=', assignmentId);
  let grades = db
    .selectFrom('grades')
    .innerJoin('assignments', 'assignments.id', 'grades.assignment_id')
    .select(['grades.assignment_id', 'grades.submission_id', 'grades.points'])
    .where('grades.course_id', '=', courseId)
    .where('grades.user_id', '=', userId)
    .where('assignments.grades_released', '=', 1);
  if (assignmentId) grades = grades.where('grades.assignment_id', '=', assignmentId);
  const [subRows, gradeRows] = await Promise.all([subs.execute(), grades.execute()]);

  const states = new Map<string, LearnerState>();
  const latest = new Map<string, { id: string; attempt: number; late: boolean }>();
  const drafts = new Set<string>();
  const used = new Map<string, number>();
  for (const s of subRows) {
    if (s.status === 'draft') {
      drafts.add(s.assignment_id);
      continue;
    }
    used.set(s.assignment_id, (used.get(s.assignment_id) ?? 0) + 1);
    const current = latest.get(s.assignment_id);
    if (!current || Number(s.attempt) > current.attempt) {
      latest.set(s.assignment_id, {
        id: s.id,
        attempt: Number(s.attempt),
        late: Number(s.is_late) === 1,
      });
    }
  }
  const released = new Map(gradeRows.map((g) => [g.assignment_id, g]));
  const ids = new Set([...drafts, ...latest.keys(), ...released.keys()]);
  for (const id of ids) {
    const last = latest.get(id);
    const grade = released.get(id);
    const gradedLatest =
      grade !== undefined && (grade.submission_id === null || grade.submission_id === last?.id);
    states.set(id, {
      status: gradedLatest ? 'graded' : last ? 'submitted' : drafts.has(id) ? 'draft' : 'none',
      attemptsUsed: used.get(id) ?? 0,
      points: grade ? Number(grade.points) : null,
      late: last?.late ?? false,
    });
  }
  return states;
}

/**
 * Per assignment of the courses: learners whose latest handed-in attempt waits for a grade (no
 * grade of that attempt, and no gradebook override given after it was handed in). The grader
 * page's count, and the start page's "to grade" (one query, whatever the number of courses).
 */
export async function waitingForGrade(
  db: Db,
  courseIds: readonly string[],
  assignmentId?: string,
): Promise<{ assignmentId: string; courseId: string; count: number; firstSubmissionId: string }[]> {
  if (courseIds.length === 0) return [];
  let query = db
    .selectFrom('submissions as s')
    .select([
      's.assignment_id',
      's.course_id',
      (eb) => eb.fn.countAll<number | string>().as('n'),
      // Ids are sortable by the time they were made: the attempt that has waited longest.
      (eb) => eb.fn.min('s.id').as('first_id'),
    ])
    .where('s.course_id', 'in', [...courseIds])
    .where('s.status', '=', 'submitted')
    .where(({ eb, selectFrom }) =>
      eb(
        's.attempt',
        '=',
        selectFrom('submissions as s2')
          .select((e) => e.fn.max('s2.attempt').as('m'))
          .whereRef('s2.assignment_id', '=', 's.assignment_id')
          .whereRef('s2.user_id', '=', 's.user_id'),
      ),
    )
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('grades as g')
            .select('g.user_id')
            .whereRef('g.assignment_id', '=', 's.assignment_id')
            .whereRef('g.user_id', '=', 's.user_id')
            .where((e) =>
              e.or([
                e('g.submission_id', '=', e.ref('s.id')),
                e.and([
                  e('g.is_override', '=', 1),
                  e('g.graded_at', '>=', e.ref('s.submitted_at')),
                ]),
              ]),
            ),
        ),
      ),
    )
    .groupBy(['s.assignment_id', 's.course_id']);
  if (assignmentId) query = query.where('s.assignment_id', '=', assignmentId);
  const rows = await query.execute();
  return rows.map((r) => ({
    assignmentId: r.assignment_id,
    courseId: r.course_id,
    count: Number(r.n),
    firstSubmissionId: r.first_id,
  }));
}

/** Per assignment of one course: the learners whose work waits for a grade (waitingForGrade). */
export async function toGradeCounts(
  db: Db,
  courseId: string,
  assignmentId?: string,
): Promise<Map<string, number>> {
  const rows = await waitingForGrade(db, [courseId], assignmentId);
  return new Map(rows.map((r) => [r.assignmentId, r.count]));
}

/** The assignments of published courses due after `from` and at or before `to`. */
export async function listAssignmentsDueBetween(
  db: Db,
  from: string,
  to: string,
): Promise<{ id: string; courseId: string; courseTitle: string; title: string; dueAt: string }[]> {
  const rows = await db
    .selectFrom('assignments as a')
    .innerJoin('courses as c', 'c.id', 'a.course_id')
    .where('c.state', '=', 'published')
    .where('a.due_at', '>', from)
    .where('a.due_at', '<=', to)
    .select(['a.id', 'a.course_id', 'c.title as course_title', 'a.title', 'a.due_at'])
    .execute();
  return rows.map((r) => ({
    id: r.id,
    courseId: r.course_id,
    courseTitle: r.course_title,
    title: r.title,
    dueAt: r.due_at as string,
  }));
}

/** Who has handed in work for the assignment (any attempt). */
export async function listHandedInUserIds(db: Db, assignmentId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('submissions')
    .where('assignment_id', '=', assignmentId)
    .where('status', '=', 'submitted')
    .select('user_id')
    .distinct()
    .execute();
  return rows.map((r) => r.user_id);
}
