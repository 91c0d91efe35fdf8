/**
 * The PostgreSQL test databases are reused (template-database.ts): a copy a test is done with is
 * put back as the template was and handed to the next test. What a test wrote, a queue pg-boss
 * made and a changed schema must never reach the next test.
 */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createTestDatabase, TEST_DB_KIND, testDatabaseAvailable } from './helpers';

const available = TEST_DB_KIND === 'postgres' && (await testDatabaseAvailable());

const nameOf = (location: { kind: string; url?: string }) =>
  location.kind === 'postgres' ? new URL(location.url!).pathname : '';

describe.skipIf(!available)('test databases on PostgreSQL', () => {
  it('hands a used copy to the next test as the template was: no rows, no queues', async () => {
    const first = await createTestDatabase();
    const secretsBefore = await first.db.selectFrom('app_secrets').selectAll().execute();
    await first.db
      .insertInto('system_settings')
      .values({
        key: 'left-over',
        value: '{}',
        updated_at: '2026-11-29T00:00:00Z',
        updated_by: null,
      })
      .execute();
    await first.db.deleteFrom('app_secrets').execute();
    await sql`select pgboss.create_queue('left-over', '{"policy":"standard"}'::jsonb)`.execute(
      first.db,
    );
    await first.close();

    // The worker may hold other copies ready (its earlier files' tests): take copies until the
    // used one comes back, keeping the others out of the way meanwhile.
    const others: Awaited<ReturnType<typeof createTestDatabase>>[] = [];
    let second = await createTestDatabase();
    while (nameOf(second.location) !== nameOf(first.location) && others.length < 10) {
      others.push(second);
      second = await createTestDatabase();
    }
    try {
      expect(nameOf(second.location)).toBe(nameOf(first.location));
      expect(await second.db.selectFrom('system_settings').selectAll().execute()).toEqual([]);
      expect(await second.db.selectFrom('app_secrets').selectAll().execute()).toEqual(
        secretsBefore,
      );
      const { rows } = await sql<{
        n: number;
      }>`select count(*)::int as n from pgboss.queue`.execute(second.db);
      expect(rows[0]?.n).toBe(0);
    } finally {
      await second.close();
      for (const other of others) await other.close();
    }
  });

  it('drops a copy whose schema a test changed, and makes a fresh one', async () => {
    const first = await createTestDatabase();
    await sql`create table left_behind (id int)`.execute(first.db);
    await first.close();

    const second = await createTestDatabase();
    try {
      expect(nameOf(second.location)).not.toBe(nameOf(first.location));
      const { rows } = await sql<{ n: number }>`
        select count(*)::int as n from pg_class where relname = 'left_behind'`.execute(second.db);
      expect(rows[0]?.n).toBe(0);
      // And the changed copy itself is gone (dropped once its reset refused it).
      const usedName = nameOf(first.location).slice(1);
      let left = 1;
      for (let tries = 0; left > 0 && tries < 100; tries += 1) {
        const found = await sql<{ n: number }>`
          select count(*)::int as n from pg_database where datname = ${usedName}`.execute(
          second.db,
        );
        left = found.rows[0]?.n ?? 0;
        if (left > 0) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(left).toBe(0);
    } finally {
      await second.close();
    }
  });
});
