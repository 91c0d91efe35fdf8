import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  checkRole,
  contextKey,
  describeGrant,
  explainPermission,
  parseContextKey,
  RoleRegistry,
  type AccessContext,
  type PermissionId,
  type Role,
} from '.';

const role = (id: string, inherits: string | null, permissions: PermissionId[]): Role => ({
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

afterEach(() => vi.restoreAllMocks());

describe('custom roles', () => {
  const registry = new RoleRegistry([
    role('senior-instructor', 'instructor', ['analytics.export']),
    role('wiki-editor', 'student', ['wiki.create']),
    role('loop-a', 'loop-b', ['wiki.edit']),
    role('loop-b', 'loop-a', ['wiki.delete']),
    role('orphan', 'vanished', ['library.upload']),
    role('admin', null, []),
  ]);

  it('inherit everything from their parent and add their own', () => {
    const perms = registry.permissionsOf('senior-instructor');
    expect(perms).toContain('analytics.export');
    expect(perms).toContain('course.create');
    expect(perms).toContain('course.view');
    expect(new Set(perms).size).toBe(perms.length);
  });

  it('hold the roles they inherit from, for role requirements', () => {
    expect(registry.holds('senior-instructor', 'instructor')).toBe(true);
    expect(registry.holds('senior-instructor', 'student')).toBe(true);
    expect(registry.holds('wiki-editor', 'instructor')).toBe(false);
    expect(checkRole({ role: 'wiki-editor' }, ['instructor', 'admin'], registry)).toEqual({
      allowed: false,
      reason: 'Required role: instructor or admin, but user has role: wiki-editor',
    });
    expect(checkRole({ role: 'senior-instructor' }, ['instructor'], registry)).toEqual({
      allowed: true,
    });
  });

  it('cannot replace a system role, and survive cycles and missing parents', () => {
    expect(registry.get('admin')?.isSystemRole).toBe(true);
    expect(registry.permissionsOf('loop-a')).toEqual(
      expect.arrayContaining(['wiki.edit', 'wiki.delete']),
    );
    expect(registry.permissionsOf('orphan')).toEqual(['library.upload']);
    expect(registry.chain('loop-a').map((r) => r.id)).toEqual(['loop-a', 'loop-b']);
  });

  it('lists system roles first', () => {
    expect(
      registry
        .all()
        .slice(0, 3)
        .map((r) => r.id)
        .sort(),
    ).toEqual(['admin', 'instructor', 'student']);
  });
});

describe('explanations in words', () => {
  const registry = new RoleRegistry([
    role('senior-instructor', 'instructor', ['analytics.export']),
  ]);
  const course: AccessContext = { type: 'course', courseId: 'otdr-101' };
  const subject = {
    id: 'u1',
    role: 'senior-instructor',
    directPermissions: ['library.manage'],
    contextAssignments: [
      {
        userId: 'u1',
        context: course,
        roles: ['course-assistant' as const],
        directPermissions: ['course.delete' as const],
        assignedBy: 'admin',
        assignedAt: '2026-01-01T00:00:00.000Z',
        expiresAt: '2027-01-01T00:00:00.000Z',
        isActive: true,
      },
      {
        userId: 'u1',
        context: { type: 'system' as const },
        roles: [],
        directPermissions: ['grade.export' as const],
        assignedBy: 'admin',
        assignedAt: '2026-01-01T00:00:00.000Z',
        expiresAt: null,
        isActive: true,
      },
    ],
  };
  const now = Date.parse('2026-11-22T00:00:00.000Z');
  const why = (p: string, scope?: AccessContext) =>
    explainPermission(subject, p, { roles: registry, now, scope }).grants.map(describeGrant);

  it('names the role, the inherited role, direct and context grants', () => {
    expect(why('analytics.export')).toEqual(['role senior-instructor']);
    expect(why('course.view')).toEqual(['role student, inherited by senior-instructor']);
    expect(why('library.manage')).toEqual(['direct grant']);
    expect(why('course.delete', course)).toEqual([
      'direct grant in course otdr-101 (until 2027-01-01T00:00:00.000Z)',
    ]);
    expect(why('course.view_participants', course)).toEqual([
      'role instructor, inherited by senior-instructor',
      'context role course-assistant in course otdr-101 (until 2027-01-01T00:00:00.000Z)',
    ]);
    expect(why('grade.export', course)).toEqual([
      'role instructor, inherited by senior-instructor',
      'direct grant in parent context system',
    ]);
  });
});

describe('context keys', () => {
  it.each<AccessContext>([
    { type: 'system' },
    { type: 'course', courseId: 'otdr-101' },
    { type: 'department', departmentId: 'field-operations' },
    { type: 'user', userId: '3f1c' },
    { type: 'custom', contextType: 'region', contextId: 'north' },
  ])('round-trips %j', (context) => {
    expect(parseContextKey(contextKey(context))).toEqual(context);
  });

  it.each(['', 'course', 'course:', 'planet:mars', 'custom:region', 'custom:region:'])(
    'rejects %j',
    (key) => {
      expect(parseContextKey(key)).toBeNull();
    },
  );
});
