/**
 * The course's life (docs/classroom.md): creating (the creator teaches it), changing with the
 * state rules and the optimistic revision, deleting when no learner's work hangs on it, copying
 * with its structure, media and assignments, and the files rich text refers to. Rules that span
 * the course, structure, access and file repositories live here; the routes stay thin.
 */
import {
  AppError,
  contextKey,
  STALE_REVISION_MESSAGE,
  type CourseCreate,
  type CourseState,
  type CourseUpdate,
} from '@learning-hub/core';
import {
  deleteAssignment,
  recordAccessAudit,
  upsertAssignment,
} from '../../platform/access/access-repository';
import type { Db } from '../../platform/db';
import { isPrimaryKeyViolation, isUniqueViolation } from '../../platform/db/errors';
import type { AreaRegistry } from '../../platform/areas';
import { sortableId } from '../../platform/ids';
import {
  mapFileReferences,
  richTextToPlainText,
  sanitizeRichText,
} from '../../platform/rich-text/sanitize';
import type { FileService } from '../../platform/storage/file-service';
import { courseContext } from './course-access';
import {
  clearCover,
  createCourse,
  deleteCourseRow,
  departmentExists,
  findCourseRecord,
  hasSubmissionsOrGrades,
  listCourseAssignmentUsers,
  lockCourse,
  setCoverAndSummary,
  updateCourse,
  type CourseChanges,
  type CourseRecord,
} from './course-repository';
import type { SignedInActor } from '../../platform/actor';
import {
  countLessons,
  insertAssignmentCopies,
  insertStructure,
  listAssignmentRows,
  listLessonIds,
  listLessonsWithBodies,
  loadOutline,
  setAssignmentInstructions,
  setLessonBody,
} from './structure-repository';

/** The answers of the course rules, word for word. */
export const COURSE_MESSAGES = {
  codeTaken: 'A course with this code already exists.',
  archived: 'This course is archived; restore it to make changes.',
  needsLesson: 'Add at least one lesson before publishing.',
  /** The one answer to a stale revision, for every thing people edit (core's errors.ts). */
  stale: STALE_REVISION_MESSAGE,
  hasWork: 'This course has submissions or grades; archive it instead.',
  endBeforeStart: 'The end date must be after the start date.',
  keyNeeded: 'Enter an enrolment key, or choose another way to enrol.',
  noDepartment: 'There is no such department.',
  draftNotArchived:
    'Only a published course can be archived: publish it first, or delete the draft.',
} as const;

/**
 * A new course's id: its code in lower case, every run of other characters one `-`
 * (`OSP_150` → `osp-150`), so that its address reads like the demo courses' (`/classroom/osp-150`).
 * The insert adds the first free suffix (`-2`, `-3`, …) when another course has it
 * (createCourse). Ids never change afterwards: a course keeps its address when its code changes,
 * and courses made before keep theirs.
 */
export function courseSlug(code: string): string {
  const slug = code
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .join('-');
  return slug || 'course';
}

/** How often a create is tried again when a create running beside it took its id first. */
const ID_ATTEMPTS = 10;

/**
 * Runs a transaction that creates a course, again when the course's id was taken by a create
 * that committed meanwhile (PostgreSQL: both chose the same free id; the second insert waited for
 * the first and was refused by the primary key). The next attempt sees that course and takes the
 * next suffix.
 */
async function retryingTakenId<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      if (attempt < ID_ATTEMPTS && isPrimaryKeyViolation(error, 'courses')) continue;
      throw error;
    }
  }
}

/** File owner types of the classroom's course side. */
export const COURSE_COVER = 'course-cover';
export const LESSON = 'lesson';

/** Refuses an end that is not after the start (400, readable). */
function checkDates(startsAt: string | null, endsAt: string | null): void {
  if (startsAt !== null && endsAt !== null && Date.parse(endsAt) <= Date.parse(startsAt)) {
    throw new AppError('VALIDATION_ERROR', COURSE_MESSAGES.endBeforeStart);
  }
}

