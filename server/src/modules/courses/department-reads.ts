/**
 * What the courses area gives the pages that compose other areas' parts (the department page; the
 * dashboard the same way), through public.ts: a department's courses for one viewer, and a group
 * of people's progress in courses.
 */
import type { CourseState } from '@learning-hub/core';
import type { AccessService } from '../../platform/access/access-service';
import type { UserRecord } from '../../platform/auth/user-repository';
import type { Db } from '../../platform/db';
import { courseVisibilityOf } from '../../platform/visibility/course-visibility';
import { listCataloguePage } from './course-repository';

/** A course as a page beside its department lists it. */
export interface DepartmentCourse {
  id: string;
  code: string;
  title: string;
  state: CourseState;
}

/**
 * The courses of the department `user` may see (the catalogue's rule, every state), by title, at
 * most `limit`.
 */
export async function coursesOfDepartment(
  db: Db,
  access: AccessService,
  user: UserRecord,
  departmentId: string,
  now: number,
  limit: number,
): Promise<DepartmentCourse[]> {
  const { courses } = await listCataloguePage(db, {
    departmentId,
    scope: 'all',
    state: 'any',
    visibility: courseVisibilityOf(access, user, now),
    offset: 0,
    limit,
  });
  return courses.map((c) => ({ id: c.id, code: c.code, title: c.title, state: c.state }));
}
