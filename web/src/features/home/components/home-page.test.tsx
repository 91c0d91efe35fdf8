import type { LearningOverview, SignInFailure } from '@learning-hub/core';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildCourseCard, buildOverview } from '../../../test/classroom-fixtures';
import { buildUser, listOf } from '../../../test/fixtures';
import { findHeading, renderApp, signedInAs } from '../../../test/render-app';
import { buildList, buildPage } from '../../wiki/testing';

const LEARNER_HEADINGS = ['Due soon', 'Recent grades', 'Your courses'];
const TEACHER_HEADINGS = ['To grade', 'Recent hand-ins', 'Courses you teach', 'Upcoming due dates'];
const ADMIN_HEADINGS = ['Administration', 'Latest sign-in failures'];

/**
 * The page's section headings (level 2), in order; the wiki's, last and loaded on its own, has
 * tests of its own.
 */
const sectionHeadings = () =>
  screen
    .getAllByRole('heading', { level: 2 })
    .map((h) => h.textContent ?? '')
    .filter((h) => h !== 'Wiki');

/** Neither the old tiles of pages not built yet nor raw paths are shown, anywhere. */
function expectNoTilesOrPaths() {
  expect(screen.queryByText('Not available yet')).not.toBeInTheDocument();
  expect(screen.queryByRole('region', { name: 'Your learning hub' })).not.toBeInTheDocument();
  expect(screen.queryByRole('region', { name: 'More pages' })).not.toBeInTheDocument();
  const main = screen.getByRole('main');
  expect(within(main).queryAllByText(/^\/[a-z]/)).toEqual([]);
  expect(main.textContent).not.toMatch(/(^|\s)\/[a-z-]+/);
}

const teaching: Partial<LearningOverview> = {
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
      learners: 1,
      toGrade: 0,
    },
  ],
  toGrade: [
    {
      assignmentId: 'a-1',
      assignmentTitle: 'Trace report',
      courseId: 'course-1',
      courseTitle: 'Fibre testing with an OTDR',
      count: 2,
      firstSubmissionId: 'sub-7',
    },
    {
      assignmentId: 'a-2',
      assignmentTitle: 'Event table',
      courseId: 'course-1',
      courseTitle: 'Fibre testing with an OTDR',
      count: 1,
      firstSubmissionId: 'sub-3',
    },
  ],
  recentHandIns: [
    {
      submissionId: 'sub-9',
      assignmentId: 'a-1',
      assignmentTitle: 'Trace report',
      courseId: 'course-1',
      courseTitle: 'Fibre testing with an OTDR',
      learnerName: 'Jordan Lee',
      attempt: 2,
      submittedAt: '2025-03-04T10:00:00.000Z',
      late: true,
      graded: false,
    },
  ],
  teachingDue: [
    {
      assignmentId: 'a-3',
      assignmentTitle: 'Find the fault',
      courseId: 'course-1',
      courseTitle: 'Fibre testing with an OTDR',
      dueAt: '2025-03-12T17:00:00.000Z',
      handedIn: 4,
      learners: 12,
    },
  ],
};

const failure = (overrides: Partial<SignInFailure>): SignInFailure => ({
  id: 'f-1',
  occurredAt: '2025-03-04T08:15:00.000Z',
  username: 'jordan.lee',
  method: 'local',
  reason: 'Invalid username or password',
  throttled: false,
  ...overrides,
});

