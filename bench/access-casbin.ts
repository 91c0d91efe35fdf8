/**
 * The permission model of spec §6 in Casbin, RBAC with domains, answering exactly like check.ts.
 *
 * Casbin evaluates the matcher once per `p` rule on every check (building a fresh context object
 * each time), so its speed is set by the size of the `p` table. The formulation below keeps that
 * table to the catalogue — one rule per permission, held by a `perm:<id>` role — and puts the rest
 * of the model in the role manager, where lookups are cheap. (Policies per role, the textbook
 * form, need 119 rules and run at about half the speed; per-user policies for direct grants would
 * add thousands of rules.)
 *
 * - A domain is a context key (`system`, `course:c42`, `department:d7`), plus one extra domain,
 *   `any`, that holds a copy of every in-force assignment of every context, so the `any` scope is
 *   one more domain rather than a union computed outside Casbin.
 * - System roles are linked to the user in the `system` domain, and to their own permissions
 *   there; inheritance (student → instructor → admin) is `g` links in the same domain. Admin holds
 *   the whole catalogue, which is what "admin always passes" means for the valid ids the libraries
 *   are asked about.
 * - A context role held in a context is linked to the user in that context's domain; the role's
 *   links to its permissions exist in every domain it is held in (role manager links do not cross
 *   domains).
 * - Direct permissions (global or per assignment) are links to the `perm:<id>` role, in `system`
 *   or in the context's domain.
 * - The system context is the parent of every context: the matcher also asks `g` in `system`.
 * - Expired and inactive assignments are simply not loaded (judged at the fixed "now").
 */
import { newEnforcer, newModelFromString, type Enforcer } from 'casbin';
import {
  ALL_PERMISSION_IDS,
  CONTEXT_ROLES,
  SYSTEM_ROLES,
  contextKey,
  getRolePermissions,
  isAssignmentInForce,
  type AccessSubject,
  type ContextRoleId,
} from '@learning-hub/core';

const MODEL = `
[request_definition]
r = sub, dom, obj, act

[policy_definition]
p = sub, obj, act

[role_definition]
g = _, _, _

[policy_effect]
e = some(where (p.eft == allow))

[matchers]
m = r.obj == p.obj && r.act == p.act && (g(r.sub, p.sub, r.dom) || g(r.sub, p.sub, "system"))
`;

const SYSTEM_DOMAIN = 'system';
const ANY_DOMAIN = 'any';
const permRole = (permission: string) => `perm:${permission}`;

function split(permission: string): [string, string] {
  const dot = permission.indexOf('.');
  return [permission.slice(0, dot), permission.slice(dot + 1)];
}

/** The `p` rules: one per catalogue permission, held by its `perm:<id>` role. */
function policyRules(): string[][] {
  return ALL_PERMISSION_IDS.map((p) => [permRole(p), ...split(p)]);
}

/** The `g` rules: roles to permissions, role inheritance, each user's roles and grants. */
function groupingRules(subjects: readonly AccessSubject[], now: number): string[][] {
  // addGroupingPolicies refuses a whole batch if one rule already exists: keep them unique.
  const seen = new Set<string>();
  const rules: string[][] = [];
  const add = (member: string, role: string, domain: string) => {
    const key = `${member}\u0000${role}\u0000${domain}`;
    if (seen.has(key)) return;
    seen.add(key);
    rules.push([member, role, domain]);
  };
  for (const role of Object.values(SYSTEM_ROLES)) {
    // Only what the role adds over its parent: the parent's permissions reach it through `g`.
    const inherited = new Set(role.inherits ? getRolePermissions(role.inherits) : []);
    for (const p of getRolePermissions(role.id)) {
      if (!inherited.has(p)) add(role.id, permRole(p), SYSTEM_DOMAIN);
    }
    if (role.inherits) add(role.id, role.inherits, SYSTEM_DOMAIN);
  }
  const holdContextRole = (user: string, role: ContextRoleId, domain: string) => {
    add(user, role, domain);
    for (const p of CONTEXT_ROLES[role].permissions) add(role, permRole(p), domain);
  };
  for (const subject of subjects) {
    add(subject.id, subject.role, SYSTEM_DOMAIN);
    for (const p of subject.directPermissions ?? []) add(subject.id, permRole(p), SYSTEM_DOMAIN);
    for (const assignment of subject.contextAssignments ?? []) {
      if (!isAssignmentInForce(assignment, now)) continue;
      const domain = contextKey(assignment.context);
      const domains = domain === SYSTEM_DOMAIN ? [SYSTEM_DOMAIN] : [domain, ANY_DOMAIN];
      for (const d of domains) {
        for (const role of assignment.roles) holdContextRole(subject.id, role, d);
        for (const p of assignment.directPermissions) add(subject.id, permRole(p), d);
      }
    }
  }
  return rules;
}

export interface CasbinModel {
  enforcer: Enforcer;
  policies: number;
  groupings: number;
}

/** Builds the enforcer in bulk (one addPolicies, one addGroupingPolicies). */
export async function buildCasbin(
  subjects: readonly AccessSubject[],
  now: number,
): Promise<CasbinModel> {
  const enforcer = await newEnforcer(newModelFromString(MODEL));
  const policies = policyRules();
  const groupings = groupingRules(subjects, now);
  if (!(await enforcer.addPolicies(policies))) throw new Error('casbin refused the policies');
  if (!(await enforcer.addGroupingPolicies(groupings))) {
    throw new Error('casbin refused the grouping policies');
  }
  return { enforcer, policies: policies.length, groupings: groupings.length };
}
