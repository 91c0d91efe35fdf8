/**
 * The compiled permission engine: the same model as check.ts, answered from per-user bit masks
 * so every request's check costs a few nanoseconds and is still audited.
 *
 * For each user it keeps one mask for the system context (role, inherited roles, direct grants,
 * system-context assignments), one per context the user has assignments in (already merged with
 * its parent, the system context), and one for "any context". A mask is two 32-bit words (the
 * catalogue has 47 permissions), contexts are named by small ids the engine hands out per context
 * key, and every user's masks sit in one shared Int32Array: the user map holds just the offset of
 * a user's row, so a check goes from the user id to the masks with no object in between (one
 * cache miss instead of three). A check builds no string and allocates nothing. Expiry is
 * honoured at the moment of the check: a user's masks are valid until their earliest assignment
 * expiry and are rebuilt on the first check after it.
 */
import { ALL_PERMISSION_IDS, type PermissionId } from './catalogue';
import {
  assignmentPermissions,
  isAdmin,
  type AccessRequirement,
  type AccessSubject,
  type CheckScope,
  type Decision,
} from './check';
import { contextKey, isAssignmentInForce } from './context';
import { REASON, type AuditRing } from './audit';
import { SYSTEM_ROLE_REGISTRY, type RoleRegistry } from './roles';

if (ALL_PERMISSION_IDS.length > 64)
  throw new Error('the permission masks hold at most 64 permissions');

/** Bit position of every permission. */
export const PERMISSION_BIT: ReadonlyMap<string, number> = new Map(
  ALL_PERMISSION_IDS.map((p, i) => [p, i]),
);

/** Context ids of the two scopes every user has; other context keys get ids from 2 up. */
const SYSTEM_ID = 0;
const ANY_ID = 1;

/**
 * Layout of a user's row in the table: a header (2 × the number of contexts, + 1 for an admin),
 * the [lo, hi] pairs of the system context and of any context, then (context id, lo, hi) for each
 * context the user has assignments in, merged with the system mask.
 */
const HEADER_AT = 0;
const SYSTEM_AT = 1;
const ANY_AT = 3;
const CONTEXTS_AT = 5;

const rowLength = (header: number) => CONTEXTS_AT + 3 * (header >> 1);

/** Whether the [lo, hi] pair at `at` holds permission `bit` (a shift count is taken mod 32). */
const pairHolds = (table: Int32Array, at: number, bit: number) =>
  (((table[at + (bit >> 5)] as number) >>> bit) & 1) === 1;

/** The table never shrinks below this many words. */
const MIN_TABLE = 64;

interface Compiled {
  subject: AccessSubject;
  /** Epoch ms at which an assignment expires and the masks must be rebuilt. */
  validUntil: number;
}

function addAll(mask: [number, number], permissions: Iterable<PermissionId>): void {
  for (const p of permissions) {
    const bit = PERMISSION_BIT.get(p);
    if (bit === undefined) continue;
    if (bit < 32) mask[0] |= 1 << bit;
    else mask[1] |= 1 << (bit - 32);
  }
}

const ALLOWED: Decision = Object.freeze({ allowed: true });

export interface AccessEngineOptions {
  roles?: RoleRegistry;
  /** Every check is recorded here when given (spec §6: the last 1000 checks). */
  audit?: AuditRing | null;
  /** Epoch ms; defaults to Date.now. */
  now?: () => number;
}

