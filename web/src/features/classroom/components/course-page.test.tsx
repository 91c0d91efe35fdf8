import type { CourseDetail } from '@learning-hub/core';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  buildCourseDetail,
  buildViewer,
  learnerViewer,
  teacherViewer,
} from '../../../test/classroom-fixtures';
import { buildUser, listOf } from '../../../test/fixtures';
import { findHeading, renderApp, signedInAs } from '../../../test/render-app';

const student = buildUser({ role: 'student' });
const instructor = buildUser({ role: 'instructor' });
const COURSE = 'GET /api/courses/course-1';

const tabNames = () => screen.getAllByRole('tab').map((t) => t.textContent);

describe('course page', () => {
  it('shows a course to a visitor: header, summary, outline without links, and Enrol', async () => {
    let course: CourseDetail = buildCourseDetail({
      capacity: 20,
      startsAt: '2025-03-01T09:00:00.000Z',
      endsAt: '2025-06-30T09:00:00.000Z',
    });
    const fetch = signedInAs(student, {
      [COURSE]: () => ({ body: course }),
      'POST /api/courses/course-1/enrolment': () => {
        course = buildCourseDetail({
          viewer: learnerViewer(),
          enrolled: true,
          progress: { completedLessons: 0, totalLessons: 3, percent: 0 },
        });
        return { body: { courseId: 'course-1', userId: student.id, enrolled: true, endsAt: null } };
      },
    });
    const { user } = renderApp('/classroom/course-1');
    await findHeading('Fibre testing with an OTDR');
    expect(screen.getByText('OTDR-101')).toBeInTheDocument();
    expect(screen.getByText('Published')).toBeInTheDocument();
    expect(screen.getByText('4 of 20 places taken')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Summary' })).toHaveTextContent(
      'Reading traces, finding faults.',
    );
    expect(tabNames()).toEqual(['Outline']);
    expect(screen.getByText('Enrol to read the lessons.')).toBeInTheDocument();
    expect(screen.getByText('What an OTDR measures')).not.toHaveAttribute('href');
    expect(screen.getByText('1 h 30 min')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Edit course' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Enrol' }));
    expect(await screen.findByText('You are enrolled.')).toBeInTheDocument();
    expect(fetch.callsTo('POST /api/courses/course-1/enrolment')[0]?.body).toEqual({});
    expect(tabNames()).toEqual(['Outline', 'Assignments', 'Grades']);
    expect(screen.getByRole('link', { name: 'What an OTDR measures' })).toHaveAttribute(
      'href',
      '/classroom/course-1/lessons/lesson-1',
    );
    expect(screen.getByRole('link', { name: 'Start' })).toHaveAttribute(
      'href',
      '/classroom/course-1/lessons/lesson-1',
    );
  });

  it('enrols with the key in a dialog and shows why a wrong key is refused', async () => {
    const fetch = signedInAs(student, {
      [COURSE]: { body: buildCourseDetail({ enrolmentMode: 'key' }) },
      'POST /api/courses/course-1/enrolment': (request) =>
        (request.body as { key?: string }).key === 'fibre'
          ? { body: { courseId: 'course-1', userId: student.id, enrolled: true, endsAt: null } }
          : {
              status: 403,
              body: { code: 'FORBIDDEN', message: 'That enrolment key is not right.' },
            },
    });
    const { user } = renderApp('/classroom/course-1');
    await findHeading('Fibre testing with an OTDR');
    await user.click(screen.getByRole('button', { name: 'Enrol with key' }));
    const dialog = await screen.findByRole('dialog', { name: 'Enrol with the key' });
    await user.type(within(dialog).getByLabelText(/Enrolment key/), 'copper');
    await user.click(within(dialog).getByRole('button', { name: 'Enrol' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'That enrolment key is not right.',
    );
    await user.clear(within(dialog).getByLabelText(/Enrolment key/));
    await user.type(within(dialog).getByLabelText(/Enrolment key/), 'fibre');
    await user.click(within(dialog).getByRole('button', { name: 'Enrol' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(fetch.callsTo('POST /api/courses/course-1/enrolment').map((c) => c.body)).toEqual([
      { key: 'copper' },
      { key: 'fibre' },
    ]);
  });

  it("says why enrolling is not possible, in the server's words", async () => {
    signedInAs(student, {
      [COURSE]: {
        body: buildCourseDetail({
          viewer: buildViewer({ canEnrol: false, enrolBlockedReason: 'The course is full.' }),
        }),
      },
    });
    renderApp('/classroom/course-1');
    await findHeading('Fibre testing with an OTDR');
    expect(screen.getByText('The course is full.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Enrol/ })).not.toBeInTheDocument();
  });

  it('continues at the next unfinished lesson, and says when every lesson is done', async () => {
    const detail = buildCourseDetail({
      viewer: learnerViewer(),
      enrolled: true,
      // Lesson 2 was opened last and is done: the server says to go on with lesson 3.
      lastLessonId: 'lesson-2',
      nextLessonId: 'lesson-3',
      progress: { completedLessons: 2, totalLessons: 3, percent: 66 },
    });
    signedInAs(student, { [COURSE]: { body: detail } });
    const view = renderApp('/classroom/course-1');
    await findHeading('Fibre testing with an OTDR');
    expect(screen.getByRole('link', { name: 'Continue' })).toHaveAttribute(
      'href',
      '/classroom/course-1/lessons/lesson-3',
    );
    view.unmount();

    signedInAs(student, {
      [COURSE]: {
        body: {
          ...detail,
          lastLessonId: 'lesson-3',
          nextLessonId: null,
          progress: { completedLessons: 3, totalLessons: 3, percent: 100 },
        },
      },
    });
    renderApp('/classroom/course-1');
    await findHeading('Fibre testing with an OTDR');
    expect(screen.getByText('You have completed this course.')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Continue' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Start' })).not.toBeInTheDocument();
  });

  it('lets a learner continue, see completed lessons and unenrol after confirming', async () => {
    const detail = buildCourseDetail({
      viewer: learnerViewer({ enrolmentEndsAt: '2025-12-31T12:00:00.000Z' }),
      enrolled: true,
      lastLessonId: 'lesson-2',
      nextLessonId: 'lesson-2',
      progress: { completedLessons: 1, totalLessons: 3, percent: 33 },
    });
    detail.sections[0]!.lessons[0]!.completed = true;
    const fetch = signedInAs(student, {
      [COURSE]: { body: detail },
      'DELETE /api/courses/course-1/enrolment': { status: 204 },
    });
    const { user } = renderApp('/classroom/course-1');
    await findHeading('Fibre testing with an OTDR');
    expect(screen.getByRole('link', { name: 'Continue' })).toHaveAttribute(
      'href',
      '/classroom/course-1/lessons/lesson-2',
    );
    expect(screen.getByRole('progressbar', { name: 'Your progress' })).toBeInTheDocument();
    expect(screen.getByText('33% · 1 of 3 lessons complete')).toBeInTheDocument();
    expect(screen.getAllByRole('img', { name: 'Completed' })).toHaveLength(1);
    expect(screen.getAllByRole('img', { name: 'Not completed' })).toHaveLength(2);
    expect(screen.getByText(/You are enrolled until/)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Unenrol' }));
    const dialog = await screen.findByRole('dialog', { name: 'Unenrol from this course?' });
    expect(fetch.callsTo('DELETE /api/courses/course-1/enrolment')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Unenrol' }));
    await waitFor(() =>
      expect(fetch.callsTo('DELETE /api/courses/course-1/enrolment')).toHaveLength(1),
    );
  });

  it('gives a teacher the edit link and every tab, addressable by ?tab=', async () => {
    signedInAs(instructor, {
      [COURSE]: { body: buildCourseDetail({ viewer: teacherViewer(), state: 'draft' }) },
      'GET /api/courses/course-1/participants': { body: { ...listOf([]) } },
    });
    const { user, router } = renderApp('/classroom/course-1?tab=participants');
    await findHeading('Fibre testing with an OTDR');
    expect(screen.getByText('Draft')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Edit course' })).toHaveAttribute(
      'href',
      '/course-creator?course=course-1',
    );
    expect(tabNames()).toEqual(['Outline', 'Assignments', 'Grades', 'Participants']);
    expect(screen.getByRole('tab', { name: 'Participants' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    expect(await screen.findByText('Nobody takes part in this course yet.')).toBeInTheDocument();

    await user.click(screen.getByRole('tab', { name: 'Outline' }));
    expect(router.state.location.search).toBe('');
    expect(screen.getByRole('heading', { level: 3, name: '1. Basics' })).toBeInTheDocument();
  });

  it('leads the editor of an archived course to the creator to restore it', async () => {
    signedInAs(instructor, {
      [COURSE]: {
        body: buildCourseDetail({
          state: 'archived',
          viewer: teacherViewer({ canEdit: false, canRestore: true }),
        }),
      },
    });
    renderApp('/classroom/course-1');
    await findHeading('Fibre testing with an OTDR');
    expect(screen.queryByRole('link', { name: 'Edit course' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Restore course' })).toHaveAttribute(
      'href',
      '/course-creator?course=course-1',
    );
  });

  it('falls back to the outline for a tab the viewer does not have', async () => {
    signedInAs(student, { [COURSE]: { body: buildCourseDetail() } });
    renderApp('/classroom/course-1?tab=participants');
    await findHeading('Fibre testing with an OTDR');
    expect(screen.getByRole('tab', { name: 'Outline' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.queryByRole('tab', { name: 'Participants' })).not.toBeInTheDocument();
  });

  it("sends a viewer the server refuses the course to home, with the server's reason", async () => {
    signedInAs(student, {
      [COURSE]: {
        status: 403,
        body: { code: 'FORBIDDEN', message: 'Missing required permission: course.view' },
      },
    });
    const { router } = renderApp('/classroom/course-1');
    await findHeading('Welcome, Sam');
    expect(router.state.location.pathname).toBe('/');
    expect(
      screen.getByText(
        'You do not have access to this course: Missing required permission: course.view',
      ),
    ).toBeInTheDocument();
  });

  // A course the viewer may not see (a draft) is answered as one that does not exist.
  it("shows the server's message for a course that does not exist, or is hidden", async () => {
    signedInAs(student, {
      [COURSE]: { status: 404, body: { code: 'NOT_FOUND', message: 'Course not found' } },
    });
    renderApp('/classroom/course-1');
    expect(await screen.findByRole('alert')).toHaveTextContent('Course not found');
    expect(screen.getByRole('link', { name: 'Back to the courses' })).toHaveAttribute(
      'href',
      '/classroom',
    );
  });
});
