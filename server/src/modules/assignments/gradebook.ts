/**
 * The gradebook of a course: its learners (in-force course-student assignments) with their grade
 * in force for each assignment, a total and a percent; and the same as a CSV file streamed from
 * the database in batches. See docs/classroom.md ("Assignments, submissions and grades").
 *
 * Reading of the totals: `totalPoints` is the sum of the points of the grades the viewer may see;
 * `percent` is that sum over the points of the assignments those grades are for (only graded
 * assignments count, so a learner who has one of three pieces of work graded at 8/10 stands at
 * 80 %, not 27 %), rounded to one decimal; both are null while nothing visible is graded.
 */
import { Readable } from 'node:stream';
import { sql } from 'kysely';
import type { Db } from '../../platform/db';
import { listAssignments, type AssignmentRecord } from './assignment-repository';
import { displayName } from '../../platform/auth/display-name';
import { csvLine } from '../../platform/csv';

/** Learners read per query when exporting. */
export const EXPORT_BATCH = 1000;

interface Learner {
  userId: string;
  username: string;
  firstname: string;
  lastname: string;
}

export interface GradebookCell {
  points: number;
  override: boolean;
  late: boolean;
  submissionId: string | null;
}

export interface GradebookRow {
  userId: string;
  username: string;
  name: string;
  grades: Record<string, GradebookCell | null>;
  totalPoints: number | null;
  percent: number | null;
}

