/**
 * Who sees and may change wiki pages (docs/wiki.md, "Visibility and abilities"): the one rule the
 * list, the tree, the page routes, backlinks, links, the files of a page (`canRead`) and search
 * use — in memory for one page or space, and as SQL for lists and search.
 *
 * A page is visible to someone who holds `wiki.view` (in any context) when
 * - its space is visible to them: the company's always; a department's when they hold
 *   `department.view` or `department.manage` there (its members and managers, admins); a
 *   course's when they may open that course's content (courseAccess().canLearn: its participants
 *   and editors; drafts only for editors);
 * - it is published, or it is a draft of theirs, or they hold `wiki.manage`;
 * - it is not in the trash, or they may restore pages (`wiki.delete`, `wiki.manage`; restoring
 *   one also needs wiki.delete in its space).
 *
 * Writing in a space also needs, beyond the wiki permission there, `course.edit` in a course
 * space and `department.view` or `department.manage` in a department space. What someone may
 * not see is answered 404, never 403.
 */
import {
  isAdmin,
  type AccessContext,
  type PermissionId,
  type WikiSpaceKey,
} from '@learning-hub/core';
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { AccessService } from '../../platform/access/access-service';
import type { UserRecord } from '../../platform/auth/user-repository';
import { courseAccess, type CourseGate } from '../courses/public';
import { findCourseRecord } from '../courses/public';
import {
  courseVisibilityOf,
  type CourseVisibility,
} from '../../platform/visibility/course-visibility';
import { contentInScope, contentScopeSql } from '../../platform/visibility/content-scope';
import { departmentsSeen, seesDepartment } from '../../platform/visibility/department-visibility';
import type { Db } from '../../platform/db';

/** A space as the rules read it. */
export type WikiSpaceRef =
  | { type: 'company'; key: 'company' }
  | { type: 'department'; key: WikiSpaceKey; departmentId: string }
  | { type: 'course'; key: WikiSpaceKey; courseId: string };

/** The space a key names (the key is valid by WikiSpaceKeySchema). */
export function spaceOfKey(key: string): WikiSpaceRef {
  if (key.startsWith('department:')) {
    return { type: 'department', key, departmentId: key.slice('department:'.length) };
  }
  if (key.startsWith('course:'))
    return { type: 'course', key, courseId: key.slice('course:'.length) };
  return { type: 'company', key: 'company' };
}

/** The space of a page's columns. */
export function spaceOfPage(page: {
  departmentId: string | null;
  courseId: string | null;
}): WikiSpaceRef {
  if (page.departmentId !== null) {
    return {
      type: 'department',
      key: `department:${page.departmentId}`,
      departmentId: page.departmentId,
    };
  }
  if (page.courseId !== null) {
    return { type: 'course', key: `course:${page.courseId}`, courseId: page.courseId };
  }
  return { type: 'company', key: 'company' };
}

/** The access context a space's permissions are checked in (company: the system context). */
export function contextOfSpace(space: WikiSpaceRef): AccessContext | undefined {
  if (space.type === 'department') return { type: 'department', departmentId: space.departmentId };
  if (space.type === 'course') return { type: 'course', courseId: space.courseId };
  return undefined;
}

/** What the viewer holds that the wiki's rules ask, decided once per request. */
export interface WikiViewer {
  user: UserRecord;
  userId: string;
  admin: boolean;
  /** wiki.view anywhere. */
  view: boolean;
  /** wiki.delete anywhere (the trash list; each page checks its own space). */
  deleteAnywhere: boolean;
  /** wiki.manage (system-wide): every draft and trashed page, moving, purging. */
  manage: boolean;
  /** department.view (or .manage) held system-wide: every department's space. */
  allDepartments: boolean;
  /** Departments where they hold department.view or department.manage. */
  departmentIds: readonly string[];
  /** Which courses' content they may open (the courses area's rule). */
  courses: CourseVisibility;
}

export function wikiViewerOf(access: AccessService, user: UserRecord, now: number): WikiViewer {
  const engine = access.engine;
  const admin = isAdmin(user);
  return {
    user,
    userId: user.id,
    admin,
    view: admin || engine.check(user.id, 'wiki.view', 'any'),
    deleteAnywhere: admin || engine.check(user.id, 'wiki.delete', 'any'),
    manage: admin || engine.check(user.id, 'wiki.manage'),
    ...departmentsSeen(access, user, now, ['department.view', 'department.manage']),
    courses: courseVisibilityOf(access, user, now),
  };
}

const FALSE = sql<SqlBool>`1 = 0`;

/**
 * The space half of the rule as SQL over two columns (`department_id`, `course_id` of
 * `wiki_pages` or of `search_documents`): a company page has neither.
 */
export function spaceVisibleSql(
  db: Db,
  v: WikiViewer,
  columns: { department: string; course: string },
): RawBuilder<SqlBool> {
  return contentScopeSql(db, v, columns);
}

/** Drafts: the author's, every one with wiki.manage; over `wiki_pages` as `alias`. */
function statusVisibleSql(v: WikiViewer, alias: string): RawBuilder<SqlBool> {
  if (v.manage) return sql<SqlBool>`1 = 1`;
  return sql<SqlBool>`(${sql.ref(`${alias}.status`)} = 'published' or ${sql.ref(`${alias}.created_by`)} = ${v.userId})`;
}

/** Pages (not in the trash) the viewer may open, over `wiki_pages` as `alias` (default `p`). */
export function pagesVisibleSql(db: Db, v: WikiViewer, alias = 'p'): RawBuilder<SqlBool> {
  return sql<SqlBool>`(${sql.ref(`${alias}.deleted_at`)} is null and ${statusVisibleSql(v, alias)} and ${spaceVisibleSql(
    db,
    v,
    { department: `${alias}.department_id`, course: `${alias}.course_id` },
  )})`;
}

