/**
 * Knows when tables may have changed, so caches of data read from them can be dropped the moment
 * they could be stale. Every write through this process's Kysely instance is seen by a Kysely
 * plugin (before and after it runs); writes by other processes on the same SQLite file (the admin
 * command line) show up in `PRAGMA data_version`.
 *
 * On PostgreSQL other server instances write too and nothing here would see it, so the tracker
 * reports `null` there and callers must not cache. (Cross-instance invalidation comes with the
 * permission cache.)
 */
import type {
  KyselyPlugin,
  OperationNode,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';

export interface ChangeTracker {
  /**
   * A number that changes whenever any of `tables` may have changed (or another process wrote to
   * the database), or null when changes cannot be observed and nothing may be cached.
   */
  version(tables: readonly string[]): number | null;
}

/** Writes that change no cached meaning: a session's last-used time (touched once a minute). */
const IGNORED_UPDATES: Readonly<Record<string, ReadonlySet<string>>> = {
  sessions: new Set(['last_used_at']),
};

type Node = OperationNode & Record<string, unknown>;

function tableName(node: unknown): string | null {
  const n = node as Node | undefined;
  if (!n) return null;
  if (n.kind === 'TableNode') {
    return ((n.table as Node).identifier as { name: string }).name;
  }
  if (n.kind === 'AliasNode') return tableName(n.node);
  return null;
}

/** The start of raw SQL that writes one table: `insert into t`, `update t`, `delete from t`. */
const RAW_WRITE =
  /^\s*(insert\s+(?:or\s+\w+\s+)?into|update(?:\s+or\s+\w+)?|delete\s+from)\s+"?([a-z_][a-z0-9_]*)"?[\s(]/i;

/** The tables a query writes to, '*' for writes whose target cannot be told (other raw SQL, DDL). */
export function writtenTables(node: RootOperationNode): string[] {
  const n = node as unknown as Node;
  switch (n.kind) {
    case 'SelectQueryNode':
      return [];
    case 'InsertQueryNode':
    case 'MergeQueryNode':
      return [tableName(n.into)].filter((t): t is string => t !== null);
    case 'UpdateQueryNode': {
      const table = tableName(n.table);
      if (!table) return ['*'];
      const ignored = IGNORED_UPDATES[table];
      const columns = ((n.updates as Node[] | undefined) ?? []).map(
        (u) => ((u.column as Node).column as { name: string }).name,
      );
      if (ignored && columns.length > 0 && columns.every((c) => ignored.has(c))) return [];
      return [table];
    }
    case 'DeleteQueryNode':
      return (((n.from as Node | undefined)?.froms as unknown[] | undefined) ?? [])
        .map(tableName)
        .filter((t): t is string => t !== null);
    case 'RawNode': {
      const text = ((n.sqlFragments as string[] | undefined) ?? []).join(' ');
      if (/^\s*(select|with|pragma|explain)\b/i.test(text)) return [];
      // One insert, update or delete names its table, as the query builder's do (the search
      // index's upsert on SQLite is raw SQL, and runs in every save of what it indexes).
      const target = RAW_WRITE.exec(text);
      return target && !text.includes(';') ? [target[2] as string] : ['*'];
    }
    default:
      // Schema changes (CREATE/ALTER/DROP …) and anything unknown: assume everything changed.
      return ['*'];
  }
}

/**
 * How often, at most, SQLite is asked whether another process wrote. Reading PRAGMA data_version
 * takes a shared lock on the WAL index and cost a fifth of the authenticated request path when
 * read on every request; once a millisecond it is free, and another process's change (the admin
 * command line revoking sessions) is seen by every request that starts a millisecond later.
 */
export const EXTERNAL_CHECK_INTERVAL_MS = 1;

export class WriteTracker implements ChangeTracker {
  private readonly counters = new Map<string, number>();
  private everything = 0;
  private externalVersion: number | null = null;
  private externalCheckedAt = -Infinity;

  /** `dataVersion` reads SQLite's PRAGMA data_version (changes when another connection wrote). */
  constructor(
    private readonly dataVersion?: () => number,
    private readonly clock: () => number = () => performance.now(),
  ) {}

  noteWrite(tables: readonly string[]): void {
    for (const table of tables) {
      if (table === '*') this.everything += 1;
      else this.counters.set(table, (this.counters.get(table) ?? 0) + 1);
    }
  }

  version(tables: readonly string[]): number {
    const at = this.dataVersion ? this.clock() : 0;
    if (this.dataVersion && at - this.externalCheckedAt >= EXTERNAL_CHECK_INTERVAL_MS) {
      this.externalCheckedAt = at;
      const external = this.dataVersion();
      if (external !== this.externalVersion) {
        this.externalVersion = external;
        this.everything += 1;
      }
    }
    let sum = this.everything;
    for (const table of tables) sum += this.counters.get(table) ?? 0;
    return sum;
  }

  /** The Kysely plugin that reports every write, before it runs and after it ran. */
  plugin(): KyselyPlugin {
    const pending = new WeakMap<object, string[]>();
    return {
      transformQuery: (args: PluginTransformQueryArgs): RootOperationNode => {
        const tables = writtenTables(args.node);
        if (tables.length > 0) {
          this.noteWrite(tables);
          pending.set(args.queryId, tables);
        }
        return args.node;
      },
      transformResult: async (
        args: PluginTransformResultArgs,
      ): Promise<QueryResult<UnknownRow>> => {
        const tables = pending.get(args.queryId);
        if (tables) this.noteWrite(tables);
        return args.result;
      },
    };
  }
}
