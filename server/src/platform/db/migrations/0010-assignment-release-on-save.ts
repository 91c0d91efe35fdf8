import type { Kysely } from 'kysely';

/**
 * An assignment can release its grades as they are saved (`release_on_save`): a grade saved for
 * it (graded or overridden) sets `grades_released` in the same transaction
 * (server/src/modules/assignments/grade-repository.ts). Existing assignments keep releasing by hand (0).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('assignments')
    .addColumn('release_on_save', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('assignments').dropColumn('release_on_save').execute();
}
