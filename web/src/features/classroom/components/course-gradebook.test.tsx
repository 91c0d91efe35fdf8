import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { AppProviders } from '../../../app/providers';
import { createQueryClient } from '../../../app/query-client';
import { buildGradebook } from '../../../test/assignment-fixtures';
import { buildCourseDetail, learnerViewer, teacherViewer } from '../../../test/classroom-fixtures';
import { buildUser } from '../../../test/fixtures';
import { signedInAs } from '../../../test/render-app';
import { CourseGradebook } from './course-gradebook';

function renderTab(ui: ReactElement) {
  const router = createMemoryRouter([{ path: '*', element: ui }]);
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({ queries: { retry: false }, mutations: { retry: false } });
  const user = userEvent.setup();
  render(
    <AppProviders queryClient={queryClient} env="test">
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { user };
}

describe('classroom: gradebook', () => {
  it('shows a learner only their own row, without search, overrides or export', async () => {
    signedInAs(buildUser(), { 'GET /api/courses/course-1/grades': { body: buildGradebook() } });
    renderTab(<CourseGradebook course={buildCourseDetail({ viewer: learnerViewer() })} />);
    const table = await screen.findByRole('table', { name: 'Your grades' });
    const rows = within(table).getAllByRole('row');
    expect(rows[1]).toHaveTextContent('Trace report15 / 20Late');
    expect(rows[2]).toHaveTextContent('Splice logNot graded or not released yet');
    expect(within(table).getByRole('rowheader', { name: 'Total' }).parentElement).toHaveTextContent(
      '15 (50%)',
    );
    expect(screen.queryByRole('table', { name: 'Gradebook' })).not.toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Search learners' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Export CSV' })).not.toBeInTheDocument();
  });

  it('shows graders every learner, exports CSV and overrides a cell', async () => {
    const fetchMock = signedInAs(buildUser({ role: 'instructor' }), {
      'GET /api/courses/course-1/grades': { body: buildGradebook() },
      'GET /api/courses/course-1/grades.csv': { body: 'csv' },
      'PUT /api/courses/course-1/grades/assignment-2/user-student': {
        body: {
          assignmentId: 'assignment-2',
          userId: 'user-student',
          submissionId: null,
          points: 8,
          maxPoints: 10,
          feedbackHtml: '',
          gradedBy: 'user-instructor',
          gradedByName: 'Ines Instructor',
          gradedAt: '2025-03-05T09:00:00.000Z',
          override: true,
          released: true,
          revision: 1,
        },
      },
    });
    URL.createObjectURL = () => 'blob:grades';
    URL.revokeObjectURL = () => undefined;
    const { user } = renderTab(
      <CourseGradebook course={buildCourseDetail({ viewer: teacherViewer() })} />,
    );
    const table = await screen.findByRole('table', { name: 'Gradebook' });
    const row = within(table).getAllByRole('row')[1]!;
    expect(row).toHaveTextContent('Sam Student');
    expect(row).toHaveTextContent('50%');
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(fetchMock.callsTo('GET /api/courses/course-1/grades.csv')).toHaveLength(1);

    await user.click(
      within(row).getByRole('button', { name: 'Override Sam Student, Splice log: no grade' }),
    );
    const dialog = await screen.findByRole('dialog', {
      name: 'Override grade: Sam Student, Splice log',
    });
    const points = within(dialog).getByRole('textbox', { name: /Points/ });
    await user.type(points, '8');
    await user.click(within(dialog).getByRole('button', { name: 'Save override' }));
    expect(await screen.findByText('Grade overridden')).toBeInTheDocument();
    expect(
      fetchMock.callsTo('PUT /api/courses/course-1/grades/assignment-2/user-student')[0]?.body,
    ).toEqual({ points: 8 });
  });

  it('shows graders whether each assignment is released; hides export and overrides without those permissions', async () => {
    const book = buildGradebook();
    book.assignments[1] = { ...book.assignments[1]!, gradesReleased: false, unreleasedGrades: 3 };
    signedInAs(buildUser({ role: 'instructor' }), {
      'GET /api/courses/course-1/grades': { body: book },
    });
    renderTab(
      <CourseGradebook
        course={buildCourseDetail({
          viewer: teacherViewer({ canExportGrades: false, canEditGrades: false }),
        })}
      />,
    );
    const table = await screen.findByRole('table', { name: 'Gradebook' });
    expect(within(table).getByRole('columnheader', { name: /^Trace report/ })).toHaveTextContent(
      'Trace reportout of 20Grades released',
    );
    expect(within(table).getByRole('columnheader', { name: /^Splice log/ })).toHaveTextContent(
      'Splice logout of 103 grades not released',
    );
    expect(within(table).queryByRole('button')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Export CSV' })).not.toBeInTheDocument();
  });
});