export class AccessEngine {
  private readonly users = new Map<string, Compiled>();
  /**
   * The check path: user id → offset of their row in `table`, for users whose masks are current.
   * A number rather than an array per user: a check reads the map entry and then the row, where a
   * Map → array object → elements chain cost two more cache misses, a third of a check.
   */
  private readonly current = new Map<string, number>();
  /** The rows of `current`, appended; rows replaced or dropped are garbage until `compact`. */
  private table = new Int32Array(MIN_TABLE);
  /** Words of `table` in use, and those of them that belong to current rows. */
  private used = 0;
  private live = 0;
  /** The earliest expiry among the masks in `current`; checks before it need no expiry test. */
  private nextExpiry = Infinity;
  /** Context key → small id, shared by every user (bounded by the contexts that exist). */
  private readonly contextIds = new Map<string, number>([
    ['system', SYSTEM_ID],
    ['any', ANY_ID],
  ]);
  private roles: RoleRegistry;
  private readonly audit: AuditRing | null;
  private readonly now: () => number;

  constructor(options: AccessEngineOptions = {}) {
    this.roles = options.roles ?? SYSTEM_ROLE_REGISTRY;
    this.audit = options.audit ?? null;
    this.now = options.now ?? Date.now;
  }

  /** Replaces the role registry (custom roles changed); every user is recompiled on next use. */
  setRoles(roles: RoleRegistry): void {
    this.roles = roles;
    this.current.clear();
    this.used = 0;
    this.live = 0;
    this.nextExpiry = Infinity;
  }

  get roleRegistry(): RoleRegistry {
    return this.roles;
  }

  /** Loads (or reloads) a user's permission data. */
  load(subject: AccessSubject): void {
    const [compiled, row] = this.compile(subject, this.now());
    this.install(compiled, row);
  }

  has(userId: string): boolean {
    return this.users.has(userId);
  }

  remove(userId: string): void {
    this.users.delete(userId);
    this.drop(userId);
  }

  get size(): number {
    return this.users.size;
  }

  /** The subject a user was loaded from. */
  subjectOf(userId: string): AccessSubject | undefined {
    return this.users.get(userId)?.subject;
  }

  private compile(subject: AccessSubject, now: number): [Compiled, Int32Array] {
    const base: [number, number] = [0, 0];
    addAll(base, this.roles.permissionsOf(subject.role));
    addAll(base, (subject.directPermissions ?? []) as PermissionId[]);
    let validUntil = Infinity;
    const perContext = new Map<string, [number, number]>();
    const any: [number, number] = [base[0], base[1]];
    for (const assignment of subject.contextAssignments ?? []) {
      if (!isAssignmentInForce(assignment, now)) continue;
      if (assignment.expiresAt !== null) {
        validUntil = Math.min(validUntil, Date.parse(assignment.expiresAt));
      }
      const key = contextKey(assignment.context);
      const granted = assignmentPermissions(assignment);
      if (key === 'system') addAll(base, granted);
      else {
        let mask = perContext.get(key);
        if (!mask) perContext.set(key, (mask = [0, 0]));
        addAll(mask, granted);
      }
      addAll(any, granted);
    }
    const row = new Int32Array(CONTEXTS_AT + 3 * perContext.size);
    row[HEADER_AT] = 2 * perContext.size + (isAdmin(subject) ? 1 : 0);
    row[SYSTEM_AT] = base[0];
    row[SYSTEM_AT + 1] = base[1];
    row[ANY_AT] = any[0] | base[0];
    row[ANY_AT + 1] = any[1] | base[1];
    let at = CONTEXTS_AT;
    for (const [key, mask] of perContext) {
      row[at] = this.contextId(key);
      row[at + 1] = mask[0] | base[0];
      row[at + 2] = mask[1] | base[1];
      at += 3;
    }
    return [{ subject, validUntil }, row];
  }

  private contextId(key: string): number {
    let id = this.contextIds.get(key);
    if (id === undefined) this.contextIds.set(key, (id = this.contextIds.size));
    return id;
  }

  private install(c: Compiled, row: Int32Array): number {
    const id = c.subject.id;
    this.users.set(id, c);
    this.drop(id);
    const length = row.length;
    if (this.used + length > this.table.length) this.compact(length);
    const offset = this.used;
    this.table.set(row, offset);
    this.used += length;
    this.live += length;
    this.current.set(id, offset);
    if (c.validUntil < this.nextExpiry) this.nextExpiry = c.validUntil;
    return offset;
  }

