import { ROUTES } from '@learning-hub/core';
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../test/fetch-mock';
import { buildMe, buildUser } from '../test/fixtures';
import { findHeading, renderApp, signedInAs } from '../test/render-app';
import { buildDepartmentDetail, departmentRoutes } from '../features/departments/testing';

const student = buildUser({ role: 'student' });
const NOTICE = /^You do not have access to /;
const findNotice = () => screen.findByText(NOTICE);
const queryNotice = () => screen.queryByText(NOTICE);
const admin = buildUser({ role: 'admin' });

describe('route guard', () => {
  it('registers every route of core ROUTES', () => {
    mockFetch();
    const { router } = renderApp('/login');
    const paths = router.routes[0]?.children?.map((r) => r.path);
    expect(paths).toEqual([...ROUTES.map((r) => r.path), '*']);
  });

  it('sends a signed-out user to /login?next=<path+search>, and back after sign-in', async () => {
    const fetchMock = mockFetch({
      'POST /api/auth/local': {
        body: {
          success: true,
          user: student,
          token: 'tok',
          expiresAt: new Date(Date.now() + 3.6e6).toISOString(),
        },
      },
      'GET /api/auth/me': { body: buildMe(student) },
    });
    const { router, user } = renderApp('/library?shelf=fiber');
    await findHeading('Sign in');
    expect(router.state.location.pathname).toBe('/login');
    expect(router.state.location.search).toBe(
      `?next=${encodeURIComponent('/library?shelf=fiber')}`,
    );

    await user.type(screen.getByLabelText(/Username/), 'student');
    await user.type(screen.getByLabelText(/Password/), 'correct horse');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await findHeading('Library');
    expect(router.state.location.pathname).toBe('/library');
    expect(router.state.location.search).toBe('?shelf=fiber');
    // The page itself, not the placeholder: it asks for the library's items.
    await waitFor(() => expect(fetchMock.callsTo('GET /api/library/items')).toHaveLength(1));
    expect(fetchMock.callsTo('GET /api/auth/me')[0]?.headers.authorization).toBe('Bearer tok');
  });

  it('ignores an unsafe next', async () => {
    signedInAs(student);
    const { router } = renderApp('/login?next=%2F%2Fevil.example.com');
    await findHeading('Welcome, Sam');
    expect(router.state.location.pathname).toBe('/');
  });

  it('sends a user lacking the requirement home, saying which page and why, on every guarded route', async () => {
    signedInAs(student);
    const { router, user } = renderApp('/admin');
    await findHeading('Welcome, Sam');
    expect(router.state.location.pathname).toBe('/');
    expect(await findNotice()).toHaveTextContent(
      'You do not have access to Admin Settings: Missing required permission: system.admin',
    );
    // One way everywhere: the course creator, the admin tools and the pages nested under /admin,
    // whose guard is /admin's. The start page shows the spec's access-denied panel above it.
    for (const [path, page, reason] of [
      ['/course/create', 'Course Creator', 'Missing required permission: course.create'],
      ['/admin-test', 'Permission Simulator', 'Missing required permission: system.admin'],
      ['/auth-test', 'Authentication Test', 'Missing required permission: system.admin'],
      ['/admin/audit', 'Admin Settings', 'Missing required permission: system.admin'],
    ] as const) {
      await act(() => router.navigate('/library'));
      await findHeading('Library');
      expect(queryNotice()).not.toBeInTheDocument();
      await act(() => router.navigate(path));
      await findHeading('Welcome, Sam');
      expect(router.state.location.pathname).toBe('/');
      expect(await findNotice()).toHaveTextContent(`You do not have access to ${page}: ${reason}`);
      const panel = screen
        .getAllByRole('alert')
        .find((alert) => within(alert).queryByRole('heading', { name: 'Access Denied' }));
      expect(panel).toBeDefined();
      expect(panel).toHaveTextContent('You do not have permission to access this resource.');
    }

    expect(screen.getByRole('button', { name: 'Go Back' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(queryNotice()).not.toBeInTheDocument());
    expect(router.state.location.pathname).toBe('/');
  });

  it("gives the role check's reason when the permission is there but the role is not", async () => {
    // A student granted course.create directly passes the creator's permission, not its role.
    const trainer = buildUser({ role: 'student' });
    signedInAs(trainer, {
      'GET /api/auth/me': {
        body: {
          ...buildMe(trainer),
          access: { ...buildMe(trainer).access, directPermissions: ['course.create'] },
        },
      },
    });
    const { router } = renderApp('/course-creator');
    await findHeading('Welcome, Sam');
    expect(router.state.location.pathname).toBe('/');
    expect(await findNotice()).toHaveTextContent(
      'You do not have access to Course Creator: Required role: instructor or admin, but user has role: student',
    );
  });

  it('lets an admin in', async () => {
    signedInAs(admin);
    renderApp('/admin-test');
    await findHeading('Permission Simulator');
  });

  it("resolves a department's URL name, then checks the page in that department's context", async () => {
    const detail = buildDepartmentDetail({ id: 'dept-ne', slug: 'network-engineering' });
    // A member of the department by account: department.view under its id, not its URL name.
    const fetchMock = signedInAs(buildUser({ role: 'student', departmentId: 'dept-ne' }), {
      ...departmentRoutes(detail, []),
      'GET /api/departments/lookup/fibre-team': {
        body: { id: 'dept-ne', slug: 'network-engineering' },
      },
      // The server does not resolve a department the user may not open.
      'GET /api/departments/lookup/finance': {
        status: 404,
        body: { code: 'NOT_FOUND', message: 'Department not found' },
      },
    });
    // A former name: replaced by the current one, the rest of the URL kept.
    const { router } = renderApp('/departments/fibre-team?search=lee#members');
    await findHeading('Network Engineering');
    expect(router.state.location.pathname).toBe('/departments/network-engineering');
    expect(router.state.location.search).toBe('?search=lee');
    expect(router.state.location.hash).toBe('#members');
    expect(router.state.historyAction).toBe('REPLACE');
    expect(fetchMock.callsTo('GET /api/departments/dept-ne')).toHaveLength(1);

    // Another department (hidden by the server): checked under its name, where the student holds
    // no department.view — the denial of any department they may not open, existing or not.
    await act(() => router.navigate('/departments/finance'));
    await findHeading('Welcome, Sam');
    expect(router.state.location.pathname).toBe('/');
    expect(await findNotice()).toHaveTextContent(
      'You do not have access to Department: Missing required permission: department.view',
    );
    expect(fetchMock.callsTo('GET /api/departments/finance')).toHaveLength(0);
  });

  it('shows Page Not Found for a department name nobody has or had, to whoever may open any', async () => {
    signedInAs(admin, {
      'GET /api/departments/lookup/nowhere': {
        status: 404,
        body: { code: 'NOT_FOUND', message: 'Department not found' },
      },
    });
    const { router } = renderApp('/departments/nowhere');
    await findHeading('Page Not Found');
    expect(router.state.location.pathname).toBe('/departments/nowhere');
  });

  it('keeps a user who must change their password on /profile-settings', async () => {
    const forced = buildUser({ role: 'student', mustChangePassword: true });
    signedInAs(forced);
    const { router } = renderApp('/library');
    await findHeading('Profile Settings');
    expect(router.state.location.pathname).toBe('/profile-settings');
    expect(router.state.location.search).toBe(`?next=${encodeURIComponent('/library')}`);
    expect(
      screen.getByText('You must change your password before continuing.'),
    ).toBeInTheDocument();
    await router.navigate('/');
    await waitFor(() => expect(router.state.location.pathname).toBe('/profile-settings'));
  });

  it('shows Page Not Found for an unknown path', async () => {
    mockFetch();
    const { user } = renderApp('/no/such/page');
    await findHeading('Page Not Found');
    await user.click(screen.getByRole('link', { name: 'Go to Home' }));
    await findHeading('Sign in');
  });

  it('clears the session on /learning/logout and goes to /login', async () => {
    signedInAs(student);
    const { router } = renderApp('/learning/logout');
    await findHeading('Sign in');
    expect(router.state.location.pathname).toBe('/login');
    expect(window.localStorage.length).toBe(0);
  });

  it('shows the error page when the permissions cannot be loaded', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const fetchMock = signedInAs(student, {
      'GET /api/auth/me': {
        status: 503,
        body: { code: 'SERVICE_UNAVAILABLE', message: 'Service unavailable' },
      },
    });
    const { user } = renderApp('/library');
    await findHeading('Something Went Wrong');
    expect(screen.getByText('UNKNOWN_001')).toBeInTheDocument();

    fetchMock.set({ 'GET /api/auth/me': { body: buildMe(student) } });
    await user.click(screen.getByRole('button', { name: 'Try Again' }));
    await findHeading('Library');
  });
});
