import { type SystemRoleId } from '@learning-hub/core';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildCourseCard, buildOverview } from '../../../test/classroom-fixtures';
import { buildAccess, buildUser } from '../../../test/fixtures';
import { findHeading, renderApp, signedInAs } from '../../../test/render-app';
import { createCan } from '../../../lib/auth/use-can';
import { homeLinks } from './home-page';

function linksFor(role: SystemRoleId, department = true) {
  const user = buildUser({
    role,
    ...(department ? {} : { department: null, departmentId: null }),
  });
  const { menu, more } = homeLinks(
    createCan(buildAccess(user)),
    user.departmentId,
    user.department,
  );
  return { menu: menu.map((l) => l.path), more: more.map((l) => l.path) };
}

describe('home page', () => {
  it('greets the user by first name and links the pages they may open', async () => {
    signedInAs(buildUser({ role: 'student' }), {
      'GET /api/me/learning': { body: buildOverview() },
    });
    renderApp('/');
    await findHeading('Welcome, Sam');
    // Shown once the learning sections above it are there (no layout shift).
    const menu = await screen.findByRole('region', { name: 'Your learning hub' });
    const labels = within(menu)
      .getAllByRole('link')
      .map((a) => a.querySelector('p')?.textContent);
    expect(labels).toEqual([
      'Departments',
      'Courses',
      'Learning Management',
      'Library',
      'Settings',
      'Network Engineering',
    ]);
    expect(within(menu).getByRole('link', { name: /Network Engineering/ })).toHaveAttribute(
      'href',
      '/departments/network-engineering',
    );
  });

  it("shows where to continue, what is due and up to six of the learner's courses", async () => {
    const courses = Array.from({ length: 8 }, (_, i) =>
      buildCourseCard({
        id: `course-${i + 1}`,
        title: `Course ${i + 1}`,
        enrolled: true,
        progress: { completedLessons: i % 4, totalLessons: 4, percent: (i % 4) * 25 },
      }),
    );
    signedInAs(buildUser({ role: 'student' }), {
      'GET /api/me/learning': {
        body: buildOverview({
          courses,
          continueLesson: {
            courseId: 'course-1',
            courseTitle: 'Course 1',
            lessonId: 'lesson-2',
            lessonTitle: 'Launch cables',
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
        }),
      },
    });
    renderApp('/');
    await findHeading('Welcome, Sam');
    const resume = await screen.findByRole('region', { name: 'Continue where you left off' });
    expect(within(resume).getByText('Launch cables')).toBeInTheDocument();
    expect(within(resume).getByRole('link', { name: 'Continue Launch cables' })).toHaveAttribute(
      'href',
      '/classroom/course-1/lessons/lesson-2',
    );
    const due = screen.getByRole('region', { name: 'Due soon' });
    expect(within(due).getByRole('link', { name: 'Trace report' })).toHaveAttribute(
      'href',
      '/classroom/course-1/assignments/a-1',
    );
    const yours = screen.getByRole('region', { name: 'Your courses' });
    expect(within(yours).getAllByRole('article')).toHaveLength(6);
    expect(within(yours).getAllByRole('progressbar')).toHaveLength(6);
    expect(within(yours).getByRole('link', { name: 'Browse all courses' })).toHaveAttribute(
      'href',
      '/classroom',
    );
  });

  it('says so when there is nothing to continue or due', async () => {
    signedInAs(buildUser({ role: 'student' }), {
      'GET /api/me/learning': { body: buildOverview() },
    });
    renderApp('/');
    expect(await screen.findByText('Nothing is due in the next two weeks.')).toBeInTheDocument();
    expect(
      screen.getByText('You are not taking any course yet. Find one in the catalogue.'),
    ).toBeInTheDocument();
    expect(
      screen.queryByRole('region', { name: 'Continue where you left off' }),
    ).not.toBeInTheDocument();
  });

  it('computes the links from the permission checks', () => {
    const student = linksFor('student');
    expect(student.menu).not.toContain('/admin');
    expect(student.more).toEqual(['/dashboard', '/wiki', '/profile-settings']);

    const instructor = linksFor('instructor');
    expect(instructor.menu).toContain('/instructor-settings');
    expect(instructor.more).toEqual([
      '/dashboard',
      '/wiki',
      '/wiki/create',
      '/course/create',
      '/profile-settings',
    ]);

    const admin = linksFor('admin');
    expect(admin.menu).toContain('/admin');
    expect(admin.more).toContain('/admin-test');
    expect(admin.more).toContain('/announcement-manager');

    // Without a department a student holds no department.view: no Departments link.
    expect(linksFor('student', false).menu).not.toContain('/departments');
  });
});
