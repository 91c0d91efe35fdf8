/**
 * All SQL about a course's structure: sections and lessons, their positions (0..n-1 within their
 * parent, always compact), and the outline. Changes run in the caller's transaction, after the
 * course's row lock (course-repository lockCourse), so counts and positions cannot race.
 */
import type { Db } from '../../platform/db';
import { updateAtRevision } from '../../platform/db/revision';
import { richTextToPlainText } from '../../platform/rich-text/sanitize';
import { searchIndex } from '../../platform/search/search-index';

/** Indexes a lesson for search (its title and the text of its body) in the caller's transaction. */
export async function indexLesson(
  db: Db,
  lesson: { id: string; courseId: string; title: string; bodyHtml: string },
): Promise<void> {
  await searchIndex(db).upsert(db, {
    type: 'lesson',
    id: lesson.id,
    courseId: lesson.courseId,
    title: lesson.title,
    body: richTextToPlainText(lesson.bodyHtml),
  });
}

/** Indexes every lesson of a course (content written without the lesson functions: the demo seed). */
export async function indexCourseLessons(db: Db, courseId: string): Promise<void> {
  for (const lesson of await listLessonsWithBodies(db, courseId)) await indexLesson(db, lesson);
}

export interface SectionRecord {
  id: string;
  courseId: string;
  title: string;
  position: number;
}

export interface LessonRecord {
  id: string;
  courseId: string;
  sectionId: string;
  title: string;
  bodyHtml: string;
  durationMinutes: number | null;
  position: number;
  createdAt: string;
  updatedAt: string;
  /** One more with every change of its title, duration or body (PATCH). */
  revision: number;
}

/** A lesson without its body, in outline order. */
export type LessonOutlineRecord = Omit<LessonRecord, 'bodyHtml' | 'createdAt'>;

export interface OutlineRecord {
  sections: (SectionRecord & { lessons: LessonOutlineRecord[] })[];
}

/** The course's sections and lessons in order (two queries). */
export async function loadOutline(db: Db, courseId: string): Promise<OutlineRecord> {
  const [sections, lessons] = await Promise.all([
    db
      .selectFrom('course_sections')
      .select(['id', 'course_id', 'title', 'position'])
      .where('course_id', '=', courseId)
      .orderBy('position')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('lessons')
      .select([
        'id',
        'course_id',
        'section_id',
        'title',
        'duration_minutes',
        'position',
        'updated_at',
        'revision',
      ])
      .where('course_id', '=', courseId)
      .orderBy('position')
      .orderBy('id')
      .execute(),
  ]);
  const bySection = new Map<string, LessonOutlineRecord[]>();
  for (const l of lessons) {
    const list = bySection.get(l.section_id) ?? [];
    list.push({
      id: l.id,
      courseId: l.course_id,
      sectionId: l.section_id,
      title: l.title,
      durationMinutes: l.duration_minutes === null ? null : Number(l.duration_minutes),
      position: Number(l.position),
      updatedAt: l.updated_at,
      revision: Number(l.revision),
    });
    bySection.set(l.section_id, list);
  }
  return {
    sections: sections.map((s) => ({
      id: s.id,
      courseId: s.course_id,
      title: s.title,
      position: Number(s.position),
      lessons: bySection.get(s.id) ?? [],
    })),
  };
}

/** Lesson ids of the outline in reading order (sections by position, then lessons). */
export function readingOrder(outline: OutlineRecord): LessonOutlineRecord[] {
  return outline.sections.flatMap((s) => s.lessons);
}

export async function findSection(
  db: Db,
  courseId: string,
  sectionId: string,
): Promise<SectionRecord | null> {
  const row = await db
    .selectFrom('course_sections')
    .select(['id', 'course_id', 'title', 'position'])
    .where('course_id', '=', courseId)
    .where('id', '=', sectionId)
    .executeTakeFirst();
  return row
    ? { id: row.id, courseId: row.course_id, title: row.title, position: Number(row.position) }
    : null;
}