const iso = (value: string | null | undefined) =>
  value === null || value === undefined ? (value ?? null) : new Date(value).toISOString();

/** The user's unattached upload, ready to become the course's cover (404/409 otherwise). */
async function checkCoverUpload(
  files: FileService,
  userId: string,
  fileId: string,
  courseId: string | null,
): Promise<void> {
  const file = await files.find(fileId);
  if (file && file.ownerType === COURSE_COVER && file.ownerId === courseId) return;
  if (!file || (file.ownerType === null && file.uploadedBy !== userId)) {
    throw new AppError('NOT_FOUND', 'File not found');
  }
  if (file.ownerType !== null) {
    throw new AppError('CONFLICT', 'This file is already attached to something else.');
  }
  if (!file.mime.startsWith('image/') || file.mime === 'image/svg+xml') {
    throw new AppError('VALIDATION_ERROR', 'The cover must be an image (PNG, JPEG, WebP or GIF).');
  }
}

/**
 * Makes the creator of a course its course-instructor (no expiry), with the audit record, in the
 * caller's transaction.
 */
async function makeInstructor(trx: Db, courseId: string, actor: SignedInActor, at: string) {
  await upsertAssignment(trx, {
    userId: actor.id,
    context: courseContext(courseId),
    roles: ['course-instructor'],
    directPermissions: [],
    assignedBy: actor.id,
    assignedAt: at,
    expiresAt: null,
    isActive: true,
  });
  await recordAccessAudit(trx, at, {
    action: 'assignment.create',
    actorId: actor.id,
    actorUsername: actor.username,
    targetUserId: actor.id,
    targetUsername: actor.username,
    context: contextKey(courseContext(courseId)),
    details: { via: 'course', reason: 'creator', roles: ['course-instructor'], expiresAt: null },
    requestId: actor.requestId,
  });
}

/** A new draft course; the creator teaches it. */
export async function createCourseFor(
  db: Db,
  files: FileService,
  input: {
    body: CourseCreate;
    user: Parameters<FileService['attach']>[0];
    actor: SignedInActor;
    now: number;
  },
): Promise<CourseRecord> {
  const { body, user, actor } = input;
  const at = new Date(input.now).toISOString();
  const startsAt = iso(body.startsAt);
  const endsAt = iso(body.endsAt);
  checkDates(startsAt, endsAt);
  const mode = body.enrolmentMode ?? 'open';
  const key = body.enrolmentKey ?? null;
  if (mode === 'key' && !key) throw new AppError('VALIDATION_ERROR', COURSE_MESSAGES.keyNeeded);
  const departmentId = body.departmentId ?? null;
  if (departmentId !== null && !(await departmentExists(db, departmentId))) {
    throw new AppError('VALIDATION_ERROR', COURSE_MESSAGES.noDepartment);
  }
  const cover = body.coverFileId ?? null;
  if (cover) await checkCoverUpload(files, user.id, cover, null);
  const summaryHtml = sanitizeRichText(body.summaryHtml ?? '');
  let id: string;
  try {
    id = await retryingTakenId(() =>
      db.transaction().execute(async (trx) => {
        const made = await createCourse(
          trx,
          courseSlug(body.code),
          {
            code: body.code,
            title: body.title,
            summaryHtml,
            description: richTextToPlainText(summaryHtml).slice(0, 500).trim(),
            departmentId,
            enrolmentMode: mode,
            enrolmentKey: key,
            startsAt,
            endsAt,
            capacity: body.capacity ?? null,
            coverFileId: cover,
            createdBy: user.id,
            state: 'draft',
          },
          at,
        );
        await makeInstructor(trx, made, actor, at);
        return made;
      }),
    );
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('CONFLICT', COURSE_MESSAGES.codeTaken);
    throw error;
  }
  await attachCover(db, files, user, id, cover);
  await files.attachReferenced(user, summaryHtml, { type: COURSE_COVER, id });
  return (await findCourseRecord(db, id)) as CourseRecord;
}

