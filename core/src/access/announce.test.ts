import { describe, expect, it } from 'vitest';
import { announceDenial, mayAnnounceToCourse, type AnnouncementAudienceRef } from './announce';
import { checkRequirement, type AccessSubject, type CheckScope } from './check';

const NOW = Date.parse('2026-11-29T12:00:00.000Z');
const checkFor =
  (subject: AccessSubject) =>
  (requirement: Parameters<typeof checkRequirement>[1], scope: CheckScope) =>
    checkRequirement(subject, requirement, { scope, now: NOW });

const audience = (parts: Partial<AnnouncementAudienceRef>): AnnouncementAudienceRef => ({
  everyone: false,
  roles: [],
  departmentIds: [],
  courseIds: [],
  userIds: [],
  ...parts,
});

/** A student who instructs one course and manages one department. */
const tina: AccessSubject = {
  id: 'tina',
  role: 'student',
  contextAssignments: [
    {
      userId: 'tina',
      context: { type: 'course', courseId: 'splicing' },
      roles: ['course-instructor'],
      directPermissions: [],
      assignedBy: 'test',
      assignedAt: '2026-01-01T00:00:00.000Z',
      expiresAt: null,
      isActive: true,
    },
    {
      userId: 'tina',
      context: { type: 'department', departmentId: 'field' },
      roles: ['department-member', 'department-manager'],
      directPermissions: [],
      assignedBy: 'test',
      assignedAt: '2026-01-01T00:00:00.000Z',
      expiresAt: null,
      isActive: true,
    },
  ],
};

describe('who may announce to whom', () => {
  it('lets an admin announce to anyone', () => {
    const admin = checkFor({ id: 'ada', role: 'admin' });
    expect(announceDenial(admin, audience({ everyone: true, roles: ['student'] }))).toBeNull();
  });

  it('scopes an instructor to the courses they edit and a manager to their departments', () => {
    const check = checkFor(tina);
    expect(
      announceDenial(check, audience({ courseIds: ['splicing'], departmentIds: ['field'] })),
    ).toBeNull();
    expect(announceDenial(check, audience({ courseIds: ['splicing', 'otdr'] }))).toBe(
      'You may announce only to courses you edit: Missing required permission: course.edit (course otdr)',
    );
    expect(announceDenial(check, audience({ departmentIds: ['support'] }))).toBe(
      'You may announce only to departments you manage: Missing required permission: department.manage (department support)',
    );
    expect(announceDenial(check, audience({ courseIds: ['splicing'], userIds: ['kim'] }))).toBe(
      'Only administrators announce to everyone, to roles or to chosen people: Missing required permission: system.admin',
    );
    expect(mayAnnounceToCourse(check, 'splicing')).toBe(true);
  });

  it('lets a system instructor announce to every course, and an expired role nowhere', () => {
    expect(mayAnnounceToCourse(checkFor({ id: 'priya', role: 'instructor' }), 'any-course')).toBe(
      true,
    );
    const lapsed: AccessSubject = {
      ...tina,
      contextAssignments: tina.contextAssignments?.map((a) => ({
        ...a,
        expiresAt: '2026-06-01T00:00:00.000Z',
      })),
    };
    expect(mayAnnounceToCourse(checkFor(lapsed), 'splicing')).toBe(false);
  });
});