/** A page row as the in-memory rule reads it, with its course's state (null: no such course). */
export interface OpenableRow {
  status: string;
  created_by: string;
  deleted_at: string | null;
  department_id: string | null;
  course_id: string | null;
  course_state: string | null;
}

/**
 * pagesVisibleSql in memory, for rows read with fixed queries (prepared once) rather than with
 * the viewer's SQL built on every request: out of the trash, published or theirs (or wiki.manage),
 * in a space they may read (a course's by its state, as visibleCourseIds(…, 'learn') decides).
 */
export function pageOpenable(v: WikiViewer, row: OpenableRow): boolean {
  if (!v.view || row.deleted_at !== null) return false;
  if (!v.manage && row.status !== 'published' && row.created_by !== v.userId) return false;
  return contentInScope(v, {
    departmentId: row.department_id,
    courseId: row.course_id,
    courseState: row.course_state,
  });
}

/**
 * Pages in the trash the viewer may see (to restore or purge them), over `wiki_pages` as `p`:
 * every one with wiki.manage; with wiki.delete, those of the spaces they may read (the page's
 * own space then decides whether they may restore it).
 */
export function trashVisibleSql(db: Db, v: WikiViewer): RawBuilder<SqlBool> {
  if (v.manage) return sql<SqlBool>`p.deleted_at is not null`;
  if (!v.deleteAnywhere) return FALSE;
  return sql<SqlBool>`(p.deleted_at is not null and ${statusVisibleSql(v, 'p')} and ${spaceVisibleSql(
    db,
    v,
    { department: 'p.department_id', course: 'p.course_id' },
  )})`;
}

/** The fields of a page the rules read. */
export interface PageGate {
  departmentId: string | null;
  courseId: string | null;
  status: string;
  createdBy: { id: string };
  deletedAt: string | null;
}

/** Whether the viewer may read a space (the space half of the rule, in memory). */
export async function spaceVisible(
  db: Db,
  access: AccessService,
  v: WikiViewer,
  space: WikiSpaceRef,
  now: number,
): Promise<boolean> {
  if (!v.view) return false;
  if (space.type === 'department') return seesDepartment(v, space.departmentId);
  if (space.type === 'course') {
    const course = await findCourseRecord(db, space.courseId);
    return course !== null && courseAccess(access, v.user, course, now).canLearn;
  }
  return true;
}

/** Holds a wiki permission in the space's context (system-wide ones count everywhere). */
export function holdsIn(
  access: AccessService,
  v: WikiViewer,
  permission: PermissionId,
  space: WikiSpaceRef,
): boolean {
  return v.admin || access.engine.check(v.userId, permission, contextOfSpace(space));
}

/**
 * What writing in a space needs beyond the wiki permission: course.edit in a course space
 * (whatever the course's state), department.view or .manage in a department space.
 */
export async function spaceWritable(
  db: Db,
  access: AccessService,
  v: WikiViewer,
  space: WikiSpaceRef,
  now: number,
): Promise<boolean> {
  if (v.admin) return true;
  if (space.type === 'department') return seesDepartment(v, space.departmentId);
  if (space.type === 'course') {
    const course = await findCourseRecord(db, space.courseId);
    return course !== null && courseAccess(access, v.user, course, now).editor;
  }
  return true;
}

/** What the viewer may do in a space they may read. */
export async function spaceAbilities(
  db: Db,
  access: AccessService,
  v: WikiViewer,
  space: WikiSpaceRef,
  now: number,
): Promise<{ create: boolean; manage: boolean }> {
  const create =
    holdsIn(access, v, 'wiki.create', space) && (await spaceWritable(db, access, v, space, now));
  return { create, manage: v.manage };
}

/**
 * A course's space for the viewer, from the course's record already read (the space list reads
 * many at once): whether they may read it and what they may do there (spaceVisible and
 * spaceAbilities without reading the course again).
 */
export function courseSpaceFor(
  access: AccessService,
  v: WikiViewer,
  course: CourseGate,
  now: number,
): { space: WikiSpaceRef; visible: boolean; can: { create: boolean; manage: boolean } } {
  const space: WikiSpaceRef = { type: 'course', key: `course:${course.id}`, courseId: course.id };
  const a = courseAccess(access, v.user, course, now);
  const create = holdsIn(access, v, 'wiki.create', space) && (v.admin || a.editor);
  return { space, visible: v.view && a.canLearn, can: { create, manage: v.manage } };
}

/** Whether the viewer may see one page (the same rule as pagesVisibleSql / trashVisibleSql). */
export async function pageVisible(
  db: Db,
  access: AccessService,
  v: WikiViewer,
  page: PageGate,
  now: number,
): Promise<boolean> {
  if (!v.view) return false;
  if (page.status !== 'published' && page.createdBy.id !== v.userId && !v.manage) return false;
  if (page.deletedAt !== null && !v.manage && !v.deleteAnywhere) return false;
  return spaceVisible(db, access, v, spaceOfPage(page), now);
}

/** What the viewer may do with one page they may see. */
export async function pageAbilities(
  db: Db,
  access: AccessService,
  v: WikiViewer,
  page: PageGate,
  now: number,
): Promise<{ edit: boolean; delete: boolean; move: boolean; purge: boolean }> {
  const space = spaceOfPage(page);
  const trashed = page.deletedAt !== null;
  const writable = await spaceWritable(db, access, v, space, now);
  return {
    edit: !trashed && writable && holdsIn(access, v, 'wiki.edit', space),
    delete: writable && holdsIn(access, v, 'wiki.delete', space),
    move: !trashed && v.manage,
    purge: trashed && v.manage,
  };
}
