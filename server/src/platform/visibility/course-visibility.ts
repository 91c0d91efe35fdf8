/**
 * The course visibility rule (docs/architecture.md, "Areas and the platform"): which courses a
 * viewer may see and whose lessons they may open, as SQL for every course at once. Every list
 * and search of every area filters by it; the in-memory twin for one course is
 * `courseAccess` in the courses area and `courseLearnable` below.
 */
import { isAdmin, isAssignmentInForce, type CourseState } from '@learning-hub/core';
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { AccessService } from '../access/access-service';
import type { UserRecord } from '../auth/user-repository';
import type { Db } from '../db';
import type { Database } from '../db/schema';
import { departmentsSeen } from './department-visibility';

/**
 * Which courses the viewer may see, as the caller decided it with the permission model (the
 * same rule as courseAccess().canSee, for every course at once).
 */
export interface CourseVisibility {
  /** Holds course.edit everywhere (or is admin): sees every course in every state. */
  editAll: boolean;
  /** Holds course.view everywhere: sees every published course. */
  viewAll: boolean;
  /** Departments where they hold course.view: sees their published courses. */
  departmentIds: readonly string[];
  /** Courses with an in-force course assignment of theirs (any course role). */
  participantIds: readonly string[];
  /** Courses where they hold course.edit through an assignment. */
  editableIds: readonly string[];
}

/**
 * The viewer's course visibility and their enrolments, from their loaded permissions: course.edit
 * system-wide (or admin) sees every course, course.view system-wide every published one, and
 * course.view in departments (the department rule) those departments' published ones.
 */
export function courseVisibilityOf(
  access: AccessService,
  user: UserRecord,
  now: number,
): CourseVisibility & { enrolledIds: Set<string> } {
  const editAll = isAdmin(user) || access.engine.check(user.id, 'course.edit');
  const seen = departmentsSeen(access, user, now, ['course.view']);
  const viewAll = editAll || seen.allDepartments;
  const participantIds: string[] = [];
  const editableIds: string[] = [];
  const enrolledIds = new Set<string>();
  for (const a of access.engine.subjectOf(user.id)?.contextAssignments ?? []) {
    if (a.context.type !== 'course' || !isAssignmentInForce(a, now)) continue;
    const id = a.context.courseId;
    if (a.roles.length > 0) participantIds.push(id);
    if (a.roles.includes('course-student')) enrolledIds.add(id);
    if (!editAll && access.engine.check(user.id, 'course.edit', a.context)) editableIds.push(id);
  }
  const departmentIds = viewAll ? [] : seen.departmentIds;
  return { editAll, viewAll, departmentIds, participantIds, editableIds, enrolledIds };
}

type Eb = ExpressionBuilder<Database, 'courses'>;
export const TRUE = sql<SqlBool>`1 = 1`;
export const FALSE = sql<SqlBool>`1 = 0`;

function anyOf(eb: Eb, conditions: (Expression<SqlBool> | boolean)[]): Expression<SqlBool> {
  if (conditions.includes(true)) return TRUE;
  const real = conditions.filter((c): c is Expression<SqlBool> => typeof c !== 'boolean');
  if (real.length === 0) return FALSE;
  return real.length === 1 ? (real[0] as Expression<SqlBool>) : eb.or(real);
}

const inList = (eb: Eb, column: 'courses.id' | 'courses.department_id', ids: readonly string[]) =>
  ids.length > 0 ? eb(column, 'in', [...ids]) : false;

/** The visibility rule of one state, as SQL. */
export function visibleIn(eb: Eb, state: CourseState, v: CourseVisibility): Expression<SqlBool> {
  const editable = [v.editAll, inList(eb, 'courses.id', v.editableIds)];
  const participant = inList(eb, 'courses.id', v.participantIds);
  const who =
    state === 'draft'
      ? anyOf(eb, editable)
      : state === 'archived'
        ? anyOf(eb, [...editable, participant])
        : anyOf(eb, [
            ...editable,
            participant,
            v.viewAll,
            inList(eb, 'courses.department_id', v.departmentIds),
          ]);
  return eb.and([eb('courses.state', '=', state), who]);
}

/**
 * What may be opened of a course's content (lessons): courseAccess().canLearn for every course
 * at once — a draft by its editors, otherwise by its editors and participants.
 */
export function learnableIn(eb: Eb, state: CourseState, v: CourseVisibility): Expression<SqlBool> {
  const editable = [v.editAll, inList(eb, 'courses.id', v.editableIds)];
  const participant = inList(eb, 'courses.id', v.participantIds);
  const who = state === 'draft' ? anyOf(eb, editable) : anyOf(eb, [...editable, participant]);
  return eb.and([eb('courses.state', '=', state), who]);
}

const ALL_STATES: CourseState[] = ['published', 'draft', 'archived'];

/**
 * The ids of the courses the viewer may see (`see`, the catalogue's rule in every state) or whose
 * lessons they may open (`learn`), as a subquery: what search filters its results by.
 */
export function visibleCourseIds(db: Db, v: CourseVisibility, need: 'see' | 'learn') {
  const rule = need === 'see' ? visibleIn : learnableIn;
  return db
    .selectFrom('courses')
    .select('courses.id')
    .where((eb) => eb.or(ALL_STATES.map((s) => rule(eb, s, v))));
}

/** `learnableIn` of one course, in memory: whether the viewer may open its lessons. */
export function courseLearnable(
  c: CourseVisibility,
  courseId: string,
  state: string | null,
): boolean {
  if (state !== 'published' && state !== 'draft' && state !== 'archived') return false;
  if (c.editAll || c.editableIds.includes(courseId)) return true;
  return state !== 'draft' && c.participantIds.includes(courseId);
}