export async function countSections(db: Db, courseId: string): Promise<number> {
  const row = await db
    .selectFrom('course_sections')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('course_id', '=', courseId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function countLessonsInSection(db: Db, sectionId: string): Promise<number> {
  const row = await db
    .selectFrom('lessons')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('section_id', '=', sectionId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function countLessons(db: Db, courseId: string): Promise<number> {
  const row = await db
    .selectFrom('lessons')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('course_id', '=', courseId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Lessons per course. */
export async function countLessonsOf(
  db: Db,
  courseIds: readonly string[],
): Promise<Map<string, number>> {
  if (courseIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('lessons')
    .select(['course_id', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('course_id', 'in', [...courseIds])
    .groupBy('course_id')
    .execute();
  return new Map(rows.map((r) => [r.course_id, Number(r.n)]));
}

/** Appends a section at the end. */
export async function insertSection(
  db: Db,
  section: { id: string; courseId: string; title: string },
  at: string,
): Promise<SectionRecord> {
  const position = await countSections(db, section.courseId);
  await db
    .insertInto('course_sections')
    .values({
      id: section.id,
      course_id: section.courseId,
      title: section.title,
      position,
      created_at: at,
    })
    .execute();
  return { ...section, position };
}

export async function updateSectionTitle(db: Db, sectionId: string, title: string): Promise<void> {
  await db.updateTable('course_sections').set({ title }).where('id', '=', sectionId).execute();
}

/** Deletes a section (its lessons go by cascade) and closes the gap in the positions. */
export async function deleteSection(db: Db, courseId: string, sectionId: string): Promise<void> {
  const section = await findSection(db, courseId, sectionId);
  if (!section) return;
  const index = searchIndex(db);
  for (const id of await listLessonIds(db, { courseId, sectionId })) {
    await index.remove(db, 'lesson', id);
  }
  await db.deleteFrom('lessons').where('section_id', '=', sectionId).execute();
  await db.deleteFrom('course_sections').where('id', '=', sectionId).execute();
  await db
    .updateTable('course_sections')
    .set((eb) => ({ position: eb('position', '-', 1) }))
    .where('course_id', '=', courseId)
    .where('position', '>', section.position)
    .execute();
}

/** Lesson ids of a section (to remove their files). */
export async function listLessonIds(
  db: Db,
  where: { courseId: string; sectionId?: string },
): Promise<string[]> {
  let query = db.selectFrom('lessons').select('id').where('course_id', '=', where.courseId);
  if (where.sectionId) query = query.where('section_id', '=', where.sectionId);
  return (await query.execute()).map((r) => r.id);
}

type LessonRow = {
  id: string;
  course_id: string;
  section_id: string;
  title: string;
  body_html: string;
  duration_minutes: number | null;
  position: number;
  created_at: string;
  updated_at: string;
  revision: number;
};

const toLesson = (r: LessonRow): LessonRecord => ({
  id: r.id,
  courseId: r.course_id,
  sectionId: r.section_id,
  title: r.title,
  bodyHtml: r.body_html,
  durationMinutes: r.duration_minutes === null ? null : Number(r.duration_minutes),
  position: Number(r.position),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  revision: Number(r.revision),
});

export async function findLesson(
  db: Db,
  courseId: string,
  lessonId: string,
): Promise<LessonRecord | null> {
  const row = await db
    .selectFrom('lessons')
    .selectAll()
    .where('course_id', '=', courseId)
    .where('id', '=', lessonId)
    .executeTakeFirst();
  return row ? toLesson(row) : null;
}

/** The course a lesson belongs to (file read checks name only the lesson). */
export async function findLessonCourseId(db: Db, lessonId: string): Promise<string | null> {
  const row = await db
    .selectFrom('lessons')
    .select('course_id')
    .where('id', '=', lessonId)
    .executeTakeFirst();
  return row?.course_id ?? null;
}

/** Appends a lesson at the end of its section. */
export async function insertLesson(
  db: Db,
  lesson: {
    id: string;
    courseId: string;
    sectionId: string;
    title: string;
    bodyHtml: string;
    durationMinutes: number | null;
  },
  at: string,
): Promise<LessonRecord> {
  const position = await countLessonsInSection(db, lesson.sectionId);
  await db
    .insertInto('lessons')
    .values({
      id: lesson.id,
      course_id: lesson.courseId,
      section_id: lesson.sectionId,
      title: lesson.title,
      body_html: lesson.bodyHtml,
      duration_minutes: lesson.durationMinutes,
      position,
      created_at: at,
      updated_at: at,
    })
    .execute();
  await indexLesson(db, lesson);
  return { ...lesson, position, createdAt: at, updatedAt: at, revision: 1 };
}

/**
 * Changes a lesson only while it is at `revision` (one conditional UPDATE that bumps it:
 * platform/db/revision.ts; 404 when gone, 409 when changed by someone else since).
 */
export async function updateLesson(
  db: Db,
  lessonId: string,
  revision: number,
  changes: { title?: string; bodyHtml?: string; durationMinutes?: number | null },
  at: string,
): Promise<void> {
  await updateAtRevision(
    db,
    {
      table: 'lessons',
      id: lessonId,
      revision,
      set: {
        ...(changes.title !== undefined ? { title: changes.title } : {}),
        ...(changes.bodyHtml !== undefined ? { body_html: changes.bodyHtml } : {}),
        ...(changes.durationMinutes !== undefined
          ? { duration_minutes: changes.durationMinutes }
          : {}),
        updated_at: at,
      },
    },
    { notFound: 'Lesson not found' },
  );
  if (changes.title !== undefined || changes.bodyHtml !== undefined) {
    const row = await db
      .selectFrom('lessons')
      .select(['id', 'course_id', 'title', 'body_html'])
      .where('id', '=', lessonId)
      .executeTakeFirst();
    if (row) {
      await indexLesson(db, {
        id: row.id,
        courseId: row.course_id,
        title: row.title,
        bodyHtml: row.body_html,
      });
    }
  }
}

/** Deletes a lesson and closes the gap in its section's positions. */
export async function deleteLesson(db: Db, lesson: LessonRecord): Promise<void> {
  await searchIndex(db).remove(db, 'lesson', lesson.id);
  await db.deleteFrom('lessons').where('id', '=', lesson.id).execute();
  await db
    .updateTable('lessons')
    .set((eb) => ({ position: eb('position', '-', 1) }))
    .where('section_id', '=', lesson.sectionId)
    .where('position', '>', lesson.position)
    .execute();
}

/**
 * Writes a whole new order: each section's position, and each lesson's section and position.
 * The caller has checked that the order names exactly the course's sections and lessons.
 */
export async function applyOutline(
  db: Db,
  courseId: string,
  order: { id: string; lessonIds: string[] }[],
): Promise<void> {
  for (const [position, section] of order.entries()) {
    await db
      .updateTable('course_sections')
      .set({ position })
      .where('id', '=', section.id)
      .where('course_id', '=', courseId)
      .execute();
    for (const [lessonPosition, lessonId] of section.lessonIds.entries()) {
      await db
        .updateTable('lessons')
        .set({ section_id: section.id, position: lessonPosition })
        .where('id', '=', lessonId)
        .where('course_id', '=', courseId)
        .execute();
    }
  }
}

/** Every lesson of a course with its body (copying a course). */
export async function listLessonsWithBodies(db: Db, courseId: string): Promise<LessonRecord[]> {
  const rows = await db
    .selectFrom('lessons')
    .selectAll()
    .where('course_id', '=', courseId)
    .orderBy('position')
    .execute();
  return rows.map(toLesson);
}

/** Inserts sections and lessons as they are (copying a course). */
export async function insertStructure(
  db: Db,
  sections: { id: string; courseId: string; title: string; position: number }[],
  lessons: LessonRecord[],
  at: string,
): Promise<void> {
  for (const s of sections) {
    await db
      .insertInto('course_sections')
      .values({
        id: s.id,
        course_id: s.courseId,
        title: s.title,
        position: s.position,
        created_at: at,
      })
      .execute();
  }
  for (const l of lessons) {
    await db
      .insertInto('lessons')
      .values({
        id: l.id,
        course_id: l.courseId,
        section_id: l.sectionId,
        title: l.title,
        body_html: l.bodyHtml,
        duration_minutes: l.durationMinutes,
        position: l.position,
        created_at: at,
        updated_at: at,
      })
      .execute();
    await indexLesson(db, l);
  }
}

/** Replaces a lesson's body (re-pointing file references after a copy). */
export async function setLessonBody(db: Db, lessonId: string, bodyHtml: string): Promise<void> {
  await db.updateTable('lessons').set({ body_html: bodyHtml }).where('id', '=', lessonId).execute();
}

// ---------------------------------------------------------------- assignments of a copy

/**
 * The assignments of a course as stored (copying a course: the assignments repository of the
 * assignments area owns them otherwise; the copy writes the same columns).
 */
export async function listAssignmentRows(db: Db, courseId: string) {
  return db
    .selectFrom('assignments')
    .selectAll()
    .where('course_id', '=', courseId)
    .orderBy('position')
    .execute();
}

export type AssignmentRow = Awaited<ReturnType<typeof listAssignmentRows>>[number];

/** Inserts copies of assignment rows (grades not released). */
export async function insertAssignmentCopies(db: Db, rows: AssignmentRow[]): Promise<void> {
  for (const r of rows) {
    await db
      .insertInto('assignments')
      .values({ ...r, grades_released: 0, revision: 1 })
      .execute();
  }
}

export async function setAssignmentInstructions(
  db: Db,
  assignmentId: string,
  html: string,
): Promise<void> {
  await db
    .updateTable('assignments')
    .set({ instructions_html: html })
    .where('id', '=', assignmentId)
    .execute();
}

/** Ids of a course's assignments (to remove their files with the course). */
export async function listAssignmentIds(db: Db, courseId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('assignments')
    .select('id')
    .where('course_id', '=', courseId)
    .execute();
  return rows.map((r) => r.id);
}