function escapeLike(value: string): string {
  return `%${value.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The course's learners now: active, unexpired course assignments holding course-student. */
function learnersQuery(db: Db, courseId: string, nowIso: string, search?: string) {
  let query = db
    .selectFrom('context_assignments as ca')
    .innerJoin('users as u', 'u.id', 'ca.user_id')
    .where('ca.context_key', '=', `course:${courseId}`)
    .where('ca.is_active', '=', 1)
    .where('ca.roles', 'like', '%"course-student"%')
    .where((eb) => eb.or([eb('ca.expires_at', 'is', null), eb('ca.expires_at', '>', nowIso)]));
  if (search) {
    const pattern = escapeLike(search);
    query = query.where((eb) =>
      eb.or([
        eb(sql`lower(u.username)`, 'like', sql`${pattern} escape '\\'`),
        eb(sql`lower(u.firstname || ' ' || u.lastname)`, 'like', sql`${pattern} escape '\\'`),
        eb(sql`lower(u.lastname)`, 'like', sql`${pattern} escape '\\'`),
      ]),
    );
  }
  return query;
}

const learnerColumns = [
  'u.id as userId',
  'u.username as username',
  'u.firstname as firstname',
  'u.lastname as lastname',
] as const;

/** The cells of the learners named: grade in force per assignment (released ones only if asked). */
async function cellsOf(
  db: Db,
  courseId: string,
  userIds: readonly string[],
  releasedOnly: boolean,
): Promise<Map<string, Map<string, GradebookCell>>> {
  const out = new Map<string, Map<string, GradebookCell>>();
  if (userIds.length === 0) return out;
  let query = db
    .selectFrom('grades as g')
    .innerJoin('assignments as a', 'a.id', 'g.assignment_id')
    .leftJoin('submissions as s', 's.id', 'g.submission_id')
    .select([
      'g.user_id',
      'g.assignment_id',
      'g.points',
      'g.is_override',
      'g.submission_id',
      's.is_late',
    ])
    .where('g.course_id', '=', courseId)
    .where('g.user_id', 'in', [...userIds]);
  if (releasedOnly) query = query.where('a.grades_released', '=', 1);
  for (const r of await query.execute()) {
    const cells = out.get(r.user_id) ?? new Map<string, GradebookCell>();
    cells.set(r.assignment_id, {
      points: Number(r.points),
      override: Number(r.is_override) === 1,
      late: Number(r.is_late ?? 0) === 1,
      submissionId: r.submission_id,
    });
    out.set(r.user_id, cells);
  }
  return out;
}

function rowOf(
  learner: Learner,
  assignments: readonly AssignmentRecord[],
  cells: Map<string, GradebookCell> | undefined,
): GradebookRow {
  const grades: Record<string, GradebookCell | null> = {};
  let total = 0;
  let possible = 0;
  let graded = 0;
  for (const a of assignments) {
    const cell = cells?.get(a.id) ?? null;
    grades[a.id] = cell;
    if (cell) {
      graded += 1;
      total += cell.points;
      possible += a.points;
    }
  }
  return {
    userId: learner.userId,
    username: learner.username,
    name: displayName(learner),
    grades,
    totalPoints: graded > 0 ? Math.round(total * 100) / 100 : null,
    percent: graded > 0 && possible > 0 ? Math.round((total / possible) * 1000) / 10 : null,
  };
}

/**
 * One page of the gradebook. `onlyUserId`: just that learner's row (the learner's own view);
 * `releasedOnly`: grades of assignments whose grades are released, only.
 */
export async function readGradebook(
  db: Db,
  options: {
    courseId: string;
    nowIso: string;
    search?: string;
    offset: number;
    limit: number;
    onlyUserId?: string;
    releasedOnly: boolean;
  },
): Promise<{ assignments: AssignmentRecord[]; rows: GradebookRow[]; total: number }> {
  let base = learnersQuery(db, options.courseId, options.nowIso, options.search);
  if (options.onlyUserId) base = base.where('u.id', '=', options.onlyUserId);
  const [assignments, count, learners] = await Promise.all([
    listAssignments(db, options.courseId),
    base.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
    base
      .select(learnerColumns)
      .orderBy('u.lastname')
      .orderBy('u.firstname')
      .orderBy('u.username_key')
      .limit(options.limit)
      .offset(options.offset)
      .execute(),
  ]);
  const cells = await cellsOf(
    db,
    options.courseId,
    learners.map((l) => l.userId),
    options.releasedOnly,
  );
  return {
    assignments,
    rows: learners.map((l) => rowOf(l, assignments, cells.get(l.userId))),
    total: Number(count.n),
  };
}

/**
 * The whole gradebook (every learner, all grades) as CSV, UTF-8 with a BOM so spreadsheets read
 * the names right: Username, First name, Last name, one column per assignment
 * ("<title> (<points>)"), Total, Percent. Learners are read EXPORT_BATCH at a time in username
 * order (keyset paging), so memory stays flat whatever the size of the course.
 */
export function gradebookCsv(
  db: Db,
  options: { courseId: string; nowIso: string; batch?: number },
): Readable {
  const batch = options.batch ?? EXPORT_BATCH;
  async function* lines(): AsyncGenerator<Buffer> {
    const assignments = await listAssignments(db, options.courseId);
    yield Buffer.from(
      `\ufeff${csvLine([
        'Username',
        'First name',
        'Last name',
        ...assignments.map((a) => `${a.title} (${a.points})`),
        'Total',
        'Percent',
      ])}`,
      'utf8',
    );
    let after: string | null = null;
    for (;;) {
      let query = learnersQuery(db, options.courseId, options.nowIso)
        .select([...learnerColumns, 'u.username_key as key'])
        .orderBy('u.username_key')
        .limit(batch);
      if (after !== null) query = query.where('u.username_key', '>', after);
      const learners = await query.execute();
      if (learners.length === 0) return;
      const cells = await cellsOf(
        db,
        options.courseId,
        learners.map((l) => l.userId),
        false,
      );
      let chunk = '';
      for (const learner of learners) {
        const row = rowOf(learner, assignments, cells.get(learner.userId));
        chunk += csvLine([
          learner.username,
          learner.firstname,
          learner.lastname,
          ...assignments.map((a) => row.grades[a.id]?.points ?? null),
          row.totalPoints,
          row.percent,
        ]);
      }
      yield Buffer.from(chunk, 'utf8');
      after = (learners[learners.length - 1] as { key: string }).key;
      if (learners.length < batch) return;
    }
  }
  return Readable.from(lines(), { objectMode: false });
}
