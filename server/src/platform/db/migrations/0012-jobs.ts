import { sql, type Kysely } from 'kysely';

/**
 * Background jobs on the embedded SQLite database (server/src/platform/jobs/, docs/jobs.md): one row per
 * job, claimed by a conditional update, so a job sent inside a transaction exists only if that
 * transaction commits. On PostgreSQL pg-boss keeps the queue in its own schema (`pgboss`) and
 * this table stays empty; it is created there too so that both databases have one schema.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', (c) => c.notNull())
    .addColumn('singleton_key', 'text')
    .addColumn('start_after', 'text', (c) => c.notNull())
    .addColumn('locked_until', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text')
    .addColumn('completed_at', 'text')
    .addColumn('last_error', 'text')
    .execute();
  // What a worker looks for: runnable jobs in order, and active ones whose lock ran out.
  await db.schema
    .createIndex('jobs_runnable_idx')
    .on('jobs')
    .columns(['state', 'start_after'])
    .execute();
  // The admin list, newest first, by state.
  await db.schema.createIndex('jobs_created_idx').on('jobs').columns(['created_at']).execute();
  // At most one waiting job per name and singleton key.
  await db.schema
    .createIndex('jobs_singleton_idx')
    .on('jobs')
    .columns(['name', 'singleton_key'])
    .unique()
    .where(sql<boolean>`singleton_key is not null and state in ('created', 'retry')`)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('jobs').execute();
}
