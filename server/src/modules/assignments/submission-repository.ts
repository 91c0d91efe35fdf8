/**
 * All SQL about submissions: one row per handed-in attempt (1, 2, …) and one draft per learner
 * and assignment (attempt 0) that handing in turns into the next attempt. See docs/classroom.md.
 */
import { sql, type Selectable } from 'kysely';
import type { Db } from '../../platform/db';
import { isUniqueViolation } from '../../platform/db/errors';
import type { SubmissionsTable } from '../../platform/db/schema';
import { sortableId } from '../../platform/ids';
import { displayName } from '../../platform/auth/display-name';

export interface SubmissionRecord {
  id: string;
  assignmentId: string;
  courseId: string;
  userId: string;
  /** "First Last" of the learner. */
  userName: string;
  /** 0 for the draft. */
  attempt: number;
  status: 'draft' | 'submitted';
  textHtml: string;
  submittedAt: string | null;
  late: boolean;
  createdAt: string;
  updatedAt: string;
}

type Row = Selectable<SubmissionsTable> & { firstname: string; lastname: string; username: string };

function toRecord(row: Row): SubmissionRecord {
  return {
    id: row.id,
    assignmentId: row.assignment_id,
    courseId: row.course_id,
    userId: row.user_id,
    userName: displayName(row),
    attempt: Number(row.attempt),
    status: row.status === 'draft' ? 'draft' : 'submitted',
    textHtml: row.text_html,
    submittedAt: row.submitted_at,
    late: Number(row.is_late) === 1,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function submissionQuery(db: Db) {
  return db
    .selectFrom('submissions')
    .innerJoin('users', 'users.id', 'submissions.user_id')
    .selectAll('submissions')
    .select(['users.firstname', 'users.lastname', 'users.username']);
}

export async function findSubmission(db: Db, id: string): Promise<SubmissionRecord | null> {
  const row = await submissionQuery(db).where('submissions.id', '=', id).executeTakeFirst();
  return row ? toRecord(row) : null;
}

export async function findDraft(
  db: Db,
  assignmentId: string,
  userId: string,
): Promise<SubmissionRecord | null> {
  const row = await submissionQuery(db)
    .where('submissions.assignment_id', '=', assignmentId)
    .where('submissions.user_id', '=', userId)
    .where('submissions.attempt', '=', 0)
    .executeTakeFirst();
  return row ? toRecord(row) : null;
}

/** How many attempts the learner has handed in. */
export async function attemptsUsed(db: Db, assignmentId: string, userId: string): Promise<number> {
  const row = await db
    .selectFrom('submissions')
    .select(sql<number | string>`coalesce(max(attempt), 0)`.as('m'))
    .where('assignment_id', '=', assignmentId)
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.m);
}

export interface SubmissionKeys {
  assignmentId: string;
  courseId: string;
  userId: string;
}

/**
 * Saves the learner's draft: updates the attempt-0 row, or creates it. `textHtml` undefined keeps
 * the text. Two first saves at once: one inserts, the other's insert meets the unique key and
 * updates instead.
 */
export async function saveDraft(
  db: Db,
  keys: SubmissionKeys,
  textHtml: string | undefined,
  at: string,
): Promise<SubmissionRecord> {
  const update = () =>
    db
      .updateTable('submissions')
      .set({ updated_at: at, ...(textHtml === undefined ? {} : { text_html: textHtml }) })
      .where('assignment_id', '=', keys.assignmentId)
      .where('user_id', '=', keys.userId)
      .where('attempt', '=', 0)
      .executeTakeFirst();
  let updated = Number((await update()).numUpdatedRows) === 1;
  if (!updated) {
    try {
      await db
        .insertInto('submissions')
        .values({
          id: sortableId(),
          assignment_id: keys.assignmentId,
          course_id: keys.courseId,
          user_id: keys.userId,
          attempt: 0,
          status: 'draft',
          text_html: textHtml ?? '',
          submitted_at: null,
          is_late: 0,
          created_at: at,
          updated_at: at,
        })
        .execute();
      updated = true;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      updated = Number((await update()).numUpdatedRows) === 1;
    }
  }
  const draft = await findDraft(db, keys.assignmentId, keys.userId);
  if (!draft || !updated) throw new Error('the draft could not be saved');
  return draft;
}

/** What the hand-in rule sees of the attempt about to be made, inside the transaction. */
export interface HandInState {
  draftId: string;
  /** The number the attempt gets: the highest so far + 1. */
  attempt: number;
  textHtml: string;
  /** The files attached to the draft (attachments and the pictures its text shows). */
  fileIds: string[];
}

/**
 * Hands the learner's draft in as the next attempt, atomically: the transaction first writes the
 * learner's draft row (taking its lock, or the database's write lock on SQLite; a missing draft
 * is created), then counts the attempts so far, lets `decide` refuse (by throwing) or say whether
 * the attempt is late, and turns the draft into the attempt. Of two hand-ins at once, the second
 * waits for the first and then sees its attempt; the unique (assignment, user, attempt) key is
 * the backstop (its violation propagates for the caller to answer).
 */
export async function handIn(
  db: Db,
  keys: SubmissionKeys,
  at: string,
  decide: (state: HandInState) => { late: boolean },
): Promise<string> {
  return db.transaction().execute(async (trx) => {
    const touched = await trx
      .updateTable('submissions')
      .set({ updated_at: at })
      .where('assignment_id', '=', keys.assignmentId)
      .where('user_id', '=', keys.userId)
      .where('attempt', '=', 0)
      .executeTakeFirst();
    if (Number(touched.numUpdatedRows) === 0) {
      await trx
        .insertInto('submissions')
        .values({
          id: sortableId(),
          assignment_id: keys.assignmentId,
          course_id: keys.courseId,
          user_id: keys.userId,
          attempt: 0,
          status: 'draft',
          text_html: '',
          submitted_at: null,
          is_late: 0,
          created_at: at,
          updated_at: at,
        })
        .execute();
    }
    const draft = await trx
      .selectFrom('submissions')
      .select(['id', 'text_html'])
      .where('assignment_id', '=', keys.assignmentId)
      .where('user_id', '=', keys.userId)
      .where('attempt', '=', 0)
      .executeTakeFirstOrThrow();
    const highest = await trx
      .selectFrom('submissions')
      .select(sql<number | string>`coalesce(max(attempt), 0)`.as('m'))
      .where('assignment_id', '=', keys.assignmentId)
      .where('user_id', '=', keys.userId)
      .executeTakeFirstOrThrow();
    const files = await trx
      .selectFrom('files')
      .select('id')
      .where('owner_type', '=', 'submission')
      .where('owner_id', '=', draft.id)
      .execute();
    const attempt = Number(highest.m) + 1;
    const { late } = decide({
      draftId: draft.id,
      attempt,
      textHtml: draft.text_html,
      fileIds: files.map((f) => f.id),
    });
    await trx
      .updateTable('submissions')
      .set({
        attempt,
        status: 'submitted',
        submitted_at: at,
        is_late: late ? 1 : 0,
        updated_at: at,
      })
      .where('id', '=', draft.id)
      .where('attempt', '=', 0)
      .execute();
    return draft.id;
  });
}

/**
 * Submissions of one assignment: handed-in attempts (newest attempt first per learner, learners
 * by name), optionally one learner's, optionally only each learner's latest; `withDraftOf` adds
 * that learner's draft (a learner looking at their own work).
 */
export async function listSubmissions(
  db: Db,
  filter: { assignmentId: string; userId?: string; latest: boolean; withDraftOf?: string },
): Promise<SubmissionRecord[]> {
  let query = submissionQuery(db).where('submissions.assignment_id', '=', filter.assignmentId);
  if (filter.userId) query = query.where('submissions.user_id', '=', filter.userId);
  query = query.where((eb) =>
    filter.withDraftOf
      ? eb.or([
          eb('submissions.status', '=', 'submitted'),
          eb('submissions.user_id', '=', filter.withDraftOf),
        ])
      : eb('submissions.status', '=', 'submitted'),
  );
  if (filter.latest) {
    query = query.where(({ eb, selectFrom, or }) =>
      or([
        eb('submissions.status', '=', 'draft'),
        eb(
          'submissions.attempt',
          '=',
          selectFrom('submissions as s2')
            .select((e) => e.fn.max('s2.attempt').as('m'))
            .whereRef('s2.assignment_id', '=', 'submissions.assignment_id')
            .whereRef('s2.user_id', '=', 'submissions.user_id'),
        ),
      ]),
    );
  }
  const rows = await query
    .orderBy('users.lastname')
    .orderBy('users.firstname')
    .orderBy('submissions.user_id')
    // The draft (attempt 0) first, then the newest attempt.
    .orderBy(sql`case when submissions.attempt = 0 then 0 else 1 end`)
    .orderBy('submissions.attempt', 'desc')
    .execute();
  return rows.map(toRecord);
}

/** A stored file as a submission or an assignment lists it. */
export interface OwnedFile {
  id: string;
  ownerId: string;
  name: string;
  mime: string;
  size: number;
  hasThumbnail: boolean;
}

/**
 * The files of many things of one owner type at once, oldest first (read-only; attaching and
 * deleting go through the FileService).
 */
export async function listFilesOfOwners(
  db: Db,
  ownerType: string,
  ownerIds: readonly string[],
): Promise<Map<string, OwnedFile[]>> {
  const out = new Map<string, OwnedFile[]>();
  if (ownerIds.length === 0) return out;
  const rows = await db
    .selectFrom('files')
    .select(['id', 'owner_id', 'original_name', 'mime', 'size', 'thumbnail_key'])
    .where('owner_type', '=', ownerType)
    .where('owner_id', 'in', [...new Set(ownerIds)])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  for (const r of rows) {
    const ownerId = r.owner_id as string;
    const list = out.get(ownerId) ?? [];
    list.push({
      id: r.id,
      ownerId,
      name: r.original_name,
      mime: r.mime,
      size: Number(r.size),
      hasThumbnail: r.thumbnail_key !== null,
    });
    out.set(ownerId, list);
  }
  return out;
}
