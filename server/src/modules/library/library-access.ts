/**
 * Who sees and may change library items (docs/library.md, "Visibility and abilities"): the one
 * rule the list, the item routes, the files of an item (`canRead`) and search use — in memory for
 * one item, and as SQL for the list and search.
 *
 * An item is visible to someone who holds `library.view` (anywhere) when its scope is
 * `everyone`; `department` and they hold `department.view` in that department (its members, and
 * admins); `course` and they may open that course's content (courseAccess().canLearn: its
 * participants and editors). A system-wide `library.view` (every student holds it) does not open
 * every department. Items in the trash show only in the trash, to whoever may restore them.
 */
import { isAdmin } from '@learning-hub/core';
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { AccessService } from '../../platform/access/access-service';
import type { UserRecord } from '../../platform/auth/user-repository';
import { courseAccess } from '../courses/public';
import { findCourseRecord } from '../courses/public';
import {
  courseVisibilityOf,
  type CourseVisibility,
} from '../../platform/visibility/course-visibility';
import { contentScopeSql } from '../../platform/visibility/content-scope';
import { departmentsSeen, seesDepartment } from '../../platform/visibility/department-visibility';
import type { Db } from '../../platform/db';

/** What the viewer holds that the library's rules ask, decided once per request. */
export interface LibraryViewer {
  userId: string;
  admin: boolean;
  /** library.view anywhere. */
  view: boolean;
  /** library.upload (system-wide): may add items. */
  upload: boolean;
  /** library.edit: may change their own items. */
  edit: boolean;
  /** library.delete: may trash and restore their own items. */
  delete: boolean;
  /** library.manage: anyone's items, the trash and the categories. */
  manage: boolean;
  /** department.view held system-wide: every department's items. */
  allDepartments: boolean;
  /** Departments where they hold department.view. */
  departmentIds: readonly string[];
  /** Which courses' content they may open (the courses area's rule). */
  courses: CourseVisibility;
}

export function libraryViewerOf(
  access: AccessService,
  user: UserRecord,
  now: number,
): LibraryViewer {
  const engine = access.engine;
  const admin = isAdmin(user);
  return {
    userId: user.id,
    admin,
    view: admin || engine.check(user.id, 'library.view', 'any'),
    upload: admin || engine.check(user.id, 'library.upload'),
    edit: admin || engine.check(user.id, 'library.edit'),
    delete: admin || engine.check(user.id, 'library.delete'),
    manage: admin || engine.check(user.id, 'library.manage'),
    ...departmentsSeen(access, user, now, ['department.view']),
    courses: courseVisibilityOf(access, user, now),
  };
}

const FALSE = sql<SqlBool>`1 = 0`;

/**
 * The scope half of the rule as SQL over two columns (`department_id`, `course_id` of
 * `library_items` or of `search_documents`): an item of everyone has neither.
 */
export function scopeVisibleSql(
  db: Db,
  v: LibraryViewer,
  columns: { department: string; course: string },
): RawBuilder<SqlBool> {
  return contentScopeSql(db, v, columns);
}

/** Items of the library (not in the trash) the viewer may see, over `library_items` as `i`. */
export function listVisibleSql(db: Db, v: LibraryViewer): RawBuilder<SqlBool> {
  return sql<SqlBool>`(i.deleted_at is null and ${scopeVisibleSql(db, v, {
    department: 'i.department_id',
    course: 'i.course_id',
  })})`;
}

/** Items in the trash the viewer may restore (and so see), over `library_items` as `i`. */
export function trashVisibleSql(db: Db, v: LibraryViewer): RawBuilder<SqlBool> {
  if (v.manage) return sql<SqlBool>`i.deleted_at is not null`;
  if (!v.delete) return FALSE;
  return sql<SqlBool>`(i.deleted_at is not null and i.created_by = ${v.userId} and ${scopeVisibleSql(
    db,
    v,
    { department: 'i.department_id', course: 'i.course_id' },
  )})`;
}

/** The fields of an item the rules read. */
export interface ItemGate {
  scopeType: string;
  departmentId: string | null;
  courseId: string | null;
  createdBy: { id: string };
  deletedAt: string | null;
}

/** The scope half of the rule for one item (the same rule as scopeVisibleSql). */
export async function scopeVisible(
  db: Db,
  access: AccessService,
  user: UserRecord,
  v: LibraryViewer,
  item: Pick<ItemGate, 'departmentId' | 'courseId'>,
  now: number,
): Promise<boolean> {
  if (!v.view) return false;
  if (item.departmentId !== null) return seesDepartment(v, item.departmentId);
  if (item.courseId !== null) {
    const course = await findCourseRecord(db, item.courseId);
    return course !== null && courseAccess(access, user, course, now).canLearn;
  }
  return true;
}

/** What the viewer may do with one item (they may see it). */
export function abilitiesOf(v: LibraryViewer, item: Pick<ItemGate, 'createdBy' | 'deletedAt'>) {
  const own = item.createdBy.id === v.userId;
  const mayEdit = v.manage || (own && v.edit);
  const mayDelete = v.manage || (own && v.delete);
  const trashed = item.deletedAt !== null;
  return {
    edit: mayEdit && !trashed,
    delete: mayDelete && !trashed,
    restore: mayDelete && trashed,
    purge: v.manage && trashed,
  };
}

/**
 * Whether the viewer may see one item: in the library when its scope is visible to them; in the
 * trash when they may restore it (library.manage: any; library.delete: their own they can see).
 */
export async function itemVisible(
  db: Db,
  access: AccessService,
  user: UserRecord,
  v: LibraryViewer,
  item: ItemGate,
  now: number,
): Promise<boolean> {
  if (item.deletedAt !== null) {
    if (v.manage) return true;
    if (!(v.delete && item.createdBy.id === v.userId)) return false;
  }
  return scopeVisible(db, access, user, v, item, now);
}
