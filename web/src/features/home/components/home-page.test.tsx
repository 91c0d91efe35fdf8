import { type SystemRoleId } from '@learning-hub/core';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
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
    signedInAs(buildUser({ role: 'student' }));
    renderApp('/');
    await findHeading('Welcome, Sam');
    const menu = screen.getByRole('region', { name: 'Your learning hub' });
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