describe('home page', () => {
  it('shows a learner where to continue, what is due, recent grades with points and up to six courses', async () => {
    const courses = Array.from({ length: 8 }, (_, i) =>
      buildCourseCard({
        id: `course-${i + 1}`,
        title: `Course ${i + 1}`,
        enrolled: true,
        progress: { completedLessons: i % 4, totalLessons: 4, percent: (i % 4) * 25 },
      }),
    );
    const fetch = signedInAs(buildUser({ role: 'student' }), {
      'GET /api/me/learning': {
        body: buildOverview({
          courses,
          continueLesson: {
            courseId: 'course-1',
            courseTitle: 'Course 1',
            lessonId: 'lesson-3',
            lessonTitle: 'Reading events',
            viewedAt: '2025-03-01T09:00:00.000Z',
          },
          dueSoon: [
            {
              assignmentId: 'a-1',
              assignmentTitle: 'Trace report',
              courseId: 'course-1',
              courseTitle: 'Course 1',
              dueAt: '2025-03-10T17:00:00.000Z',
              overdue: false,
            },
          ],
          recentGrades: [
            {
              assignmentId: 'a-0',
              assignmentTitle: 'Safety quiz',
              courseId: 'course-1',
              courseTitle: 'Course 1',
              points: 8,
              maxPoints: 10,
              gradedAt: '2025-03-02T09:00:00.000Z',
            },
          ],
        }),
      },
    });
    renderApp('/');
    await findHeading('Welcome, Sam');
    const resume = await screen.findByRole('region', { name: 'Continue where you left off' });
    expect(within(resume).getByText('Reading events')).toBeInTheDocument();
    expect(within(resume).getByRole('link', { name: 'Continue Reading events' })).toHaveAttribute(
      'href',
      '/classroom/course-1/lessons/lesson-3',
    );
    const due = screen.getByRole('region', { name: 'Due soon' });
    expect(within(due).getByRole('link', { name: 'Trace report' })).toHaveAttribute(
      'href',
      '/classroom/course-1/assignments/a-1',
    );
    // The points are text in the row itself, not in a table column a phone scrolls away.
    const grades = screen.getByRole('region', { name: 'Recent grades' });
    expect(within(grades).getByRole('link', { name: 'Safety quiz' })).toHaveAttribute(
      'href',
      '/classroom/course-1?tab=grades',
    );
    expect(within(grades).getByText('8 / 10', { exact: false })).toHaveTextContent('8 / 10 points');
    expect(within(grades).queryByRole('table')).not.toBeInTheDocument();
    const yours = screen.getByRole('region', { name: 'Your courses' });
    expect(within(yours).getAllByRole('article')).toHaveLength(6);
    expect(within(yours).getByRole('link', { name: 'Browse all courses' })).toHaveAttribute(
      'href',
      '/classroom',
    );
    expect(sectionHeadings()).toEqual(['Continue where you left off', ...LEARNER_HEADINGS]);
    expectNoTilesOrPaths();
    expect(fetch.callsTo('GET /api/admin/sign-in-failures')).toEqual([]);
  });

  it("says a learner's course is complete instead of leading back into it", async () => {
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
    renderApp('/');
    const done = await screen.findByRole('region', {
      name: 'You have completed Fibre testing with an OTDR',
    });
    expect(within(done).getByRole('link', { name: 'Find another course' })).toHaveAttribute(
      'href',
      '/classroom',
    );
    expect(screen.queryByRole('link', { name: /^Continue/ })).not.toBeInTheDocument();
  });

  it('starts a course not opened yet instead of continuing it', async () => {
    signedInAs(buildUser({ role: 'student' }), {
      'GET /api/me/learning': {
        body: buildOverview({
          courses: [buildCourseCard({ enrolled: true })],
          continueLesson: {
            courseId: 'course-1',
            courseTitle: 'Fibre testing with an OTDR',
            lessonId: 'lesson-1',
            lessonTitle: 'Launch cables',
            viewedAt: null,
          },
        }),
      },
    });
    renderApp('/');
    const start = await screen.findByRole('region', { name: 'Start your course' });
    expect(within(start).getByRole('link', { name: 'Start Launch cables' })).toHaveAttribute(
      'href',
      '/classroom/course-1/lessons/lesson-1',
    );
    expect(screen.queryByRole('link', { name: /^Continue/ })).not.toBeInTheDocument();
  });

  it('says so in plain words when a learner has nothing yet', async () => {
    signedInAs(buildUser({ role: 'student' }), {
      'GET /api/me/learning': { body: buildOverview() },
    });
    renderApp('/');
    expect(await screen.findByText('Nothing is due in the next two weeks.')).toBeInTheDocument();
    expect(screen.getByText('No grades yet.')).toBeInTheDocument();
    expect(
      screen.getByText('You are not taking any course yet. Find one in the catalogue.'),
    ).toBeInTheDocument();
    expect(
      screen.queryByRole('region', { name: 'Continue where you left off' }),
    ).not.toBeInTheDocument();
    expect(sectionHeadings()).toEqual(LEARNER_HEADINGS);
    expectNoTilesOrPaths();
  });

  it('shows someone who teaches what waits for grading, hand-ins, their courses and due dates', async () => {
    signedInAs(buildUser({ role: 'instructor' }), {
      'GET /api/me/learning': { body: buildOverview(teaching) },
    });
    renderApp('/');
    await findHeading('Welcome, Ines');
    const toGrade = await screen.findByRole('region', { name: 'To grade' });
    expect(within(toGrade).getByText('3 hand-ins wait for a grade.')).toBeInTheDocument();
    expect(within(toGrade).getByRole('link', { name: 'Trace report' })).toHaveAttribute(
      'href',
      '/classroom/course-1/assignments/a-1/grade?submission=sub-7',
    );
    expect(within(toGrade).getByText('2 waiting')).toBeInTheDocument();
    expect(within(toGrade).getByText('1 waiting')).toBeInTheDocument();

    const handIns = screen.getByRole('region', { name: 'Recent hand-ins' });
    expect(within(handIns).getByRole('link', { name: 'Jordan Lee: Trace report' })).toHaveAttribute(
      'href',
      '/classroom/course-1/assignments/a-1/grade?submission=sub-9',
    );
    expect(within(handIns).getByText('Attempt 2')).toBeInTheDocument();
    expect(within(handIns).getByText('Late')).toBeInTheDocument();

    const taught = screen.getByRole('region', { name: 'Courses you teach' });
    expect(
      within(taught).getByRole('link', { name: 'Fibre testing with an OTDR' }),
    ).toHaveAttribute('href', '/classroom/course-1');
    expect(within(taught).getByText('12 learners')).toBeInTheDocument();
    expect(within(taught).getByRole('link', { name: '3 to grade' })).toHaveAttribute(
      'href',
      '/classroom/course-1?tab=assignments',
    );
    expect(within(taught).getByText('1 learner')).toBeInTheDocument();
    expect(within(taught).getByText('Draft')).toBeInTheDocument();

    const due = screen.getByRole('region', { name: 'Upcoming due dates' });
    expect(within(due).getByRole('link', { name: 'Find the fault' })).toHaveAttribute(
      'href',
      '/classroom/course-1/assignments/a-3',
    );
    expect(within(due).getByText('4 of 12 learners handed in')).toBeInTheDocument();

    // Teaching, not taking courses: no learner's sections telling them they take none.
    expect(sectionHeadings()).toEqual(TEACHER_HEADINGS);
    expect(screen.queryByText(/You are not taking any course/)).not.toBeInTheDocument();
    expectNoTilesOrPaths();
  });

  it('says so when nothing waits for a teacher', async () => {
    signedInAs(buildUser({ role: 'instructor' }), {
      'GET /api/me/learning': { body: buildOverview({ teaching: teaching.teaching ?? [] }) },
    });
    renderApp('/');
    expect(await screen.findByText('Nothing waits for a grade.')).toBeInTheDocument();
    expect(screen.getByText('Nobody has handed in work yet.')).toBeInTheDocument();
    expect(
      within(screen.getByRole('region', { name: 'Upcoming due dates' })).getByText(
        'Nothing is due in the next two weeks.',
      ),
    ).toBeInTheDocument();
  });

  it('shows someone who teaches and takes courses both', async () => {
    signedInAs(buildUser({ role: 'instructor' }), {
      'GET /api/me/learning': {
        body: buildOverview({ ...teaching, courses: [buildCourseCard({ enrolled: true })] }),
      },
    });
    renderApp('/');
    await screen.findByRole('region', { name: 'To grade' });
    expect(sectionHeadings()).toEqual([...LEARNER_HEADINGS, ...TEACHER_HEADINGS]);
  });

  it('shows an admin the admin shortcuts and the latest failed sign-ins', async () => {
    const fetch = signedInAs(buildUser({ role: 'admin' }), {
      'GET /api/me/learning': { body: buildOverview() },
      'GET /api/admin/sign-in-failures': {
        body: {
          ...listOf([
            failure({}),
            failure({
              id: 'f-2',
              username: 'noah',
              method: 'moodle',
              reason: 'Moodle authentication error: Invalid login',
            }),
            failure({ id: 'f-3', username: null, method: 'sso', reason: 'Sign-in was cancelled' }),
          ]),
        },
      },
    });
    renderApp('/');
    await findHeading('Welcome, Ada');
    const admin = await screen.findByRole('region', { name: 'Administration' });
    const shortcuts = within(admin)
      .getAllByRole('link')
      .map((a) => [a.querySelector('p')?.textContent, a.getAttribute('href')]);
    expect(shortcuts).toEqual([
      ['Users & Roles', '/admin'],
      ['Roles', '/admin/roles'],
      ['Authentication', '/admin/authentication'],
    ]);
    expect(within(admin).getByText('Sign-in methods and their providers')).toBeInTheDocument();

    const failures = screen.getByRole('region', { name: 'Latest sign-in failures' });
    const items = await within(failures).findAllByRole('listitem');
    expect(items).toHaveLength(3);
    expect(items[0]).toHaveTextContent('jordan.lee');
    expect(items[0]).toHaveTextContent('Invalid username or password');
    expect(items[0]).toHaveTextContent('Local account');
    expect(items[0]).toHaveTextContent(/2025/);
    expect(items[1]).toHaveTextContent('Moodle');
    expect(items[2]).toHaveTextContent('No username given');
    expect(items[2]).toHaveTextContent('Single sign-on');
    expect(fetch.callsTo('GET /api/admin/sign-in-failures')[0]?.search).toBe('?pageSize=5');

    // An admin who takes no course is not told so on their start page.
    expect(sectionHeadings()).toEqual(ADMIN_HEADINGS);
    expectNoTilesOrPaths();
  });

  it("says so when there were no failed sign-ins, and shows the server's refusal", async () => {
    const fetch = signedInAs(buildUser({ role: 'admin' }), {
      'GET /api/me/learning': { body: buildOverview() },
      'GET /api/admin/sign-in-failures': { body: { ...listOf([]) } },
    });
    const view = renderApp('/');
    expect(await screen.findByText('No failed sign-ins.')).toBeInTheDocument();
    view.unmount();

    fetch.set({
      'GET /api/admin/sign-in-failures': {
        status: 403,
        body: { code: 'FORBIDDEN', message: 'Missing required permission: system.admin' },
      },
    });
    renderApp('/');
    const failures = await screen.findByRole('region', { name: 'Latest sign-in failures' });
    expect(await within(failures).findByRole('alert')).toHaveTextContent(
      'Missing required permission: system.admin',
    );
  });

  it('shows the wiki last: the pages the reader follows and those changed lately, linked', async () => {
    const followed = buildPage({
      id: 'page-7',
      title: 'Manhole entry checklist',
      spaceName: 'Company',
    });
    const recent = [
      buildPage({ id: 'page-3', title: 'Splice closure procedure', spaceName: 'Field Operations' }),
      followed,
    ];
    const fetch = signedInAs(buildUser({ role: 'student' }), {
      'GET /api/me/learning': { body: buildOverview() },
      'GET /api/wiki/pages': (request) => ({
        body: buildList(
          new URLSearchParams(request.search).get('following') === 'true' ? [followed] : recent,
        ),
      }),
    });
    renderApp('/');
    const wiki = await screen.findByRole('region', { name: 'Wiki' });
    const following = await within(wiki).findByRole('region', { name: 'Pages you follow' });
    expect(
      await within(following).findByRole('link', { name: 'Manhole entry checklist' }),
    ).toHaveAttribute('href', '/wiki/pages/page-7');
    const changed = within(wiki).getByRole('region', { name: 'Recently changed' });
    const links = await within(changed).findAllByRole('link');
    expect(links.map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['Splice closure procedure', '/wiki/pages/page-3'],
      ['Manhole entry checklist', '/wiki/pages/page-7'],
    ]);
    expect(changed).toHaveTextContent('Field Operations · changed');
    expect(within(wiki).getByRole('link', { name: 'Open the wiki' })).toHaveAttribute(
      'href',
      '/wiki',
    );
    // After the sections above it; a few pages each, newest change first.
    const headings = screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent);
    expect(headings.at(-1)).toBe('Wiki');
    const asked = fetch.callsTo('GET /api/wiki/pages').map((c) => new URLSearchParams(c.search));
    expect(asked.map((q) => [q.get('following'), q.get('sort'), q.get('pageSize')])).toEqual(
      expect.arrayContaining([
        ['true', 'updated', '5'],
        [null, 'updated', '5'],
      ]),
    );
  });

  it('says so when the reader follows no page', async () => {
    signedInAs(buildUser({ role: 'student' }), {
      'GET /api/me/learning': { body: buildOverview() },
      'GET /api/wiki/pages': { body: buildList([]) },
    });
    renderApp('/');
    expect(
      await screen.findByText('You follow no pages yet: Follow on a page lists it here.'),
    ).toBeInTheDocument();
    expect(screen.getByText('No wiki page you can open yet.')).toBeInTheDocument();
  });
});
