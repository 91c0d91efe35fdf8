/** All SQL about courses (the context of course roles). */
import type { Course } from '@learning-hub/core';
import { sql } from 'kysely';
import type { Db } from '../db';

function courseQuery(db: Db) {
  return db
    .selectFrom('courses')
    .leftJoin('departments', 'departments.id', 'courses.department_id')
    .select([
      'courses.id',
      'courses.code',
      'courses.title',
      'courses.description',
      'courses.department_id',
      'departments.name as department_name',
    ]);
}

type Row = NonNullable<Awaited<ReturnType<ReturnType<typeof courseQuery>['executeTakeFirst']>>>;
const toCourse = (r: Row): Course => ({
  id: r.id,
  code: r.code,
  title: r.title,
  description: r.description,
  departmentId: r.department_id,
  departmentName: r.department_name,
});

export async function findCourse(db: Db, id: string): Promise<Course | null> {
  const row = await courseQuery(db).where('courses.id', '=', id).executeTakeFirst();
  return row ? toCourse(row) : null;
}

export async function listCourses(
  db: Db,
  filter: { search?: string; offset: number; limit: number },
): Promise<{ courses: Course[]; total: number }> {
  let base = db.selectFrom('courses');
  if (filter.search) {
    const pattern = `%${filter.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    base = base.where((eb) =>
      eb.or([
        eb(sql`lower(courses.title)`, 'like', sql`${pattern} escape '\\'`),
        eb(sql`lower(courses.code)`, 'like', sql`${pattern} escape '\\'`),
      ]),
    );
  }
  const total = await base
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  const ids = await base
    .select('courses.id')
    .orderBy('courses.title')
    .limit(filter.limit)
    .offset(filter.offset)
    .execute();
  if (ids.length === 0) return { courses: [], total: Number(total.n) };
  const rows = await courseQuery(db)
    .where(
      'courses.id',
      'in',
      ids.map((r) => r.id),
    )
    .orderBy('courses.title')
    .execute();
  return { courses: rows.map(toCourse), total: Number(total.n) };
}

export async function insertCourse(
  db: Db,
  course: Omit<Course, 'departmentName'>,
  at: string,
): Promise<void> {
  await db
    .insertInto('courses')
    .values({
      id: course.id,
      code: course.code,
      title: course.title,
      description: course.description,
      department_id: course.departmentId,
      created_at: at,
    })
    .execute();
}

export async function countCourses(db: Db): Promise<number> {
  const row = await db
    .selectFrom('courses')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
