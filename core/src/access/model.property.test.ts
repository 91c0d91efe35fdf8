/**
 * Property-based tests of the permission model (fast-check): the rules of spec §4 and §6 hold
 * for arbitrary users, assignments, contexts and times, and the compiled engine agrees with the
 * reference functions on every question.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ALL_PERMISSION_IDS,
  AccessEngine,
  assignContext,
  AuditRing,
  CONTEXT_ROLE_IDS,
  CONTEXT_ROLES,
  checkPermission,
  checkRequirement,
  contextKey,
  effectivePermissions,
  explainEffectivePermissions,
  explainPermission,
  isAssignmentInForce,
  parentContext,
  removeContextAssignment,
  RoleRegistry,
  SYSTEM_CONTEXT,
  type AccessContext,
  type AccessSubject,
  type CheckScope,
  type ContextAssignment,
  type Grant,
  type PermissionId,
  type Role,
} from '.';

const NOW = Date.parse('2026-11-22T12:00:00.000Z');
const HOUR = 3_600_000;

const custom = (id: string, inherits: string, permissions: PermissionId[]): Role => ({
  id,
  name: id,
  displayName: id,
  description: '',
  permissions,
  inherits,
  context: 'global',
  isSystemRole: false,
  priority: 20,
});
const REGISTRY = new RoleRegistry([
  custom('wiki-editor', 'student', ['wiki.create', 'wiki.edit']),
  custom('lead-editor', 'wiki-editor', ['wiki.manage', 'grade.export']),
  custom('senior-instructor', 'instructor', ['analytics.export']),
]);
const ROLE_IDS = [
  'student',
  'instructor',
  'admin',
  'super_admin',
  'wiki-editor',
  'lead-editor',
  'senior-instructor',
];

const permission = fc.constantFrom(...ALL_PERMISSION_IDS);
const context: fc.Arbitrary<AccessContext> = fc.oneof(
  fc.constant(SYSTEM_CONTEXT),
  fc.constantFrom('c1', 'c2', 'c3').map((courseId) => ({ type: 'course' as const, courseId })),
  fc
    .constantFrom('d1', 'd2')
    .map((departmentId) => ({ type: 'department' as const, departmentId })),
  fc.constant({ type: 'user' as const, userId: 'u9' }),
  fc.constant({ type: 'custom' as const, contextType: 'region', contextId: 'north' }),
);
const scope: fc.Arbitrary<CheckScope> = fc.oneof(
  fc.constant(undefined),
  fc.constant('any' as const),
  context,
);
const assignment = (userId: string): fc.Arbitrary<ContextAssignment> =>
  fc.record({
    userId: fc.constant(userId),
    context,
    roles: fc.subarray([...CONTEXT_ROLE_IDS]),
    directPermissions: fc.subarray([...ALL_PERMISSION_IDS], { maxLength: 4 }),
    assignedBy: fc.constant('admin'),
    assignedAt: fc.constant(new Date(NOW - 10 * HOUR).toISOString()),
    expiresAt: fc.option(
      fc.integer({ min: -3 * HOUR, max: 3 * HOUR }).map((d) => new Date(NOW + d).toISOString()),
      { nil: null },
    ),
    isActive: fc.boolean(),
  });
const subject: fc.Arbitrary<AccessSubject> = fc.record({
  id: fc.constant('u1'),
  role: fc.constantFrom(...ROLE_IDS),
  isSuperAdmin: fc.boolean().map((b) => b && Math.random() < 0.2),
  directPermissions: fc.subarray([...ALL_PERMISSION_IDS], { maxLength: 3 }),
  contextAssignments: fc.array(assignment('u1'), { maxLength: 6 }),
});
const now = fc.integer({ min: -4 * HOUR, max: 4 * HOUR }).map((d) => NOW + d);

const opts = (s: CheckScope, at: number) => ({ scope: s, now: at, roles: REGISTRY });

describe('the compiled engine agrees with the reference model', () => {
  it('on single permissions, audited', () => {
    fc.assert(
      fc.property(
        subject,
        fc.oneof(permission, fc.constant('course.fly')),
        scope,
        now,
        (s, p, sc, at) => {
          const audit = new AuditRing();
          const engine = new AccessEngine({ roles: REGISTRY, audit, now: () => at });
          engine.load(s);
          const reference = checkPermission(s, p, opts(sc, at));
          expect(engine.decide(s.id, p, sc)).toEqual(reference);
          const [entry] = audit.list();
          expect(entry).toMatchObject({
            userId: s.id,
            permission: p,
            result: reference.allowed,
            reason: reference.allowed ? null : reference.reason,
            context: sc === undefined ? 'system' : sc === 'any' ? 'any' : contextKey(sc),
          });
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('on requirements with all/any and roles, reasons included', () => {
    const requirement = fc.record({
      permissions: fc.subarray([...ALL_PERMISSION_IDS], { minLength: 0, maxLength: 3 }),
      mode: fc.constantFrom('all' as const, 'any' as const),
      roles: fc.subarray(['student', 'instructor', 'admin']),
    });
    fc.assert(
      fc.property(subject, requirement, scope, now, (s, r, sc, at) => {
        const engine = new AccessEngine({ roles: REGISTRY, now: () => at });
        engine.load(s);
        expect(engine.decideRequirement(s.id, r, sc)).toEqual(checkRequirement(s, r, opts(sc, at)));
      }),
      { numRuns: 1500 },
    );
  });

  it('as time passes an expiry, without being reloaded', () => {
    fc.assert(
      fc.property(subject, permission, scope, (s, p, sc) => {
        let at = NOW - 4 * HOUR;
        const engine = new AccessEngine({ roles: REGISTRY, now: () => at });
        engine.load(s);
        for (; at <= NOW + 4 * HOUR; at += HOUR / 2) {
          expect(engine.check(s.id, p, sc)).toBe(checkPermission(s, p, opts(sc, at)).allowed);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('an engine holding many users', () => {
  // Users come and go, are reloaded with new data, and expire, so their rows in the engine's
  // shared table are replaced, dropped and compacted many times over; every loaded user must
  // still answer as the reference does after each step, and a removed one must hold nothing.
  it('answers for each user from that user’s own current data', () => {
    const userIds = ['u1', 'u2', 'u3', 'u4', 'u5', 'u6'];
    const subjectOf = (id: string) =>
      subject.chain((s) =>
        fc
          .array(assignment(id), { maxLength: 6 })
          .map((contextAssignments) => ({ ...s, id, contextAssignments })),
      );
    const step = fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom(...userIds).chain((id) => subjectOf(id)) },
      { weight: 1, arbitrary: fc.constantFrom(...userIds).map((id) => ({ remove: id })) },
      { weight: 1, arbitrary: fc.constant({ roles: true as const }) },
      { weight: 1, arbitrary: fc.integer({ min: 1, max: HOUR }).map((later) => ({ later })) },
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(step, permission, scope), { minLength: 150, maxLength: 300 }),
        (steps) => {
          let at = NOW - 4 * HOUR;
          const engine = new AccessEngine({ roles: REGISTRY, now: () => at });
          const loaded = new Map<string, AccessSubject>();
          for (const [change, p, sc] of steps) {
            if ('remove' in change) {
              engine.remove(change.remove);
              loaded.delete(change.remove);
            } else if ('roles' in change) engine.setRoles(REGISTRY);
            else if ('later' in change) at += change.later;
            else {
              engine.load(change);
              loaded.set(change.id, change);
            }
            for (const id of userIds) {
              const s = loaded.get(id);
              const expected = s ? checkPermission(s, p, opts(sc, at)).allowed : false;
              expect(engine.check(id, p, sc)).toBe(expected);
            }
          }
        },
      ),
      { numRuns: 25 },
    );
  });
});

describe('context assignment transitions (spec §4)', () => {
  it('a new assignment for the same context replaces the old one', () => {
    fc.assert(
      fc.property(fc.array(assignment('u1'), { maxLength: 6 }), assignment('u1'), (list, a) => {
        const result = assignContext(list, a);
        const same = result.filter((x) => contextKey(x.context) === contextKey(a.context));
        expect(same).toEqual([a]);
        for (const x of list) {
          if (contextKey(x.context) !== contextKey(a.context)) expect(result).toContain(x);
        }
      }),
    );
  });

  it('removal drops the assignment for that context and nothing else', () => {
    fc.assert(
      fc.property(fc.array(assignment('u1'), { maxLength: 6 }), context, (list, c) => {
        const result = removeContextAssignment(list, 'u1', c);
        expect(result.some((x) => contextKey(x.context) === contextKey(c))).toBe(false);
        expect(result).toEqual(list.filter((x) => contextKey(x.context) !== contextKey(c)));
      }),
    );
  });

  it('an assignment past its expiry (or inactive) contributes nothing', () => {
    fc.assert(
      fc.property(subject, assignment('u1'), scope, now, (s, a, sc, at) => {
        fc.pre(!isAssignmentInForce(a, at));
        const withIt = { ...s, contextAssignments: [...(s.contextAssignments ?? []), a] };
        expect(effectivePermissions(withIt, opts(sc, at))).toEqual(
          effectivePermissions(s, opts(sc, at)),
        );
      }),
    );
  });
});

describe('resolution rules (spec §6)', () => {
  it('contexts inherit from their parent, the system context', () => {
    fc.assert(
      fc.property(subject, context, now, (s, c, at) => {
        const inSystem = effectivePermissions(s, opts(undefined, at));
        const inContext = effectivePermissions(s, opts(c, at));
        for (const p of inSystem) expect(inContext.has(p)).toBe(true);
        const parent = parentContext(c);
        if (parent) {
          for (const p of effectivePermissions(s, opts(parent, at)))
            expect(inContext.has(p)).toBe(true);
        }
      }),
    );
  });

  it('effective permissions have no duplicates and are exactly the explained ones', () => {
    fc.assert(
      fc.property(subject, scope, now, (s, sc, at) => {
        const explained = explainEffectivePermissions(s, opts(sc, at)).map((e) => e.permission);
        expect(new Set(explained).size).toBe(explained.length);
        const held = ALL_PERMISSION_IDS.filter((p) => checkPermission(s, p, opts(sc, at)).allowed);
        expect([...explained].sort()).toEqual([...held].sort());
      }),
    );
  });

  it('admin (and super admin) always passes', () => {
    fc.assert(
      fc.property(
        subject,
        fc.constantFrom('admin', 'super_admin'),
        permission,
        scope,
        now,
        (s, role, p, sc, at) => {
          expect(checkPermission({ ...s, role }, p, opts(sc, at)).allowed).toBe(true);
          expect(checkPermission({ ...s, isSuperAdmin: true }, p, opts(sc, at)).allowed).toBe(true);
        },
      ),
    );
  });
});

/** Whether a grant really exists in the subject's data, for `permission` checked in `sc`. */
function grantExists(
  s: AccessSubject,
  g: Grant,
  p: PermissionId,
  sc: CheckScope,
  at: number,
): boolean {
  const chain = REGISTRY.chain(s.role);
  const inForce = (a: ContextAssignment) => isAssignmentInForce(a, at);
  const assignmentAt = (c: AccessContext) =>
    (s.contextAssignments ?? []).filter(
      (a) => inForce(a) && contextKey(a.context) === contextKey(c),
    );
  const checked = sc === undefined || sc === 'any' ? SYSTEM_CONTEXT : sc;
  switch (g.source) {
    case 'admin':
      return s.role === 'admin' || s.role === 'super_admin' || s.isSuperAdmin === true;
    case 'role':
      return g.roleId === s.role && (REGISTRY.get(g.roleId)?.permissions.includes(p) ?? false);
    case 'inherited-role':
      return chain.slice(1).some((r) => r.id === g.roleId && r.permissions.includes(p));
    case 'direct':
      return (s.directPermissions ?? []).includes(p);
    case 'context-role':
      return (
        (sc === 'any' || contextKey(g.context) === contextKey(checked)) &&
        CONTEXT_ROLES[g.roleId].permissions.includes(p) &&
        assignmentAt(g.context).some((a) => a.roles.includes(g.roleId))
      );
    case 'context-direct':
      return (
        (sc === 'any' || contextKey(g.context) === contextKey(checked)) &&
        assignmentAt(g.context).some((a) => a.directPermissions.includes(p))
      );
    case 'parent-context':
      return (
        contextKey(g.context) === contextKey(parentContext(checked) ?? SYSTEM_CONTEXT) &&
        assignmentAt(g.context).some((a) =>
          g.roleId
            ? a.roles.includes(g.roleId) && CONTEXT_ROLES[g.roleId].permissions.includes(p)
            : a.directPermissions.includes(p),
        )
      );
  }
}

describe('explanations', () => {
  it('always name a grant that really exists, and only for allowed checks', () => {
    fc.assert(
      fc.property(subject, permission, scope, now, (s, p, sc, at) => {
        const explanation = explainPermission(s, p, opts(sc, at));
        if (!explanation.allowed) {
          expect(explanation.grants).toEqual([]);
          return;
        }
        expect(explanation.grants.length).toBeGreaterThan(0);
        for (const g of explanation.grants)
          expect(grantExists(s, g, p, sc, at), JSON.stringify(g)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});
