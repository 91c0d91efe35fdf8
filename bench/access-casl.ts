/**
 * The permission model of spec §6 in CASL: one prebuilt ability per user, answering exactly like
 * check.ts.
 *
 * - A permission `resource.action` is CASL's (action, subject type) pair; a question is asked about
 *   a subject object `{ ctx }` whose `ctx` is the scope key (`system`, `any`, `course:c42`).
 * - What holds in every context — the role with its inheritance, global direct grants, and
 *   in-force assignments in the system context (the parent of every context) — is a rule without
 *   conditions, so it matches whatever `ctx` is asked.
 * - What an in-force assignment grants in a course or department is a rule with the condition
 *   `ctx ∈ {that context's keys…, 'any'}`: `any` is the union of every context the user has.
 * - Admin is the wildcard rule. CASL's default wildcards are the action `manage` and the subject
 *   `all`, but `library.manage`, `wiki.manage` and `analytics.manage` are real permissions here: with
 *   the defaults a grant of `library.manage` would grant every library action. The wildcards are
 *   therefore renamed to `*`, which no catalogue id uses.
 * - Expired and inactive assignments are not turned into rules (judged at the fixed "now").
 */
import { createMongoAbility, subject, type MongoAbility, type RawRuleOf } from '@casl/ability';
import {
  assignmentPermissions,
  contextKey,
  getRolePermissions,
  isAdmin,
  isAssignmentInForce,
  isPermissionId,
  type AccessSubject,
} from '@learning-hub/core';

/** CASL's "any action" / "any subject type", moved off `manage`/`all` (see above). */
const WILDCARD = '*';

export type UserAbility = MongoAbility;
type Rule = RawRuleOf<UserAbility>;

/** What a question is asked about: the resource as subject type, the scope key as `ctx`. */
export interface ScopeSubject {
  ctx: string;
}

function split(permission: string): [string, string] {
  const dot = permission.indexOf('.');
  return [permission.slice(0, dot), permission.slice(dot + 1)];
}

/** The rules of one user. */
export function userRules(user: AccessSubject, now: number): Rule[] {
  if (isAdmin(user)) return [{ action: WILDCARD, subject: WILDCARD }];
  const everywhere = new Set<string>(getRolePermissions(user.role));
  for (const p of user.directPermissions ?? []) if (isPermissionId(p)) everywhere.add(p);
  const inContexts = new Map<string, string[]>();
  for (const assignment of user.contextAssignments ?? []) {
    if (!isAssignmentInForce(assignment, now)) continue;
    const key = contextKey(assignment.context);
    for (const p of assignmentPermissions(assignment)) {
      if (key === 'system') everywhere.add(p);
      else {
        const keys = inContexts.get(p);
        if (keys) keys.push(key);
        else inContexts.set(p, [key]);
      }
    }
  }
  const rules: Rule[] = [];
  for (const p of everywhere) {
    const [subjectType, action] = split(p);
    rules.push({ action, subject: subjectType });
  }
  for (const [p, keys] of inContexts) {
    // Already granted everywhere: a conditional rule would only add work.
    if (everywhere.has(p)) continue;
    const [subjectType, action] = split(p);
    rules.push({ action, subject: subjectType, conditions: { ctx: { $in: [...keys, 'any'] } } });
  }
  return rules;
}

/** Builds every user's ability, keyed by user id. */
export function buildCasl(
  subjects: readonly AccessSubject[],
  now: number,
): Map<string, UserAbility> {
  const abilities = new Map<string, UserAbility>();
  for (const user of subjects) {
    abilities.set(
      user.id,
      createMongoAbility(userRules(user, now), { anyAction: WILDCARD, anySubjectType: WILDCARD }),
    );
  }
  return abilities;
}

/** The subject object for a question, typed as `resource` (prepared once, before measuring). */
export function scopeSubject(resource: string, scopeKey: string) {
  return subject(resource, { ctx: scopeKey } as ScopeSubject);
}
