import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { AppProviders } from '../app/providers';
import { createQueryClient } from '../app/query-client';
import { buildAssignment } from '../test/assignment-fixtures';
import { buildCourseDetail, learnerViewer, teacherViewer } from '../test/classroom-fixtures';
import { buildUser } from '../test/fixtures';
import { signedInAs } from '../test/render-app';
import { CourseAssignments } from './course-assignments';

/** The component on its own (the course page's Assignments tab and the creator's step hold it). */
function renderTab(ui: ReactElement) {
  const router = createMemoryRouter([{ path: '*', element: ui }], {
    initialEntries: ['/classroom/course-1'],
  });
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({ queries: { retry: false }, mutations: { retry: false } });
  const user = userEvent.setup();
  render(
    <AppProviders queryClient={queryClient} env="test">
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { user, router };
}

const teacherCourse = buildCourseDetail({ viewer: teacherViewer() });
const list = (assignments = [buildAssignment({ toGrade: 3 })]) => ({ body: { assignments } });

describe('classroom: assignments tab', () => {
  it('shows a learner their status and no editing', async () => {
    signedInAs(buildUser(), {
      'GET /api/courses/course-1/assignments': list([
        buildAssignment({
          mine: { status: 'graded', attemptsUsed: 1, points: 17, late: true },
        }),
      ]),
    });
    renderTab(<CourseAssignments course={buildCourseDetail({ viewer: learnerViewer() })} />);
    const table = await screen.findByRole('table', { name: 'Assignments' });
    expect(within(table).getByRole('link', { name: 'Trace report' })).toHaveAttribute(
      'href',
      '/classroom/course-1/assignments/assignment-1',
    );
    expect(within(table).getByText('Graded: 17 / 20')).toBeInTheDocument();
    expect(within(table).getByText('Late')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New assignment' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Edit/ })).not.toBeInTheDocument();
  });

  it('creates an assignment after checking the title', async () => {
    const fetchMock = signedInAs(buildUser({ role: 'instructor' }), {
      'GET /api/courses/course-1/assignments': list(),
      'POST /api/courses/course-1/assignments': {
        status: 201,
        body: {
          ...buildAssignment({ id: 'a-2', title: 'Splice log' }),
          courseTitle: 'x',
          attachments: [],
        },
      },
    });
    const { user } = renderTab(<CourseAssignments course={teacherCourse} />);
    expect(await screen.findByText('3 to grade')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'New assignment' }));
    const dialog = await screen.findByRole('dialog', { name: 'New assignment' });
    await user.click(within(dialog).getByRole('button', { name: 'Create assignment' }));
    expect(await within(dialog).findByText('Enter the title')).toBeInTheDocument();
    expect(fetchMock.callsTo('POST /api/courses/course-1/assignments')).toHaveLength(0);

    await user.type(within(dialog).getByRole('textbox', { name: /^Title/ }), 'Splice log');
    const points = within(dialog).getByRole('textbox', { name: 'Points' });
    await user.clear(points);
    await user.type(points, '10');
    await user.click(within(dialog).getByRole('checkbox', { name: 'PDF' }));
    await user.type(within(dialog).getByRole('textbox', { name: /Attempts allowed/ }), '3');
    await user.click(within(dialog).getByRole('button', { name: 'Create assignment' }));
    await waitFor(() =>
      expect(fetchMock.callsTo('POST /api/courses/course-1/assignments')).toHaveLength(1),
    );
    expect(fetchMock.callsTo('POST /api/courses/course-1/assignments')[0]?.body).toEqual({
      title: 'Splice log',
      instructionsHtml: '',
      dueAt: null,
      points: 10,
      submissionKinds: ['text', 'file'],
      fileKinds: ['pdf'],
      maxFileBytes: 20 * 1024 * 1024,
      latePolicy: 'mark_late',
      maxAttempts: 3,
    });
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'New assignment' })).not.toBeInTheDocument(),
    );
  });

  it('edits an assignment with its current values', async () => {
    const fetchMock = signedInAs(buildUser({ role: 'instructor' }), {
      'GET /api/courses/course-1/assignments': list(),
      'PATCH /api/assignments/assignment-1': {
        body: {
          ...buildAssignment({ title: 'Trace report v2' }),
          courseTitle: 'x',
          attachments: [],
        },
      },
    });
    const { user } = renderTab(<CourseAssignments course={teacherCourse} />);
    await user.click(await screen.findByRole('button', { name: 'Edit Trace report' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Trace report' });
    const title = within(dialog).getByRole('textbox', { name: /^Title/ });
    await user.clear(title);
    await user.type(title, 'Trace report v2');
    await user.click(within(dialog).getByRole('button', { name: 'Save assignment' }));
    await waitFor(() =>
      expect(fetchMock.callsTo('PATCH /api/assignments/assignment-1')).toHaveLength(1),
    );
    expect(fetchMock.callsTo('PATCH /api/assignments/assignment-1')[0]?.body).toMatchObject({
      title: 'Trace report v2',
      points: 20,
      fileKinds: ['pdf', 'image'],
      maxFileBytes: 10 * 1024 * 1024,
      maxAttempts: 2,
      dueAt: '2025-04-01T16:00:00.000Z',
    });
  });

  it("shows the server's reason when an assignment cannot be deleted", async () => {
    const fetchMock = signedInAs(buildUser({ role: 'instructor' }), {
      'GET /api/courses/course-1/assignments': list(),
      'DELETE /api/assignments/assignment-1': {
        status: 409,
        body: { code: 'CONFLICT', message: 'This assignment has submissions or grades.' },
      },
    });
    const { user } = renderTab(<CourseAssignments course={teacherCourse} />);
    await user.click(await screen.findByRole('button', { name: 'Delete Trace report' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Trace report?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete assignment' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'This assignment has submissions or grades.',
    );
    expect(fetchMock.callsTo('DELETE /api/assignments/assignment-1')).toHaveLength(1);
  });
});
