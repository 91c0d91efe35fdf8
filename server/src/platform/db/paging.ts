/**
 * The one way a repository pages a list (docs/architecture.md, "Paging in SQL"): the ids of one
 * page in the list's order with the total, then the page's rows hydrated by id in that order.
 *
 * The total comes one of two ways, chosen per list by measurement:
 * - `window`: the page and the total in one pass (`count(*) over ()`); only a page past the end
 *   needs a second query. For lists whose order no index serves (they sort every match anyway).
 * - `after`: the page first, read in the order an index serves, then the total counted over an
 *   index, only when the page does not tell it (a short page at the end tells it). Cheaper where
 *   the window would read and sort every visible row (the library and the wiki, bench:library).
 */
import { sql, type Expression, type SelectQueryBuilder } from 'kysely';

/** One key of a list's order: a column (as the query names it) or an expression. */
export interface OrderKey {
  by: string | Expression<unknown>;
  direction: 'asc' | 'desc';
}

export interface PageQuery {
  /** The id column, as the query names it (`i.id`); the ids the page answers. */
  id: string;
  /** The order, first key first; end it with the id so every order is total. */
  orderBy: readonly OrderKey[];
  offset: number;
  limit: number;
  total: 'window' | 'after';
}

const expressionOf = (key: OrderKey): Expression<unknown> =>
  typeof key.by === 'string' ? sql.ref(key.by) : key.by;

/** The ids of one page of `base` (its tables and conditions, nothing selected) and the total. */
export async function pageOfIds<DB, TB extends keyof DB, O>(
  base: SelectQueryBuilder<DB, TB, O>,
  query: PageQuery,
): Promise<{ ids: string[]; total: number }> {
  let page = base.select(sql.ref<string>(query.id).as('page_id'));
  if (query.total === 'window')
    page = page.select(sql<number | string>`count(*) over ()`.as('page_total'));
  for (const key of query.orderBy) page = page.orderBy(expressionOf(key), key.direction);
  const rows = (await page.limit(query.limit).offset(query.offset).execute()) as unknown as {
    page_id: string;
    page_total?: number | string;
  }[];
  const ids = rows.map((r) => r.page_id);
  const told =
    query.total === 'window'
      ? rows.length > 0
      : rows.length < query.limit && (rows.length > 0 || query.offset === 0);
  if (told) {
    const total =
      query.total === 'window' ? Number(rows[0]?.page_total) : query.offset + rows.length;
    return { ids, total };
  }
  const counted = (await base
    .select(sql<number | string>`count(*)`.as('page_total'))
    .executeTakeFirstOrThrow()) as unknown as { page_total: number | string };
  return { ids, total: Number(counted.page_total) };
}

/** A page of rows: `pageOfIds`, then `hydrate` reads those rows, answered in the page's order. */
export async function listPage<DB, TB extends keyof DB, O, R>(
  base: SelectQueryBuilder<DB, TB, O>,
  query: PageQuery,
  hydrate: (ids: string[]) => Promise<readonly R[]>,
  idOf: (row: R) => string,
): Promise<{ rows: R[]; total: number }> {
  const { ids, total } = await pageOfIds(base, query);
  if (ids.length === 0) return { rows: [], total };
  const byId = new Map((await hydrate(ids)).map((row) => [idOf(row), row]));
  return { rows: ids.flatMap((id) => byId.get(id) ?? []), total };
}