/** Attaches a cover upload; if that fails after all (a lost race), the course has no cover. */
async function attachCover(
  db: Db,
  files: FileService,
  user: Parameters<FileService['attach']>[0],
  courseId: string,
  fileId: string | null,
) {
  if (!fileId) return;
  const file = await files.find(fileId);
  if (file?.ownerType === COURSE_COVER && file.ownerId === courseId) return;
  try {
    await files.attach(user, fileId, { type: COURSE_COVER, id: courseId });
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    await clearCover(db, courseId, fileId);
  }
}

/**
 * The state changes a PATCH may make. A draft is published or deleted, never archived: archiving
 * is how a course that ran leaves the catalogue while its participants keep reading it, and a
 * draft has not run.
 */
const TRANSITIONS: Record<CourseState, readonly CourseState[]> = {
  draft: ['draft', 'published'],
  published: ['published', 'draft', 'archived'],
  archived: ['archived', 'draft', 'published'],
};

/**
 * Changes a course (PATCH). Archived courses take only a state change (restore). Publishing needs
 * a lesson. With `revision`, a course changed since is refused (409); every change bumps it.
 */
export async function updateCourseFor(
  db: Db,
  files: FileService,
  input: {
    course: CourseRecord;
    body: CourseUpdate;
    user: Parameters<FileService['attach']>[0];
    now: number;
  },
): Promise<CourseRecord> {
  const { course, body, user } = input;
  const at = new Date(input.now).toISOString();
  const { revision, state, ...fields } = body;
  const changed = Object.entries(fields).filter(([, v]) => v !== undefined);
  if (course.state === 'archived' && changed.length > 0) {
    throw new AppError('CONFLICT', COURSE_MESSAGES.archived);
  }
  if (revision !== undefined && revision !== course.revision) {
    throw new AppError('CONFLICT', COURSE_MESSAGES.stale);
  }
  if (state === 'archived' && course.state === 'draft') {
    throw new AppError('CONFLICT', COURSE_MESSAGES.draftNotArchived);
  }
  if (state !== undefined && !TRANSITIONS[course.state].includes(state)) {
    throw new AppError('CONFLICT', `A ${course.state} course cannot become ${state}.`);
  }
  const startsAt = fields.startsAt !== undefined ? iso(fields.startsAt) : course.startsAt;
  const endsAt = fields.endsAt !== undefined ? iso(fields.endsAt) : course.endsAt;
  checkDates(startsAt, endsAt);
  const mode = fields.enrolmentMode ?? course.enrolmentMode;
  const key = fields.enrolmentKey !== undefined ? fields.enrolmentKey : course.enrolmentKey;
  if (mode === 'key' && !key) throw new AppError('VALIDATION_ERROR', COURSE_MESSAGES.keyNeeded);
  if (
    fields.departmentId !== undefined &&
    fields.departmentId !== null &&
    !(await departmentExists(db, fields.departmentId))
  ) {
    throw new AppError('VALIDATION_ERROR', COURSE_MESSAGES.noDepartment);
  }
  const newCover =
    fields.coverFileId !== undefined && fields.coverFileId !== course.coverFileId
      ? fields.coverFileId
      : undefined;
  if (newCover) await checkCoverUpload(files, user.id, newCover, course.id);

  const changes: CourseChanges = {
    ...(fields.code !== undefined ? { code: fields.code } : {}),
    ...(fields.title !== undefined ? { title: fields.title } : {}),
    ...(fields.departmentId !== undefined ? { departmentId: fields.departmentId } : {}),
    ...(fields.enrolmentMode !== undefined ? { enrolmentMode: fields.enrolmentMode } : {}),
    ...(fields.enrolmentKey !== undefined ? { enrolmentKey: fields.enrolmentKey } : {}),
    ...(fields.startsAt !== undefined ? { startsAt } : {}),
    ...(fields.endsAt !== undefined ? { endsAt } : {}),
    ...(fields.capacity !== undefined ? { capacity: fields.capacity } : {}),
    ...(newCover !== undefined ? { coverFileId: newCover } : {}),
    ...(state !== undefined ? { state } : {}),
  };
  let summaryHtml: string | undefined;
  if (fields.summaryHtml !== undefined) {
    summaryHtml = sanitizeRichText(fields.summaryHtml);
    changes.summaryHtml = summaryHtml;
    changes.description = richTextToPlainText(summaryHtml).slice(0, 500).trim();
  }
  try {
    await db.transaction().execute(async (trx) => {
      const applied = await updateCourse(
        trx,
        course.id,
        changes,
        { state: course.state, revision },
        at,
      );
      if (!applied) throw new AppError('CONFLICT', COURSE_MESSAGES.stale);
      if (state === 'published' && course.state !== 'published') {
        if ((await countLessons(trx, course.id)) === 0) {
          throw new AppError('CONFLICT', COURSE_MESSAGES.needsLesson);
        }
      }
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('CONFLICT', COURSE_MESSAGES.codeTaken);
    throw error;
  }
  if (newCover !== undefined) {
    await attachCover(db, files, user, course.id, newCover);
    if (course.coverFileId) await files.deleteOwned(course.coverFileId);
  }
  if (summaryHtml !== undefined) {
    await files.attachReferenced(user, summaryHtml, { type: COURSE_COVER, id: course.id });
  }
  return (await findCourseRecord(db, course.id)) as CourseRecord;
}

/** Where the things other areas keep inside a course are found (`app.areas`). */
type CourseContentSource = Pick<AreaRegistry, 'courseContent'>;

/**
 * Every file that belongs to the course and its things: its cover and summary media and its
 * lessons', and the files of what other areas keep inside it (their manifests' `courseContent`:
 * assignments, library items, wiki pages).
 */
async function courseFileIds(
  db: Db,
  files: FileService,
  areas: CourseContentSource,
  courseId: string,
): Promise<string[]> {
  const [lessonIds, others] = await Promise.all([
    listLessonIds(db, { courseId }),
    areas.courseContent(db, courseId),
  ]);
  const owners = [
    { type: COURSE_COVER, id: courseId },
    ...lessonIds.map((id) => ({ type: LESSON, id })),
    ...others,
  ];
  const ids: string[] = [];
  for (const owner of owners) ids.push(...(await files.listOwned(owner)).map((f) => f.id));
  return ids;
}

/**
 * Deletes a course that has no submissions or grades (409 otherwise): under its row lock, the
 * check, every course assignment (each with its audit record) and the row (sections, lessons,
 * progress and assignments go by cascade); then its files.
 */
export async function deleteCourseFully(
  db: Db,
  files: FileService,
  areas: CourseContentSource,
  input: { courseId: string; actor: SignedInActor; now: number },
): Promise<void> {
  const at = new Date(input.now).toISOString();
  const fileIds = await courseFileIds(db, files, areas, input.courseId);
  await db.transaction().execute(async (trx) => {
    const course = await lockCourse(trx, input.courseId);
    if (!course) throw new AppError('NOT_FOUND', 'Course not found');
    if (await hasSubmissionsOrGrades(trx, course.id)) {
      throw new AppError('CONFLICT', COURSE_MESSAGES.hasWork);
    }
    for (const userId of await listCourseAssignmentUsers(trx, course.id)) {
      await deleteAssignment(trx, userId, courseContext(course.id));
      await recordAccessAudit(trx, at, {
        action: 'assignment.remove',
        actorId: input.actor.id,
        actorUsername: input.actor.username,
        targetUserId: userId,
        context: contextKey(courseContext(course.id)),
        details: { via: 'course', reason: 'course deleted' },
        requestId: input.actor.requestId,
      });
    }
    await deleteCourseRow(trx, course.id);
  });
  for (const id of fileIds) await files.deleteOwned(id);
}

/** Replaces file references by their copies. */
function repoint(html: string, copies: ReadonlyMap<string, string>): string {
  return mapFileReferences(html, (path, id) => {
    const copy = copies.get(id);
    return copy ? path.replace(id, copy) : path;
  });
}

/**
 * Copies a course into a new draft (new code and title): its summary, settings, department and
 * enrolment key, sections, lessons and assignments (grades not released; no submissions). The
 * copier teaches the copy. Media are copied too — each file of the source's cover, lessons and
 * assignments becomes a new stored object owned by the copy's thing, and the copy's HTML points
 * at the copies — so the two courses never share a file (deleting one leaves the other whole).
 * References to files owned by anything else are kept as they are.
 */
export async function copyCourseFor(
  db: Db,
  files: FileService,
  input: {
    source: CourseRecord;
    code: string;
    title: string;
    user: Parameters<FileService['attach']>[0];
    actor: SignedInActor;
    now: number;
  },
): Promise<CourseRecord> {
  const { source, actor } = input;
  const at = new Date(input.now).toISOString();
  const [outline, lessons, assignments] = await Promise.all([
    loadOutline(db, source.id),
    listLessonsWithBodies(db, source.id),
    listAssignmentRows(db, source.id),
  ]);
  const sectionIds = new Map(outline.sections.map((s) => [s.id, sortableId()]));
  const lessonIds = new Map(lessons.map((l) => [l.id, sortableId()]));
  const assignmentIds = new Map(assignments.map((a) => [a.id, sortableId()]));
  let id: string;
  try {
    id = await retryingTakenId(() =>
      db.transaction().execute(async (trx) => {
        const made = await createCourse(
          trx,
          courseSlug(input.code),
          {
            code: input.code,
            title: input.title,
            summaryHtml: source.summaryHtml,
            description: source.description,
            departmentId: source.departmentId,
            enrolmentMode: source.enrolmentMode,
            enrolmentKey: source.enrolmentKey,
            startsAt: source.startsAt,
            endsAt: source.endsAt,
            capacity: source.capacity,
            coverFileId: null,
            createdBy: input.user.id,
            state: 'draft',
          },
          at,
        );
        await insertStructure(
          trx,
          outline.sections.map((s) => ({
            id: sectionIds.get(s.id) as string,
            courseId: made,
            title: s.title,
            position: s.position,
          })),
          lessons.map((l) => ({
            ...l,
            id: lessonIds.get(l.id) as string,
            courseId: made,
            sectionId: sectionIds.get(l.sectionId) as string,
          })),
          at,
        );
        await insertAssignmentCopies(
          trx,
          assignments.map((a) => ({
            ...a,
            id: assignmentIds.get(a.id) as string,
            course_id: made,
            created_at: at,
            updated_at: at,
          })),
        );
        await makeInstructor(trx, made, actor, at);
        return made;
      }),
    );
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('CONFLICT', COURSE_MESSAGES.codeTaken);
    throw error;
  }

  // Media: copy each owned file, then point the copy's HTML at the copies.
  const copies = new Map<string, string>();
  const copyAll = async (from: { type: string; id: string }, to: { type: string; id: string }) => {
    for (const file of await files.listOwned(from)) {
      copies.set(file.id, (await files.copyTo(file.id, to, input.user.id)).id);
    }
  };
  await copyAll({ type: COURSE_COVER, id: source.id }, { type: COURSE_COVER, id });
  for (const [from, to] of lessonIds)
    await copyAll({ type: LESSON, id: from }, { type: LESSON, id: to });
  for (const [from, to] of assignmentIds) {
    await copyAll({ type: 'assignment', id: from }, { type: 'assignment', id: to });
  }
  if (copies.size > 0) {
    const cover = source.coverFileId ? (copies.get(source.coverFileId) ?? null) : null;
    await setCoverAndSummary(db, id, cover, repoint(source.summaryHtml, copies));
    for (const l of lessons) {
      const body = repoint(l.bodyHtml, copies);
      if (body !== l.bodyHtml) await setLessonBody(db, lessonIds.get(l.id) as string, body);
    }
    for (const a of assignments) {
      const html = repoint(a.instructions_html, copies);
      if (html !== a.instructions_html) {
        await setAssignmentInstructions(db, assignmentIds.get(a.id) as string, html);
      }
    }
  }
  return (await findCourseRecord(db, id)) as CourseRecord;
}
