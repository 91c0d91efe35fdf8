import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import dayjs from 'dayjs';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { AppProviders } from '../../../app/providers';
import { createQueryClient } from '../../../app/query-client';
import { buildAssignment } from '../../../test/assignment-fixtures';
import { buildCourseDetail, learnerViewer, teacherViewer } from '../../../test/classroom-fixtures';
import { buildUser, listOf } from '../../../test/fixtures';
import { signedInAs } from '../../../test/render-app';
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
const list = (assignments = [buildAssignment({ toGrade: 3 })]) => ({ body: listOf(assignments) });

describe('classroom: assignments tab', () => {
  it('shows a learner their status and no editing', async () => {
    signedInAs(buildUser(), {
      'GET /api/courses/course-1/assignments': list([
        buildAssignment({
          mine: { status: 'graded', attemptsUsed: 1, points: 17, late: true },
        }),
        // Past its due date and not handed in.
        buildAssignment({
          id: 'assignment-2',
          title: 'Splice log',
          mine: { status: 'draft', attemptsUsed: 0, points: null, late: false },
        }),
        buildAssignment({
          id: 'assignment-3',
          title: 'Safety quiz',
          dueAt: new Date(Date.now() + 86_400_000).toISOString(),
          mine: { status: 'none', attemptsUsed: 0, points: null, late: false },
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
    // Overdue is said in words, only for work past its date and not handed in.
    const [, graded, overdue, upcoming] = within(table).getAllByRole('row');
    expect(graded).not.toHaveTextContent('Overdue');
    expect(overdue).toHaveTextContent('Overdue');
    expect(upcoming).not.toHaveTextContent('Overdue');
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
    // A day picked is due at the end of that day.
    await user.click(within(dialog).getByRole('button', { name: 'Due date and time' }));
    // The open calendar is a named dialog.
    expect(await screen.findByRole('dialog', { name: 'Choose the due date' })).toBeInTheDocument();
    const day = dayjs().date(15);
    await user.click(await screen.findByRole('button', { name: day.format('D MMMM YYYY') }));
    expect(within(dialog).getByRole('button', { name: /^Due date and time/ })).toHaveTextContent(
      `${day.format('YYYY-MM-DD')} 23:59`,
    );
    // A new assignment releases its grades as they are saved, unless told otherwise.
    expect(
      within(dialog).getByRole('switch', { name: /^Release grades when saved/ }),
    ).toBeChecked();
    await user.click(within(dialog).getByRole('button', { name: 'Create assignment' }));
    await waitFor(() =>
      expect(fetchMock.callsTo('POST /api/courses/course-1/assignments')).toHaveLength(1),
    );
    expect(fetchMock.callsTo('POST /api/courses/course-1/assignments')[0]?.body).toEqual({
      title: 'Splice log',
      instructionsHtml: '',
      dueAt: dayjs(`${dayjs().date(15).format('YYYY-MM-DD')} 23:59`).toISOString(),
      points: 10,
      submissionKinds: ['text', 'file'],
      fileKinds: ['pdf'],
      maxFileBytes: 20 * 1024 * 1024,
      latePolicy: 'mark_late',
      maxAttempts: 3,
      releaseOnSave: true,
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
    // Its date has passed: said, and the form still saves.
    const due = within(dialog).getByRole('button', { name: /^Due date and time/ });
    expect(due).toHaveAccessibleDescription('This date is in the past.');
    // Only the days of the month shown can be picked (1 April 2025 is a Tuesday; the grid's
    // Monday 31 March is not offered).
    await user.click(due);
    expect(await screen.findByRole('button', { name: '30 April 2025' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '31 March 2025' })).not.toBeInTheDocument();
    await user.keyboard('{Escape}');
    const title = within(dialog).getByRole('textbox', { name: /^Title/ });
    await user.clear(title);
    await user.type(title, 'Trace report v2');
    // An existing assignment keeps its own choice (off: grades released by hand); turned on here.
    const release = within(dialog).getByRole('switch', { name: /^Release grades when saved/ });
    expect(release).not.toBeChecked();
    await user.click(release);
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
      releaseOnSave: true,
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
