/**
 * All SQL about grades: `grades` holds the grade in force per (assignment, learner), and every
 * change also appends a row to `grade_history` with the next revision, in one transaction. See
 * docs/classroom.md.
 */
import { sql } from 'kysely';
import type { Db } from '../../platform/db';
import { sortableId } from '../../platform/ids';

export interface GradeRecord {
  assignmentId: string;
  courseId: string;
  userId: string;
  submissionId: string | null;
  points: number;
  feedbackHtml: string;
  gradedBy: string;
  gradedByName: string;
  gradedAt: string;
  override: boolean;
  revision: number;
}

interface GradeRow {
  assignment_id: string;
  course_id: string;
  user_id: string;
  submission_id: string | null;
  points: number;
  feedback_html: string;
  graded_by: string;
  graded_at: string;
  is_override: number;
  revision: number;
  firstname: string | null;
  lastname: string | null;
}

function toRecord(row: GradeRow): GradeRecord {
  return {
    assignmentId: row.assignment_id,
    courseId: row.course_id,
    userId: row.user_id,
    submissionId: row.submission_id,
    points: Number(row.points),
    feedbackHtml: row.feedback_html,
    gradedBy: row.graded_by,
    gradedByName: `${row.firstname ?? ''} ${row.lastname ?? ''}`.trim(),
    gradedAt: row.graded_at,
    override: Number(row.is_override) === 1,
    revision: Number(row.revision),
  };
}

function gradeQuery(db: Db) {
  return db
    .selectFrom('grades')
    .leftJoin('users', 'users.id', 'grades.graded_by')
    .selectAll('grades')
    .select(['users.firstname', 'users.lastname']);
}

export async function findGrade(
  db: Db,
  assignmentId: string,
  userId: string,
): Promise<GradeRecord | null> {
  const row = await gradeQuery(db)
    .where('grades.assignment_id', '=', assignmentId)
    .where('grades.user_id', '=', userId)
    .executeTakeFirst();
  return row ? toRecord(row) : null;
}

/** The grades in force of one assignment, by learner (all, or the learners named). */
export async function listAssignmentGrades(
  db: Db,
  assignmentId: string,
  userIds?: readonly string[],
): Promise<Map<string, GradeRecord>> {
  let query = gradeQuery(db).where('grades.assignment_id', '=', assignmentId);
  if (userIds) {
    if (userIds.length === 0) return new Map();
    query = query.where('grades.user_id', 'in', [...new Set(userIds)]);
  }
  const rows = await query.execute();
  return new Map(rows.map((r) => [r.user_id, toRecord(r)]));
}

/** Every revision of one learner's grade for one assignment, newest first. */
export async function listGradeHistory(
  db: Db,
  assignmentId: string,
  userId: string,
  window: { offset: number; limit: number },
): Promise<{ rows: GradeRecord[]; total: number }> {
  const revisions = db
    .selectFrom('grade_history')
    .where('grade_history.assignment_id', '=', assignmentId)
    .where('grade_history.user_id', '=', userId);
  const [rows, count] = await Promise.all([
    revisions
      .leftJoin('users', 'users.id', 'grade_history.graded_by')
      .selectAll('grade_history')
      .select(['users.firstname', 'users.lastname'])
      .orderBy('grade_history.revision', 'desc')
      .offset(window.offset)
      .limit(window.limit)
      .execute(),
    revisions.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map(toRecord), total: Number(count.n) };
}

export interface GradeChange {
  assignmentId: string;
  courseId: string;
  userId: string;
  submissionId: string | null;
  points: number;
  feedbackHtml: string;
  gradedBy: string;
  override: boolean;
}

/** Per assignment of the course (or the one named): how many learners have a grade in force. */
export async function countGrades(
  db: Db,
  courseId: string,
  assignmentId?: string,
): Promise<Map<string, number>> {
  let query = db
    .selectFrom('grades')
    .select(['assignment_id', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('course_id', '=', courseId)
    .groupBy('assignment_id');
  if (assignmentId) query = query.where('assignment_id', '=', assignmentId);
  const rows = await query.execute();
  return new Map(rows.map((r) => [r.assignment_id, Number(r.n)]));
}

/**
 * Sets the grade in force and appends it to the history as the next revision, in one
 * transaction. The history row goes in first: two grades of the same learner at the same moment
 * both compute the same revision, and the unique (assignment, user, revision) key refuses the
 * second (its violation propagates for the caller to answer).
 *
 * An assignment that releases its grades on save (`release_on_save`) is released in the same
 * transaction, judged by the row as it is then: the grade and its release are one change, and a
 * grade that fails releases nothing.
 */
export async function setGrade(
  db: Db,
  change: GradeChange,
  at: string,
  /** More work in the grade's transaction, knowing whether learners may see grades now. */
  within?: (trx: Db, released: boolean) => Promise<void>,
): Promise<GradeRecord> {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('assignments')
      // A change to the assignment like any other: its revision moves on (an editor who read it
      // before must reload rather than send its grades back to unreleased).
      .set({ grades_released: 1, updated_at: at, revision: sql`revision + 1` })
      .where('id', '=', change.assignmentId)
      .where('release_on_save', '=', 1)
      .where('grades_released', '=', 0)
      .execute();
    const current = await trx
      .selectFrom('grade_history')
      .select(sql<number | string>`coalesce(max(revision), 0)`.as('r'))
      .where('assignment_id', '=', change.assignmentId)
      .where('user_id', '=', change.userId)
      .executeTakeFirstOrThrow();
    const values = {
      assignment_id: change.assignmentId,
      course_id: change.courseId,
      user_id: change.userId,
      submission_id: change.submissionId,
      points: change.points,
      feedback_html: change.feedbackHtml,
      graded_by: change.gradedBy,
      graded_at: at,
      is_override: change.override ? 1 : 0,
      revision: Number(current.r) + 1,
    };
    await trx
      .insertInto('grade_history')
      .values({ ...values, id: sortableId() })
      .execute();
    const { assignment_id: _a, user_id: _u, ...rest } = values;
    await trx
      .insertInto('grades')
      .values(values)
      .onConflict((oc) => oc.columns(['assignment_id', 'user_id']).doUpdateSet(rest))
      .execute();
    if (within) {
      const state = await trx
        .selectFrom('assignments')
        .select('grades_released')
        .where('id', '=', change.assignmentId)
        .executeTakeFirst();
      await within(trx, Number(state?.grades_released ?? 0) === 1);
    }
  });
  const saved = await findGrade(db, change.assignmentId, change.userId);
  if (!saved) throw new Error('saved grade vanished');
  return saved;
}

/**
 * Whether the user takes part in the course as a learner now (an in-force course-student
 * assignment), or has handed in work for the assignment (a past learner may still be graded).
 */
export async function isGradableLearner(
  db: Db,
  courseId: string,
  assignmentId: string,
  userId: string,
  nowIso: string,
): Promise<boolean> {
  const enrolled = await db
    .selectFrom('context_assignments')
    .select('user_id')
    .where('user_id', '=', userId)
    .where('context_key', '=', `course:${courseId}`)
    .where('is_active', '=', 1)
    .where('roles', 'like', '%"course-student"%')
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', nowIso)]))
    .executeTakeFirst();
  if (enrolled) return true;
  const handedIn = await db
    .selectFrom('submissions')
    .select('id')
    .where('assignment_id', '=', assignmentId)
    .where('user_id', '=', userId)
    .where('status', '=', 'submitted')
    .limit(1)
    .executeTakeFirst();
  return handedIn !== undefined;
}
