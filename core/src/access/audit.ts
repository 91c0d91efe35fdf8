/**
 * The in-memory audit log of permission checks (spec §3, §6, §9): the last 1000 checks, newest
 * first in views; user views default to 50 entries, all-logs views to 100.
 *
 * Every check is recorded, so recording must cost next to nothing: the ring keeps columns of
 * primitives (no object per check, no timestamp formatting, no reason string for the common
 * denial) and builds the spec's entries only when someone reads them.
 */
import { AUDIT_ALL_VIEW_DEFAULT, AUDIT_LOG_CAPACITY, AUDIT_USER_VIEW_DEFAULT } from '../constants';

/** The Audit log entry of spec §3. */
export interface AuditLogEntry {
  id: string;
  userId: string;
  action: 'checked';
  permission: string;
  /** Context key (`system`, `course:42`, `any`, …). */
  context: string;
  /** ISO 8601. */
  timestamp: string;
  result: boolean;
  reason: string | null;
}

/** How a denial's reason is stored: the two common ones as codes, anything else as text. */
export const REASON = { none: 0, missing: 1, invalid: 2, text: 3 } as const;
type ReasonCode = (typeof REASON)[keyof typeof REASON];

export class AuditRing {
  private readonly userIds: string[];
  private readonly permissions: string[];
  private readonly contexts: string[];
  private readonly times: Float64Array;
  private readonly results: Uint8Array;
  private readonly reasonCodes: Uint8Array;
  /** Read only where the code is `text`, so other checks need not clear their slot. */
  private readonly reasonTexts: (string | null)[];
  private next = 0;
  private count = 0;
  private seq = 0;

  constructor(readonly capacity: number = AUDIT_LOG_CAPACITY) {
    this.userIds = new Array<string>(capacity).fill('');
    this.permissions = new Array<string>(capacity).fill('');
    this.contexts = new Array<string>(capacity).fill('');
    this.times = new Float64Array(capacity);
    this.results = new Uint8Array(capacity);
    this.reasonCodes = new Uint8Array(capacity);
    this.reasonTexts = new Array<string | null>(capacity).fill(null);
  }

  /** Records one check in O(1) without allocating. */
  recordCheck(
    userId: string,
    permission: string,
    context: string,
    at: number,
    allowed: boolean,
    reasonCode: ReasonCode,
    reasonText: string | null = null,
  ): void {
    const i = this.next;
    this.userIds[i] = userId;
    this.permissions[i] = permission;
    this.contexts[i] = context;
    this.times[i] = at;
    this.results[i] = allowed ? 1 : 0;
    this.reasonCodes[i] = reasonCode;
    if (reasonCode === REASON.text) this.reasonTexts[i] = reasonText;
    // Entry ids follow from this count (the k-th newest is seq - k + 1): no column to store.
    this.seq += 1;
    this.next = i + 1 === this.capacity ? 0 : i + 1;
    if (this.count < this.capacity) this.count += 1;
  }

  /** Records one check given as an entry (its `reason` kept as text). */
  record(entry: Omit<AuditLogEntry, 'id' | 'action'>): void {
    this.recordCheck(
      entry.userId,
      entry.permission,
      entry.context,
      Date.parse(entry.timestamp),
      entry.result,
      entry.reason === null ? REASON.none : REASON.text,
      entry.reason,
    );
  }

  /** Number of entries kept (at most the capacity). */
  get size(): number {
    return this.count;
  }

  private reasonAt(i: number): string | null {
    switch (this.reasonCodes[i]) {
      case REASON.missing:
        return `Missing required permission: ${this.permissions[i]}`;
      case REASON.invalid:
        return `Invalid permission: ${this.permissions[i]}`;
      case REASON.text:
        return this.reasonTexts[i] ?? null;
      default:
        return null;
    }
  }

  /** Newest first; a user's view defaults to 50 entries, the all-logs view to 100. */
  list(filter: { userId?: string; limit?: number; offset?: number } = {}): AuditLogEntry[] {
    const limit =
      filter.limit ?? (filter.userId ? AUDIT_USER_VIEW_DEFAULT : AUDIT_ALL_VIEW_DEFAULT);
    let skip = filter.offset ?? 0;
    const out: AuditLogEntry[] = [];
    for (let k = 1; k <= this.count && out.length < limit; k++) {
      const i = (this.next - k + this.capacity) % this.capacity;
      if (filter.userId && this.userIds[i] !== filter.userId) continue;
      if (skip > 0) {
        skip -= 1;
        continue;
      }
      out.push({
        id: `chk-${this.seq - k + 1}`,
        userId: this.userIds[i] as string,
        action: 'checked',
        permission: this.permissions[i] as string,
        context: this.contexts[i] as string,
        timestamp: new Date(this.times[i] as number).toISOString(),
        result: this.results[i] === 1,
        reason: this.reasonAt(i),
      });
    }
    return out;
  }

  /** How many kept entries match (for paging). */
  countMatching(userId?: string): number {
    if (!userId) return this.count;
    let n = 0;
    for (let k = 1; k <= this.count; k++) {
      if (this.userIds[(this.next - k + this.capacity) % this.capacity] === userId) n += 1;
    }
    return n;
  }

  clear(): void {
    this.next = 0;
    this.count = 0;
    this.reasonTexts.fill(null);
  }
}
