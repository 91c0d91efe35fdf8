/** Department API answers shaped exactly as the server sends them (core contracts), for the tests. */
import type { DepartmentDetail, DepartmentMember } from '@learning-hub/core';
import type { MockRoutes } from '../../test/fetch-mock';

export function buildDepartmentDetail(overrides: Partial<DepartmentDetail> = {}): DepartmentDetail {
  return {
    id: 'network-engineering',
    slug: 'network-engineering',
    name: 'Network Engineering',
    description: '<p>Designs and <strong>builds</strong> the fibre network.</p>',
    memberCount: 3,
    managers: [{ id: 'u-mia', name: 'Mia Manager' }],
    archivedAt: null,
    revision: 4,
    createdAt: '2025-01-01T09:00:00.000Z',
    courses: [
      {
        id: 'course-1',
        code: 'FIB-101',
        title: 'Fibre basics',
        status: 'published',
        enrolledMembers: 3,
        completedMembers: 1,
        averageProgress: 62.5,
      },
    ],
    library: {
      items: [
        {
          id: 'item-1',
          title: 'Splice loss budget',
          kind: 'document',
          updatedAt: '2025-03-02T10:00:00.000Z',
        },
      ],
      total: 5,
    },
    wiki: {
      spaceKey: 'department:network-engineering',
      pageCount: 4,
      pages: [{ id: 'page-1', title: 'On-call rota', updatedAt: '2025-03-03T10:00:00.000Z' }],
    },
    can: { manage: false, administer: false },
    ...overrides,
  };
}

export function buildMember(overrides: Partial<DepartmentMember> = {}): DepartmentMember {
  return {
    id: 'u-lee',
    username: 'lee',
    firstname: 'Lee',
    lastname: 'Learner',
    roles: ['department-member'],
    source: 'assignment',
    expiresAt: null,
    ...overrides,
  };
}

export const MIA = buildMember({
  id: 'u-mia',
  username: 'mia',
  firstname: 'Mia',
  lastname: 'Manager',
  roles: ['department-member', 'department-manager'],
  expiresAt: '2026-12-31T12:00:00.000Z',
});
export const SAM = buildMember({
  id: 'user-student',
  username: 'student',
  firstname: 'Sam',
  lastname: 'Student',
  source: 'account',
});
export const LEE = buildMember();

export function memberList(members: DepartmentMember[], total = members.length) {
  return { items: members, total, page: 1, pageSize: 20 };
}

/**
 * The routes one department's page asks: the name lookup, the department, its members (only the
 * managers when `role` is asked).
 */
export function departmentRoutes(
  detail: DepartmentDetail = buildDepartmentDetail(),
  members: DepartmentMember[] = [MIA, LEE, SAM],
): MockRoutes {
  const base = `/api/departments/${detail.id}`;
  return {
    [`GET /api/departments/lookup/${detail.slug}`]: { body: { id: detail.id, slug: detail.slug } },
    [`GET ${base}`]: { body: detail },
    [`GET ${base}/members`]: (request) => {
      const managersOnly = new URLSearchParams(request.search).get('role') === 'department-manager';
      return {
        body: memberList(
          managersOnly ? members.filter((m) => m.roles.includes('department-manager')) : members,
        ),
      };
    },
  };
}
