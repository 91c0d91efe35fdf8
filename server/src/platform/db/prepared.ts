/**
 * Queries built and compiled once per database, then run with new string arguments. For hot
 * paths (every authenticated request resolves its session) where building a query with Kysely
 * costs several times more than running it. The query is still written with Kysely, typed, and
 * its parameters stay bound parameters.
 */
import type { Compilable, CompiledQuery } from 'kysely';
import type { Db } from '.';

type Slot = { arg: number } | { value: unknown };

export interface PreparedQuery<Row, Args extends string[]> {
  execute(db: Db, ...args: Args): Promise<Row[]>;
}

const marker = (i: number) => `\u0000lh-prepared-arg-${i}\u0000`;

export function prepareQuery<Row, Args extends string[]>(
  arity: Args['length'],
  build: (db: Db, ...args: Args) => Compilable<Row>,
): PreparedQuery<Row, Args> {
  const compiled = new WeakMap<Db, { query: CompiledQuery<Row>; slots: Slot[] }>();
  return {
    execute(db, ...args) {
      let entry = compiled.get(db);
      if (!entry) {
        const markers = Array.from({ length: arity }, (_, i) => marker(i)) as Args;
        const query = build(db, ...markers).compile();
        const slots: Slot[] = query.parameters.map((value) => {
          const arg = markers.indexOf(value as string);
          return arg >= 0 ? { arg } : { value };
        });
        entry = { query, slots };
        compiled.set(db, entry);
      }
      const parameters = entry.slots.map((s) => ('arg' in s ? args[s.arg] : s.value));
      return db.executeQuery<Row>({ ...entry.query, parameters }).then((result) => result.rows);
    },
  };
}