  /** Takes a user's row out of `current` (its words become garbage). */
  private drop(userId: string): void {
    const offset = this.current.get(userId);
    if (offset === undefined) return;
    this.live -= rowLength(this.table[offset + HEADER_AT] as number);
    this.current.delete(userId);
  }

  /**
   * Makes room for `extra` more words: copies the current rows into a table twice their size (or
   * the same table, front to back, when that is large enough), leaving the garbage behind.
   */
  private compact(extra: number): void {
    const size = Math.max(MIN_TABLE, 2 * (this.live + extra));
    const from = this.table;
    const to = size <= from.length ? from : new Int32Array(size);
    // Offsets only grow in `current`'s order (rows are appended), so copying front to back in
    // that order never overwrites a row not yet copied.
    let at = 0;
    for (const [userId, offset] of this.current) {
      const length = rowLength(from[offset + HEADER_AT] as number);
      if (to === from) to.copyWithin(at, offset, offset + length);
      else to.set(from.subarray(offset, offset + length), at);
      this.current.set(userId, at);
      at += length;
    }
    this.table = to;
    this.used = at;
    this.live = at;
  }

  /** Offset of the user's current row (-1: unknown user), rebuilt if an assignment expired. */
  private rowOf(userId: string, now: number): number {
    if (now >= this.nextExpiry) this.expire(now);
    const offset = this.current.get(userId);
    return offset !== undefined ? offset : this.rebuild(userId, now);
  }

  /** Off the check path: a known user's row after expiry or a change of roles. */
  private rebuild(userId: string, now: number): number {
    const c = this.users.get(userId);
    if (c === undefined) return -1;
    const [compiled, row] = this.compile(c.subject, now);
    return this.install(compiled, row);
  }

  /**
   * Drops the masks that expired by `now` (rebuilt on their user's next check) and finds the next
   * expiry. A scan of every user, but only once per expiry instant reached, not per check.
   */
  private expire(now: number): void {
    let next = Infinity;
    for (const [userId, c] of this.users) {
      if (c.validUntil <= now) this.drop(userId);
      else if (this.current.has(userId) && c.validUntil < next) next = c.validUntil;
    }
    this.nextExpiry = next;
  }

  /** Whether the row at `offset` holds permission `bit` in context `key`. */
  private holds(offset: number, bit: number, key: string): boolean {
    const table = this.table;
    // The system pair answers for the system context and for contexts the user has nothing in.
    if (key === 'system') return pairHolds(table, offset + SYSTEM_AT, bit);
    if (key === 'any') return pairHolds(table, offset + ANY_AT, bit);
    const id = this.contextIds.get(key);
    if (id !== undefined) {
      // A user has a handful of contexts, so a scan beats any lookup structure here.
      const end = offset + rowLength(table[offset + HEADER_AT] as number);
      for (let j = offset + CONTEXTS_AT; j < end; j += 3) {
        if (table[j] === id) return pairHolds(table, j + 1, bit);
      }
    }
    return pairHolds(table, offset + SYSTEM_AT, bit);
  }

  /**
   * Whether the user holds `permission` in the scope: a context, `any`, a context key string, or
   * nothing (system). An unloaded user holds nothing. Audited.
   */
  check(userId: string, permission: string, scope?: CheckScope | string): boolean {
    const now = this.now();
    const key =
      scope === undefined ? 'system' : typeof scope === 'string' ? scope : contextKey(scope);
    const bit = PERMISSION_BIT.get(permission);
    if (bit === undefined) {
      this.audit?.recordCheck(userId, permission, key, now, false, REASON.invalid);
      return false;
    }
    const offset = this.rowOf(userId, now);
    const allowed =
      offset >= 0 &&
      (((this.table[offset + HEADER_AT] as number) & 1) === 1 || this.holds(offset, bit, key));
    this.audit?.recordCheck(
      userId,
      permission,
      key,
      now,
      allowed,
      allowed ? REASON.none : REASON.missing,
    );
    return allowed;
  }

