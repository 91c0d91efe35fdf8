/**
 * The compiled permission engine: the same model as check.ts, answered from per-user bit masks
 * so every request's check costs a few nanoseconds and is still audited.
 *
 * For each user it keeps one mask for the system context (role, inherited roles, direct grants,
 * system-context assignments), one per context the user has assignments in (already merged with
 * its parent, the system context), and one for "any context". A mask is two 32-bit words (the
 * catalogue has 47 permissions); all of a user's masks sit in one Int32Array, contexts named by
 * small ids the engine hands out per context key, and a check reads just that array. Expiry is
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
 * Layout of a user's mask array: an admin flag, the [lo, hi] pairs of the system context and of
 * any context, then (context id, lo, hi) for each context the user has assignments in, merged
 * with the system mask.
 */
const ADMIN_AT = 0;
const SYSTEM_AT = 1;
const ANY_AT = 3;
const CONTEXTS_AT = 5;

interface Compiled {
  subject: AccessSubject;
  masks: Int32Array;
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
   * The check path: user id → mask array, for users whose masks are current. Kept apart from
   * `users` so a check goes from the id straight to the array; a wrapper object in between was one
   * more cache miss, a sixth of a check.
   */
  private readonly current = new Map<string, Int32Array>();
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
    this.nextExpiry = Infinity;
  }

  get roleRegistry(): RoleRegistry {
    return this.roles;
  }

  /** Loads (or reloads) a user's permission data. */
  load(subject: AccessSubject): void {
    this.install(this.compile(subject, this.now()));
  }

  has(userId: string): boolean {
    return this.users.has(userId);
  }

  remove(userId: string): void {
    this.users.delete(userId);
    this.current.delete(userId);
  }

  get size(): number {
    return this.users.size;
  }

  /** The subject a user was loaded from. */
  subjectOf(userId: string): AccessSubject | undefined {
    return this.users.get(userId)?.subject;
  }

  private compile(subject: AccessSubject, now: number): Compiled {
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
    const masks = new Int32Array(CONTEXTS_AT + 3 * perContext.size);
    masks[ADMIN_AT] = isAdmin(subject) ? 1 : 0;
    masks[SYSTEM_AT] = base[0];
    masks[SYSTEM_AT + 1] = base[1];
    masks[ANY_AT] = any[0] | base[0];
    masks[ANY_AT + 1] = any[1] | base[1];
    let at = CONTEXTS_AT;
    for (const [key, mask] of perContext) {
      masks[at] = this.contextId(key);
      masks[at + 1] = mask[0] | base[0];
      masks[at + 2] = mask[1] | base[1];
      at += 3;
    }
    return { subject, masks, validUntil };
  }

  private contextId(key: string): number {
    let id = this.contextIds.get(key);
    if (id === undefined) this.contextIds.set(key, (id = this.contextIds.size));
    return id;
  }

  private install(c: Compiled): void {
    this.users.set(c.subject.id, c);
    this.current.set(c.subject.id, c.masks);
    if (c.validUntil < this.nextExpiry) this.nextExpiry = c.validUntil;
  }

  /** The user's current masks, rebuilt when an assignment expired or the roles changed. */
  private masksOf(userId: string, now: number): Int32Array | undefined {
    if (now >= this.nextExpiry) this.expire(now);
    const masks = this.current.get(userId);
    if (masks !== undefined) return masks;
    const c = this.users.get(userId);
    if (c === undefined) return undefined;
    const fresh = this.compile(c.subject, now);
    this.install(fresh);
    return fresh.masks;
  }

  /**
   * Drops the masks that expired by `now` (rebuilt on their user's next check) and finds the next
   * expiry. A scan of every user, but only once per expiry instant reached, not per check.
   */
  private expire(now: number): void {
    let next = Infinity;
    for (const [userId, c] of this.users) {
      if (c.validUntil <= now) this.current.delete(userId);
      else if (this.current.has(userId) && c.validUntil < next) next = c.validUntil;
    }
    this.nextExpiry = next;
  }

  private holds(masks: Int32Array, bit: number, key: string | undefined): boolean {
    // The system pair answers for the system context and for contexts the user has nothing in.
    let at = SYSTEM_AT;
    const id = key === undefined ? SYSTEM_ID : this.contextIds.get(key);
    if (id === ANY_ID) at = ANY_AT;
    else if (id !== undefined && id !== SYSTEM_ID) {
      // A user has a handful of contexts, so a scan beats any lookup structure here.
      for (let j = CONTEXTS_AT; j < masks.length; j += 3) {
        if (masks[j] === id) {
          at = j + 1;
          break;
        }
      }
    }
    return bit < 32
      ? ((masks[at] as number) & (1 << bit)) !== 0
      : ((masks[at + 1] as number) & (1 << (bit - 32))) !== 0;
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
    const masks = this.masksOf(userId, now);
    const allowed = masks !== undefined && (masks[ADMIN_AT] === 1 || this.holds(masks, bit, key));
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
    const decision = this.evaluate(userId, this.masksOf(userId, now), requirement, key);
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
    masks: Int32Array | undefined,
    requirement: AccessRequirement,
    key: string,
  ): Decision {
    const permissions = requirement.permissions ?? [];
    const invalid = permissions.find((p) => !PERMISSION_BIT.has(p));
    if (invalid !== undefined) return { allowed: false, reason: `Invalid permission: ${invalid}` };
    const admin = masks?.[ADMIN_AT] === 1;
    const has = (p: string) =>
      admin || (masks !== undefined && this.holds(masks, PERMISSION_BIT.get(p) as number, key));
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
