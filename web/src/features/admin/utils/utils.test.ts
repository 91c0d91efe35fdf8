import { describeGrant, type Grant } from '@learning-hub/core';
import { describe, expect, it } from 'vitest';
import { dayBoundary, fromLocalInput, toLocalInput } from './dates';
import { groupBySource } from './grants';
import { permissionOptions } from './permissions';

describe('groupBySource', () => {
  it('groups permissions by grant, in source order, each permission under every grant', () => {
    const role: Grant = { source: 'role', roleId: 'student' };
    const direct: Grant = { source: 'direct' };
    const inCourse: Grant = {
      source: 'context-role',
      context: { type: 'course', courseId: 'c1' },
      roleId: 'course-student',
      expiresAt: null,
    };
    const groups = groupBySource([
      { permission: 'course.view', grants: [inCourse, role] },
      { permission: 'wiki.edit', grants: [direct] },
      { permission: 'assignment.view', grants: [role] },
    ]);
    expect(groups.map((g) => [g.key, g.permissions])).toEqual([
      [describeGrant(role), ['course.view', 'assignment.view']],
      [describeGrant(direct), ['wiki.edit']],
      [describeGrant(inCourse), ['course.view']],
    ]);
  });
});

describe('dates', () => {
  it('round-trips a datetime-local value in local time', () => {
    const iso = new Date(2030, 0, 15, 9, 30).toISOString();
    expect(toLocalInput(iso)).toBe('2030-01-15T09:30');
    expect(fromLocalInput('2030-01-15T09:30')).toBe(iso);
    expect(fromLocalInput('')).toBeNull();
    expect(toLocalInput(null)).toBe('');
  });

  it('gives the first and last instant of a local day', () => {
    expect(dayBoundary('2030-01-15', 'start')).toBe(new Date(2030, 0, 15).toISOString());
    expect(dayBoundary('2030-01-15', 'end')).toBe(new Date(2030, 0, 16, 0, 0, 0, -1).toISOString());
    expect(dayBoundary('nope', 'start')).toBeUndefined();
  });
});

describe('permissionOptions', () => {
  it('groups the catalogue by resource, leaving out or disabling ids', () => {
    const groups = permissionOptions({ exclude: ['system.admin'], disabled: ['system.view'] });
    expect(groups[0]).toEqual({
      group: 'system',
      items: [
        { value: 'system.view', label: 'system.view (already held)', disabled: true },
        { value: 'system.settings', label: 'system.settings' },
      ],
    });
    expect(groups.map((g) => g.group)).toContain('nav');
  });
});
