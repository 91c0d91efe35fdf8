import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { PHONE_QUERY } from '../../../lib/use-phone';
import { buildCourseCard, buildOverview } from '../../../test/classroom-fixtures';
import { buildUser } from '../../../test/fixtures';
import { findHeading, renderApp, signedInAs } from '../../../test/render-app';

const due = {
  assignmentId: 'a-1',
  assignmentTitle: 'Trace report',
  courseId: 'course-1',
  courseTitle: 'Fibre testing with an OTDR',
  dueAt: '2025-03-10T17:00:00.000Z',
  overdue: false,
};

const graded = {
  assignmentId: 'a-0',
  assignmentTitle: 'Safety quiz',
  courseId: 'course-1',
  courseTitle: 'Fibre testing with an OTDR',
  points: 8,
  maxPoints: 10,
  gradedAt: '2025-03-02T09:00:00.000Z',
};

describe('learning management', () => {
  it("shows a learner's courses, continue, due and overdue work and recent grades", async () => {
    signedInAs(buildUser({ role: 'student' }), {
      'GET /api/me/learning': {
        body: buildOverview({
          courses: [
            buildCourseCard({
              enrolled: true,
              progress: { completedLessons: 2, totalLessons: 3, percent: 66 },
            }),
          ],
          continueLesson: {
            courseId: 'course-1',
            courseTitle: 'Fibre testing with an OTDR',
            lessonId: 'lesson-2',
            lessonTitle: 'Launch cables',
            viewedAt: '2025-03-01T09:00:00.000Z',
          },
          dueSoon: [due],
          overdue: [{ ...due, assignmentId: 'a-2', assignmentTitle: 'Splice log', overdue: true }],
          recentGrades: [graded],
        }),
      },
    });
    renderApp('/learning-management');
    await findHeading('Learning Management');
    expect(await screen.findByRole('link', { name: 'Continue Launch cables' })).toHaveAttribute(
      'href',
      '/classroom/course-1/lessons/lesson-2',
    );
    const dueSoon = screen.getByRole('region', { name: 'Due soon' });
    expect(within(dueSoon).getByRole('link', { name: 'Trace report' })).toHaveAttribute(
      'href',
      '/classroom/course-1/assignments/a-1',
    );
    const overdue = screen.getByRole('region', { name: 'Overdue' });
    expect(within(overdue).getByRole('link', { name: 'Splice log' })).toBeInTheDocument();
    expect(within(overdue).getAllByText('Overdue')).toHaveLength(2); // heading and badge
    const courses = screen.getByRole('region', { name: 'Your courses' });
    expect(
      within(courses).getByRole('progressbar', { name: 'Progress in Fibre testing with an OTDR' }),
    ).toBeInTheDocument();
    const grades = screen.getByRole('table', { name: 'Recent grades' });
    expect(within(grades).getByText('8 / 10')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Teaching' })).not.toBeInTheDocument();
  });

  it('shows a grade a card on a phone, its points beside the assignment', async () => {
    const matchMedia = window.matchMedia;
    vi.stubGlobal('matchMedia', (query: string) => ({
      ...matchMedia(query),
      matches: query === PHONE_QUERY,
    }));
    signedInAs(buildUser(), {
      'GET /api/me/learning': {
        body: buildOverview({
          recentGrades: [graded],
        }),
      },
    });
    renderApp('/learning-management');
    const list = await screen.findByRole('list', { name: 'Recent grades' });
    expect(screen.queryByRole('table', { name: 'Recent grades' })).not.toBeInTheDocument();
    const [card] = within(list).getAllByRole('listitem');
    expect(card).toHaveTextContent('Safety quiz');
    expect(card).toHaveTextContent('8 / 10');
    expect(within(card!).getByRole('link', { name: 'Fibre testing with an OTDR' })).toHaveAttribute(
      'href',
      '/classroom/course-1?tab=grades',
    );
  });

  it('shows a teacher their courses with learners and what is waiting to be graded', async () => {
    signedInAs(buildUser({ role: 'instructor' }), {
      'GET /api/me/learning': {
        body: buildOverview({
          teaching: [
            {
              courseId: 'course-1',
              courseTitle: 'Fibre testing with an OTDR',
              code: 'OTDR-101',
              state: 'published',
              learners: 12,
              toGrade: 3,
            },
            {
              courseId: 'course-2',
              courseTitle: 'Fusion splicing',
              code: 'SPL-201',
              state: 'draft',
              learners: 0,
              toGrade: 0,
            },
          ],
        }),
      },
    });
    renderApp('/learning-management');
    const teaching = await screen.findByRole('table', { name: 'Courses you teach' });
    expect(
      within(teaching).getByRole('link', { name: '3 to grade in Fibre testing with an OTDR' }),
    ).toHaveAttribute('href', '/classroom/course-1?tab=assignments');
    expect(within(teaching).getByText('Draft')).toBeInTheDocument();
    expect(within(teaching).getByText('12')).toBeInTheDocument();
    expect(screen.getByText('You are not enrolled in any course.')).toBeInTheDocument();
    expect(screen.getByText('Nothing is overdue.')).toBeInTheDocument();
  });

  it('says the course is complete instead of leading back into it', async () => {
    signedInAs(buildUser({ role: 'student' }), {
      'GET /api/me/learning': {
        body: buildOverview({
          courses: [
            buildCourseCard({
              enrolled: true,
              progress: { completedLessons: 3, totalLessons: 3, percent: 100 },
            }),
          ],
          courseComplete: { courseId: 'course-1', courseTitle: 'Fibre testing with an OTDR' },
        }),
      },
    });
    renderApp('/learning-management');
    const done = await screen.findByRole('region', {
      name: 'You have completed Fibre testing with an OTDR',
    });
    expect(within(done).getByRole('link', { name: 'Open the course' })).toHaveAttribute(
      'href',
      '/classroom/course-1',
    );
    expect(screen.queryByRole('link', { name: /^Continue/ })).not.toBeInTheDocument();
  });
});
