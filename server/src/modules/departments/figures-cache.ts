/**
 * Figures of the department pages that are costly to count — the members' progress in the
 * department's courses reads every enrolment of its members — kept while nothing they are read
 * from has changed, as the session cache does (db/change-tracker.ts): only where changes can be
 * observed (SQLite: every write of this process and any other's), never on PostgreSQL, where
 * other instances write unseen. An entry also ends `ttlMs` after it was counted (by the app's
 * clock), because an assignment that reaches its end date changes the figures without a write.
 * Requests that ask at the same time share one count.
 */
import type { ChangeTracker } from '../../platform/db/change-tracker';

interface Entry<T> {
  version: number;
  countedAt: number;
  value: Promise<T>;
}

export class FiguresCache<T> {
  private readonly entries = new Map<string, Entry<T>>();

  constructor(
    private readonly changes: ChangeTracker | null,
    /** The tables the figures are read from. */
    private readonly tables: readonly string[],
    private readonly now: () => number,
    private readonly ttlMs = 2_000,
    private readonly capacity = 500,
  ) {}

  /** The figures of `key`, counted by `count` unless still known. */
  get(key: string, count: () => Promise<T>): Promise<T> {
    const version = this.changes?.version(this.tables) ?? null;
    if (version === null) return count();
    const at = this.now();
    const known = this.entries.get(key);
    if (
      known &&
      known.version === version &&
      at - known.countedAt < this.ttlMs &&
      at >= known.countedAt
    ) {
      return known.value;
    }
    const value = count();
    const entry: Entry<T> = { version, countedAt: at, value };
    this.entries.delete(key);
    this.entries.set(key, entry);
    // A failed count is not kept.
    value.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    while (this.entries.size > this.capacity) {
      this.entries.delete(this.entries.keys().next().value as string);
    }
    return value;
  }
}
