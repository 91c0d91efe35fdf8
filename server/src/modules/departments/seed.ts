/**
 * Demo department pages (docs/departments.md): a rich-text description for each demo department,
 * a manager for each (the demo instructor manages Field Operations; a crew member stands in for
 * Customer Support's manager until a date), and a few members by assignment besides the members
 * by account — one of them with an end date — so `npm start` shows living department pages. The
 * courses are the demo courses, already filed under their departments. Runs once (when no
 * department has a stored assignment), also on databases seeded before the department pages.
 */
import type { ContextRoleId } from '@learning-hub/core';
import { upsertAssignment } from '../../platform/access/access-repository';
import { findUserByUsername } from '../../platform/auth/user-repository';
import { findDepartment } from '../../platform/auth/departments';
import { sanitizeRichText } from '../../platform/rich-text/sanitize';
import type { Db } from '../../platform/db';

const DAY = 86_400_000;

/** The demo departments' descriptions, by name (rich text). */
export const DEMO_DEPARTMENT_DESCRIPTIONS: Readonly<Record<string, string>> = {
  'Network Engineering':
    '<p>Designs and runs the <strong>fiber backbone</strong>, the access network and core routing.</p>' +
    '<ul><li>OLT and aggregation design</li><li>Capacity planning and change windows</li><li>Third-line support for Field Operations</li></ul>',
  'Field Operations':
    '<p>Builds, splices, installs and repairs fiber in the field.</p>' +
    '<h2>Crews</h2><p>Splicing, aerial and underground crews work out of three depots. New technicians start with <em>Fiber Splicing Fundamentals</em> and <em>OTDR Testing and Trace Analysis</em>.</p>',
  'Customer Support':
    '<p>Helps subscribers with service, installation and billing questions, and books the field visits.</p>' +
    '<p>Escalation guide: <a href="https://example.com/fiberco/escalations">FiberCo escalation matrix</a>.</p>',
};

/** Who holds which department role in the demo, and until when (days from the seed time). */
const DEMO_DEPARTMENT_ROLES: readonly {
  username: string;
  department: string;
  roles: ContextRoleId[];
  endsInDays: number | null;
}[] = [
  {
    username: 'instructor',
    department: 'Field Operations',
    roles: ['department-member', 'department-manager'],
    endsInDays: null,
  },
  // An acting manager while the post is filled.
  {
    username: 'mei.chen',
    department: 'Customer Support',
    roles: ['department-member', 'department-manager'],
    endsInDays: 90,
  },
  // A secondment: the demo instructor joins Network Engineering for two months.
  {
    username: 'instructor',
    department: 'Network Engineering',
    roles: ['department-member'],
    endsInDays: 60,
  },
  {
    username: 'jordan.lee',
    department: 'Network Engineering',
    roles: ['department-member'],
    endsInDays: null,
  },
];

/** The plain descriptions the demo stored before, as migration 0018 wrapped them. */
const OLD_DESCRIPTIONS = new Set([
  '<p>Designs and runs the fiber backbone, access network and core routing.</p>',
  '<p>Builds, splices, installs and repairs fiber in the field.</p>',
  '<p>Helps subscribers with service, installation and billing questions.</p>',
]);

/** Seeds the demo department pages once; returns whether it did. */
export async function seedDemoDepartments(db: Db, now = new Date()): Promise<boolean> {
  const existing = await db
    .selectFrom('context_assignments')
    .select('user_id')
    .where('context_type', '=', 'department')
    .limit(1)
    .execute();
  if (existing.length > 0) return false;
  const at = now.toISOString();
  let seeded = false;
  for (const [name, html] of Object.entries(DEMO_DEPARTMENT_DESCRIPTIONS)) {
    const department = await findDepartment(db, name);
    if (!department) continue;
    // Only a description nobody wrote here: empty, or the demo's old one line.
    if (department.description === '' || OLD_DESCRIPTIONS.has(department.description)) {
      await db
        .updateTable('departments')
        .set({ description: sanitizeRichText(html) })
        .where('id', '=', department.id)
        .execute();
    }
  }
  for (const r of DEMO_DEPARTMENT_ROLES) {
    const [user, department] = await Promise.all([
      findUserByUsername(db, r.username),
      findDepartment(db, r.department),
    ]);
    if (!user || !department) continue;
    await upsertAssignment(db, {
      userId: user.id,
      context: { type: 'department', departmentId: department.id },
      roles: r.roles,
      directPermissions: [],
      assignedBy: 'system',
      assignedAt: at,
      expiresAt:
        r.endsInDays === null ? null : new Date(now.getTime() + r.endsInDays * DAY).toISOString(),
      isActive: true,
    });
    seeded = true;
  }
  return seeded;
}
