import { RoleRegistry, type Role } from '@learning-hub/core';
import { describe, expect, it } from 'vitest';
import { mapAccess } from '../identity-mapping';
import { escapeFilterValue, groupName } from './ldap';
import type { Identity } from './types';

describe('LDAP filter escaping (RFC 4515)', () => {
  it.each([
    ['alice', 'alice'],
    ['*', '\\2a'],
    [')(uid=*', '\\29\\28uid=\\2a'],
    ['a\\b', 'a\\5cb'],
    ['nul\u0000byte', 'nul\\00byte'],
    ['(|(objectClass=*))', '\\28|\\28objectClass=\\2a\\29\\29'],
  ])('%j → %j', (input, escaped) => {
    expect(escapeFilterValue(input)).toBe(escaped);
  });
});

describe('group names from DNs', () => {
  it('takes the first RDN value when it is the naming attribute', () => {
    expect(groupName('cn=hub-admins,ou=groups,dc=fiberco,dc=example', 'cn')).toBe('hub-admins');
    expect(groupName('CN=Field Ops\\, North,OU=Groups', 'cn')).toBe('Field Ops, North');
    expect(groupName('ou=crews,dc=x', 'cn')).toBe('ou=crews,dc=x');
    expect(groupName('cn=a,dc=x', 'dn')).toBe('cn=a,dc=x');
  });
});

describe('mapping groups to roles and context roles', () => {
  const trainer: Role = {
    id: 'field-trainer',
    name: 'field-trainer',
    displayName: 'Field trainer',
    description: '',
    permissions: [],
    inherits: 'instructor',
    context: 'global',
    isSystemRole: false,
    priority: 60,
  };
  const roles = new RoleRegistry([trainer]);
  const identity = (groups: string[]): Identity => ({
    method: 'ldap',
    providerId: 'corp',
    externalId: 'uid=x',
    username: 'x',
    email: null,
    firstname: 'X',
    lastname: 'Y',
    department: null,
    groups,
  });
  const rules = {
    roleMapping: [
      { group: 'hub-instructors', role: 'instructor' },
      { group: 'hub-admins', role: 'admin' },
      { group: 'trainers', role: 'field-trainer' },
      { group: 'ghosts', role: 'no-such-role' },
    ],
    contextMapping: [
      {
        group: 'field-operations',
        context: { type: 'department' as const, departmentId: 'field-operations' },
        roles: ['department-member' as const],
      },
      {
        group: 'FIELD-LEADS',
        context: { type: 'department' as const, departmentId: 'field-operations' },
        roles: ['department-manager' as const],
      },
      {
        group: 'otdr-assistants',
        context: { type: 'course' as const, courseId: 'otdr-101' },
        roles: ['course-assistant' as const],
      },
    ],
    defaultRole: 'student',
    requireMappedGroup: false,
  };

  it('takes the highest-priority mapped role, case-insensitively', () => {
    expect(mapAccess(identity(['HUB-INSTRUCTORS', 'hub-admins']), rules, roles).role).toBe('admin');
    expect(mapAccess(identity(['hub-instructors', 'trainers']), rules, roles).role).toBe(
      'field-trainer',
    );
    expect(mapAccess(identity(['ghosts']), rules, roles)).toMatchObject({
      role: 'student',
      matched: true,
    });
  });

  it('merges the context roles of several groups for one context', () => {
    const mapped = mapAccess(
      identity(['field-operations', 'field-leads', 'otdr-assistants']),
      rules,
      roles,
    );
    expect(mapped.assignments).toEqual([
      {
        context: { type: 'department', departmentId: 'field-operations' },
        roles: ['department-manager', 'department-member'],
      },
      { context: { type: 'course', courseId: 'otdr-101' }, roles: ['course-assistant'] },
    ]);
  });

  it('falls back to the default role for a user in no mapped group', () => {
    expect(mapAccess(identity(['canteen']), rules, roles)).toEqual({
      role: 'student',
      assignments: [],
      matched: false,
    });
    expect(mapAccess(identity([]), { ...rules, defaultRole: 'vanished' }, roles).role).toBe(
      'student',
    );
  });
});
