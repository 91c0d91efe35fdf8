import type { Kysely } from 'kysely';

/**
 * A learner whom the course's staff removed, or whose enrolment they gave an end, does not enrol
 * themselves again: one row per (course, user) until the staff enrol them again
 * (server/src/modules/courses/enrolment-service.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('course_enrolment_blocks')
    .addColumn('course_id', 'text', (c) => c.notNull().references('courses.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('blocked_by', 'text', (c) => c.notNull())
    .addColumn('blocked_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('course_enrolment_blocks_pk', ['course_id', 'user_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('course_enrolment_blocks').execute();
}
