import type { Kysely } from 'kysely';

/**
 * A revision on the other things two people may edit at once: library items, lessons, departments
 * and assignments (courses have had one since 0006). A change sends the revision it read and
 * applies only while the row is still at it, bumping it by one in the same conditional UPDATE
 * (docs/architecture.md, "Two people editing at once"). Existing rows start at 1, as new ones do.
 */
const TABLES = ['library_items', 'lessons', 'departments', 'assignments'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of TABLES) {
    await db.schema
      .alterTable(table)
      .addColumn('revision', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of TABLES) {
    await db.schema.alterTable(table).dropColumn('revision').execute();
  }
}
