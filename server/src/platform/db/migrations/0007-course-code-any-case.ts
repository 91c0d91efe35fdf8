import { sql, type Kysely } from 'kysely';

/**
 * Course codes are unique whatever their case (`FO-201` and `fo-201` are one code), by a unique
 * index on `lower(code)`. Codes that differ only in case before this migration keep the first
 * (the oldest course) as it is; each later one gets `-2`, `-3`, … so that the index can be made.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { rows } = await sql<{ id: string; code: string }>`
    select id, code from courses order by created_at, id
  `.execute(db);
  const taken = new Set(rows.map((r) => r.code.toLowerCase()));
  const seen = new Set<string>();
  for (const { id, code } of rows) {
    const key = code.toLowerCase();
    if (!seen.has(key)) {
      seen.add(key);
      continue;
    }
    let n = 2;
    while (taken.has(`${key}-${n}`)) n += 1;
    const renamed = `${code}-${n}`;
    taken.add(renamed.toLowerCase());
    await sql`update courses set code = ${renamed} where id = ${id}`.execute(db);
  }
  await db.schema
    .createIndex('courses_code_any_case')
    .on('courses')
    .unique()
    .expression(sql`lower(code)`)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('courses_code_any_case').execute();
}
