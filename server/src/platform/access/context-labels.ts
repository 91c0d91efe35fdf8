/**
 * Readable names for contexts (course titles, department and user names), and whether a context
 * an assignment names exists.
 */
import { contextKey, type AccessContext } from '@learning-hub/core';
import { findUserById } from '../auth/user-repository';
import { findDepartment } from '../auth/departments';
import type { Db } from '../db';

/** The context's name, or null when it names nothing that exists. */
export async function describeContextTarget(
  db: Db,
  context: AccessContext,
): Promise<string | null> {
  switch (context.type) {
    case 'system':
      return 'Everywhere (system)';
    case 'course': {
      // The access model names courses by code and title; the courses area owns the rest.
      const course = await db
        .selectFrom('courses')
        .select(['code', 'title'])
        .where('id', '=', context.courseId)
        .executeTakeFirst();
      return course ? `${course.code} · ${course.title}` : null;
    }
    case 'department': {
      const department = await findDepartment(db, context.departmentId);
      return department && department.id === context.departmentId ? department.name : null;
    }
    case 'user': {
      const user = await findUserById(db, context.userId);
      return user ? `${user.firstname} ${user.lastname} (${user.username})`.trim() : null;
    }
    case 'custom':
      return `${context.contextType} ${context.contextId}`;
  }
}

/** Labels for many contexts at once (unknown ones labelled by their key). */
export async function labelContexts(
  db: Db,
  contexts: readonly AccessContext[],
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const context of contexts) {
    const key = contextKey(context);
    if (!out.has(key)) out.set(key, (await describeContextTarget(db, context)) ?? key);
  }
  return out;
}
