import type { Lesson } from '@learning-hub/core';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  buildCourseDetail,
  buildLesson,
  learnerViewer,
  teacherViewer,
} from '../../../test/classroom-fixtures';
import { buildUser } from '../../../test/fixtures';
import { findHeading, renderApp, signedInAs } from '../../../test/render-app';

const student = buildUser({ role: 'student' });
const enrolledCourse = buildCourseDetail({ viewer: learnerViewer(), enrolled: true });

describe('lesson reader', () => {
  it('shows the lesson with breadcrumbs, duration, body, outline and neighbours', async () => {
    signedInAs(student, {
      'GET /api/courses/course-1': { body: enrolledCourse },
      'GET /api/courses/course-1/lessons/lesson-2': { body: buildLesson() },
    });
    renderApp('/classroom/course-1/lessons/lesson-2');
    await findHeading('Launch cables');
    const crumbs = screen.getAllByRole('link', { name: 'Fibre testing with an OTDR' });
    expect(crumbs[0]).toHaveAttribute('href', '/classroom/course-1');
    const article = screen.getByRole('article', { name: 'Launch cables' });
    expect(within(article).getByText('1 h 30 min')).toBeInTheDocument();
    expect(within(article).getByRole('heading', { level: 2, name: 'Why' })).toBeInTheDocument();
    expect(screen.getByText('The dead zone hides the first connector.')).toBeInTheDocument();

    const outline = screen.getByRole('navigation', { name: 'Course outline' });
    expect(within(outline).getByRole('link', { name: /Launch cables/ })).toHaveAttribute(
      'aria-current',
      'page',
    );
    expect(
      screen.getByRole('link', { name: 'Previous lesson: What an OTDR measures' }),
    ).toHaveAttribute('href', '/classroom/course-1/lessons/lesson-1');
    expect(screen.getByRole('link', { name: 'Next lesson: Reading events' })).toHaveAttribute(
      'href',
      '/classroom/course-1/lessons/lesson-3',
    );
    // On a phone the outline opens in a drawer (the button is hidden from md up, as here).
    // Hidden elements have no accessible name, so it is found by its text.
    expect(screen.getByText('Outline').closest('button')).toHaveClass('mantine-hidden-from-md');
  });

  it('marks the lesson complete and not complete again', async () => {
    let lesson: Lesson = buildLesson();
    const fetch = signedInAs(student, {
      'GET /api/courses/course-1': { body: enrolledCourse },
      'GET /api/courses/course-1/lessons/lesson-2': () => ({ body: lesson }),
      'PUT /api/courses/course-1/lessons/lesson-2/progress': (request) => {
        const { completed } = request.body as { completed: boolean };
        lesson = { ...lesson, completed };
        return {
          body: {
            lessonId: 'lesson-2',
            completed,
            progress: {
              completedLessons: completed ? 1 : 0,
              totalLessons: 3,
              percent: completed ? 33 : 0,
            },
          },
        };
      },
    });
    const { user } = renderApp('/classroom/course-1/lessons/lesson-2');
    await findHeading('Launch cables');
    await user.click(screen.getByRole('button', { name: 'Mark complete' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Completed');
    const outline = screen.getByRole('navigation', { name: 'Course outline' });
    expect(within(outline).getAllByRole('img', { name: 'Completed' })).toHaveLength(1);

    await user.click(screen.getByRole('button', { name: 'Mark not complete' }));
    await waitFor(() => expect(screen.queryByRole('status')).not.toBeInTheDocument());
    expect(
      fetch.callsTo('PUT /api/courses/course-1/lessons/lesson-2/progress').map((c) => c.body),
    ).toEqual([{ completed: true }, { completed: false }]);
  });

  it('offers no progress button to someone who teaches the course', async () => {
    signedInAs(buildUser({ role: 'instructor' }), {
      'GET /api/courses/course-1': { body: buildCourseDetail({ viewer: teacherViewer() }) },
      'GET /api/courses/course-1/lessons/lesson-2': {
        body: buildLesson({ previousLessonId: null }),
      },
    });
    renderApp('/classroom/course-1/lessons/lesson-2');
    await findHeading('Launch cables');
    expect(screen.queryByRole('button', { name: 'Mark complete' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Previous lesson/ })).not.toBeInTheDocument();
  });

  it("sends a viewer who may not read the lesson to the course, with the server's reason", async () => {
    signedInAs(student, {
      'GET /api/courses/course-1': { body: buildCourseDetail() },
      'GET /api/courses/course-1/lessons/lesson-2': {
        status: 403,
        body: { code: 'FORBIDDEN', message: 'Enrol in this course to open its lessons.' },
      },
    });
    const { router } = renderApp('/classroom/course-1/lessons/lesson-2');
    await findHeading('Fibre testing with an OTDR');
    expect(router.state.location.pathname).toBe('/classroom/course-1');
    expect(
      screen.getByText(
        'You do not have access to this lesson: Enrol in this course to open its lessons.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Enrol' })).toBeInTheDocument();
  });
});
