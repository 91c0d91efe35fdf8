import type { Kysely } from 'kysely';

/**
 * The home page's "Recent hand-ins" of someone who teaches: the newest hand-ins of their courses
 * (listRecentHandIns in server/src/modules/courses/overview-repository.ts), read by course and time
 * instead of sorting every submission of the courses.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('submissions_course_submitted_idx')
    .on('submissions')
    .columns(['course_id', 'submitted_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('submissions_course_submitted_idx').execute();
}