  /**
   * `check` without an audit entry: for the server's own questions about people who are not
   * acting (whom to tell of a change), which would otherwise push the people's own checks out of
   * the audit ring of spec §9.
   */
  wouldAllow(userId: string, permission: string, scope?: CheckScope | string): boolean {
    const key =
      scope === undefined ? 'system' : typeof scope === 'string' ? scope : contextKey(scope);
    const bit = PERMISSION_BIT.get(permission);
    if (bit === undefined) return false;
    const offset = this.rowOf(userId, this.now());
    return (
      offset >= 0 &&
      (((this.table[offset + HEADER_AT] as number) & 1) === 1 || this.holds(offset, bit, key))
    );
  }

  /** `check` with the spec's reason when denied. */
  decide(userId: string, permission: string, scope?: CheckScope | string): Decision {
    if (this.check(userId, permission, scope)) return ALLOWED;
    return PERMISSION_BIT.has(permission)
      ? { allowed: false, reason: `Missing required permission: ${permission}` }
      : { allowed: false, reason: `Invalid permission: ${permission}` };
  }

  /**
   * Checks a route's or an action's requirement with the reasons of check.ts (which it must
   * agree with), recorded as one audit entry.
   */
  decideRequirement(
    userId: string,
    requirement: AccessRequirement,
    scope?: CheckScope | string,
  ): Decision {
    const permissions = requirement.permissions ?? [];
    if (permissions.length === 1 && !requirement.roles?.length) {
      return this.decide(userId, permissions[0] as string, scope);
    }
    const now = this.now();
    const key =
      scope === undefined ? 'system' : typeof scope === 'string' ? scope : contextKey(scope);
    const decision = this.evaluate(userId, this.rowOf(userId, now), requirement, key);
    this.audit?.recordCheck(
      userId,
      permissions.join(',') || `role:${(requirement.roles ?? []).join('|')}`,
      key,
      now,
      decision.allowed,
      decision.allowed ? REASON.none : REASON.text,
      decision.allowed ? null : decision.reason,
    );
    return decision;
  }

  private evaluate(
    userId: string,
    offset: number,
    requirement: AccessRequirement,
    key: string,
  ): Decision {
    const permissions = requirement.permissions ?? [];
    const invalid = permissions.find((p) => !PERMISSION_BIT.has(p));
    if (invalid !== undefined) return { allowed: false, reason: `Invalid permission: ${invalid}` };
    const admin = offset >= 0 && ((this.table[offset + HEADER_AT] as number) & 1) === 1;
    const has = (p: string) =>
      admin || (offset >= 0 && this.holds(offset, PERMISSION_BIT.get(p) as number, key));
    if (permissions.length === 1) {
      if (!has(permissions[0] as string)) {
        return { allowed: false, reason: `Missing required permission: ${permissions[0]}` };
      }
    } else if (permissions.length > 1) {
      if (requirement.mode === 'any') {
        if (!permissions.some(has)) {
          return {
            allowed: false,
            reason: `Missing any of required permissions: ${permissions.join(', ')}`,
          };
        }
      } else {
        const missing = permissions.filter((p) => !has(p));
        if (missing.length > 0) {
          return { allowed: false, reason: `Missing required permissions: ${missing.join(', ')}` };
        }
      }
    }
    const roles = requirement.roles ?? [];
    if (roles.length === 0 || admin) return ALLOWED;
    const role = this.users.get(userId)?.subject.role ?? '';
    if (roles.some((r) => this.roles.holds(role, r))) return ALLOWED;
    return {
      allowed: false,
      reason: `Required role: ${roles.join(' or ')}, but user has role: ${role}`,
    };
  }
}
