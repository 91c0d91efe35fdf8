import { describe, expect, it } from 'vitest';
import type { UserRecord } from '../../platform/auth/user-repository';
import { pageOpenable, type OpenableRow, type WikiViewer } from './wiki-access';

const viewer = (over: Partial<WikiViewer> = {}): WikiViewer => ({
  user: { id: 'me' } as UserRecord,
  userId: 'me',
  admin: false,
  view: true,
  deleteAnywhere: false,
  manage: false,
  allDepartments: false,
  departmentIds: ['ops'],
  courses: {
    editAll: false,
    viewAll: false,
    departmentIds: [],
    participantIds: ['c1'],
    editableIds: ['c2'],
  },
  ...over,
});

const row = (over: Partial<OpenableRow> = {}): OpenableRow => ({
  status: 'published',
  created_by: 'someone',
  deleted_at: null,
  department_id: null,
  course_id: null,
  course_state: null,
  ...over,
});

// The rule of pagesVisibleSql, in memory (the SQL itself is covered by the wiki's route tests).
describe('pageOpenable', () => {
  it('opens published company pages out of the trash to whoever holds wiki.view', () => {
    expect(pageOpenable(viewer(), row())).toBe(true);
    expect(pageOpenable(viewer({ view: false }), row())).toBe(false);
    expect(pageOpenable(viewer(), row({ deleted_at: 'x' }))).toBe(false);
    expect(pageOpenable(viewer({ manage: true }), row({ deleted_at: 'x' }))).toBe(false);
  });

  it('opens drafts to their author and wiki.manage', () => {
    expect(pageOpenable(viewer(), row({ status: 'draft' }))).toBe(false);
    expect(pageOpenable(viewer(), row({ status: 'draft', created_by: 'me' }))).toBe(true);
    expect(pageOpenable(viewer({ manage: true }), row({ status: 'draft' }))).toBe(true);
  });

  it('opens department spaces to their members (or everyone’s with department.view everywhere)', () => {
    expect(pageOpenable(viewer(), row({ department_id: 'ops' }))).toBe(true);
    expect(pageOpenable(viewer(), row({ department_id: 'sales' }))).toBe(false);
    expect(pageOpenable(viewer({ allDepartments: true }), row({ department_id: 'sales' }))).toBe(
      true,
    );
  });

  it('opens course spaces whose lessons the viewer may open, by the course’s state', () => {
    const course = (id: string, state: string | null) =>
      pageOpenable(viewer(), row({ course_id: id, course_state: state }));
    expect(course('c1', 'published')).toBe(true);
    expect(course('c1', 'archived')).toBe(true);
    expect(course('c1', 'draft')).toBe(false);
    expect(course('c2', 'draft')).toBe(true);
    expect(course('c3', 'published')).toBe(false);
    expect(course('c1', null)).toBe(false);
    const editAll = viewer({ courses: { ...viewer().courses, editAll: true } });
    expect(pageOpenable(editAll, row({ course_id: 'c9', course_state: 'draft' }))).toBe(true);
  });
});
