/**
 * The in-memory audit log of permission checks (spec §3, §6, §9): the last 1000 checks, newest
 * first in views; user views default to 50 entries, all-logs views to 100.
 *
 * Every check is recorded, so recording must cost next to nothing: the ring keeps columns of
 * primitives (no object per check, no timestamp formatting, no reason string for the common
 * denial) and builds the spec's entries only when someone reads them. A record is five stores:
 * the three strings side by side in one array, the time, and one byte for result and reason.
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

/** Slot i's user id, permission and context sit at STRIDE * i + USER, + PERMISSION, + CONTEXT. */
const STRIDE = 3;
const USER = 0;
const PERMISSION = 1;
const CONTEXT = 2;

export class AuditRing {
  private readonly strings: string[];
  private readonly times: Float64Array;
  /** Result in the lowest bit (1 allowed), the reason code above it. */
  private readonly outcomes: Uint8Array;
  /** Read only where the code is `text`, so other checks need not clear their slot. */
  private readonly reasonTexts: (string | null)[];
  private next = 0;
  /** Checks recorded since the ring was made; the entry ids follow from it. */
  private seq = 0;
  /** `seq` when the ring was last cleared: the ring holds min(seq - base, capacity) entries. */
  private base = 0;

  constructor(readonly capacity: number = AUDIT_LOG_CAPACITY) {
    this.strings = new Array<string>(STRIDE * capacity).fill('');
    this.times = new Float64Array(capacity);
    this.outcomes = new Uint8Array(capacity);
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
    const s = STRIDE * i;
    const strings = this.strings;
    strings[s + USER] = userId;
    strings[s + PERMISSION] = permission;
    strings[s + CONTEXT] = context;
    this.times[i] = at;
    this.outcomes[i] = (reasonCode << 1) | (allowed ? 1 : 0);
    if (reasonCode === REASON.text) this.reasonTexts[i] = reasonText;
    // Entry ids follow from this count (the k-th newest is seq - k + 1): no column to store.
    this.seq += 1;
    this.next = i + 1 === this.capacity ? 0 : i + 1;
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
    return Math.min(this.seq - this.base, this.capacity);
  }

  private userAt(i: number): string {
    return this.strings[STRIDE * i + USER] as string;
  }

  private permissionAt(i: number): string {
    return this.strings[STRIDE * i + PERMISSION] as string;
  }

  private reasonAt(i: number): string | null {
    switch ((this.outcomes[i] as number) >> 1) {
      case REASON.missing:
        return `Missing required permission: ${this.permissionAt(i)}`;
      case REASON.invalid:
        return `Invalid permission: ${this.permissionAt(i)}`;
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
    const count = this.size;
    for (let k = 1; k <= count && out.length < limit; k++) {
      const i = (this.next - k + this.capacity) % this.capacity;
      if (filter.userId && this.userAt(i) !== filter.userId) continue;
      if (skip > 0) {
        skip -= 1;
        continue;
      }
      out.push({
        id: `chk-${this.seq - k + 1}`,
        userId: this.userAt(i),
        action: 'checked',
        permission: this.permissionAt(i),
        context: this.strings[STRIDE * i + CONTEXT] as string,
        timestamp: new Date(this.times[i] as number).toISOString(),
        result: ((this.outcomes[i] as number) & 1) === 1,
        reason: this.reasonAt(i),
      });
    }
    return out;
  }

  /** How many kept entries match (for paging). */
  countMatching(userId?: string): number {
    const count = this.size;
    if (!userId) return count;
    let n = 0;
    for (let k = 1; k <= count; k++) {
      if (this.userAt((this.next - k + this.capacity) % this.capacity) === userId) n += 1;
    }
    return n;
  }

  clear(): void {
    this.next = 0;
    this.base = this.seq;
    this.reasonTexts.fill(null);
  }
}
