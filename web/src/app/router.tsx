import { ROUTES, type RouteDef } from '@learning-hub/core';
import type { ComponentType } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { ADMIN_CHILD_ROUTES } from '../features/admin/routes';
import { ANNOUNCEMENT_MANAGER_CHILD_ROUTES } from '../features/announcements/routes';
import { CLASSROOM_CHILD_ROUTES } from '../features/classroom/routes';
import { LIBRARY_CHILD_ROUTES } from '../features/library/routes';
import { WIKI_CHILD_ROUTES } from '../features/wiki/routes';
import { LearningLogoutPage } from '../features/auth/components/learning-logout-page';
import { LoginPage } from '../features/auth/components/login-page';
import { HomePage } from '../features/home/components/home-page';
import { ErrorPage } from './error-page';
import { AppLayout } from './layout/app-layout';
import { NotFoundPage } from './not-found-page';
import { PageLoader } from '../components/page-loader';
import {
  DisplaySettingsBoundary,
  followingDisplaySettings,
} from '../lib/settings/display-settings-boundary';
import { RouteGuard } from './route-guard';

type PageLoaderFn = () => Promise<ComponentType>;

const loadCourseCreator: PageLoaderFn = () =>
  import('../features/course-creator/components/course-creator-page').then(
    (m) => m.CourseCreatorPage,
  );
const loadWikiCreator: PageLoaderFn = () =>
  import('../features/wiki/components/creator-page').then((m) => m.WikiCreatorPage);

/** The built pages, loaded lazily; every other route of core's ROUTES shows the not-built notice. */
export const BUILT_PAGES: Readonly<Record<string, PageLoaderFn>> = {
  '/departments': () =>
    import('../features/departments/components/departments-page').then((m) => m.DepartmentsPage),
  '/departments/:deptName': () =>
    import('../features/departments/components/department-page').then((m) => m.DepartmentPage),
  '/profile-settings': () =>
    import('../features/profile/components/profile-settings-page').then(
      (m) => m.ProfileSettingsPage,
    ),
  '/admin': () => import('../features/admin/components/admin-layout').then((m) => m.AdminLayout),
  '/admin-test': () =>
    import('../features/admin-test/components/permission-simulator-page').then(
      (m) => m.PermissionSimulatorPage,
    ),
  '/announcement-manager': () =>
    import('../features/announcements/components/manager-page').then(
      (m) => m.AnnouncementManagerLayout,
    ),
  '/auth-test': () =>
    import('../features/admin/components/auth-test-page').then((m) => m.AuthTestPage),
  '/classroom': () =>
    import('../features/classroom/components/classroom-layout').then((m) => m.ClassroomLayout),
  '/library': () =>
    import('../features/library/components/library-layout').then((m) => m.LibraryLayout),
  '/learning-management': () =>
    import('../features/learning/components/learning-page').then((m) => m.LearningPage),
  '/notification-demo': () =>
    import('../features/notifications/components/notification-demo-page').then(
      (m) => m.NotificationDemoPage,
    ),
  '/search': () => import('../features/search/components/search-page').then((m) => m.SearchPage),
  '/settings': () =>
    import('../features/settings/components/settings-page').then((m) => m.SettingsPage),
  '/course/create': loadCourseCreator,
  '/course-creator': loadCourseCreator,
  '/wiki': () => import('../features/wiki/components/wiki-layout').then((m) => m.WikiLayout),
  '/wiki/create': loadWikiCreator,
  '/wiki-creator': loadWikiCreator,
};

/**
 * Pages styled by the shell's styles alone (app/styles/shell.css); every other page loads the
 * styles of the remaining Mantine components with its code (app/page-styles.ts).
 */
const SHELL_STYLED_PAGES: ReadonlySet<string> = new Set(['/login']);
const loadPageStyles = () => import('./page-styles');

/**
 * Pages nested under a route: rendered in its page's outlet, so behind the same guard (the
 * admin area's users, roles and audit pages all need what /admin needs).
 */
const CHILD_ROUTES: Readonly<Record<string, RouteObject[]>> = {
  '/admin': ADMIN_CHILD_ROUTES,
  '/announcement-manager': ANNOUNCEMENT_MANAGER_CHILD_ROUTES,
  '/classroom': CLASSROOM_CHILD_ROUTES,
  '/library': LIBRARY_CHILD_ROUTES,
  '/wiki': WIKI_CHILD_ROUTES,
};

/**
 * Pages bundled with the app instead of loaded lazily: the sign-in page, where every visitor who
 * is not signed in starts, and the start page, where every visitor who is signed in starts (their
 * code loads with the app's, not after it: docs/front-end.md), and signing out, which must work
 * when the network (and so any chunk) is gone, which is exactly when a logout call fails. Their
 * Mantine components' styles are the shell's (app/styles/shell.css).
 */
const EAGER_PAGES: Readonly<Record<string, ComponentType>> = {
  '/login': LoginPage,
  '/': HomePage,
  '/learning/logout': LearningLogoutPage,
};

/**
 * A child route whose page re-renders when dates read differently (docs/settings.md), as the
 * routes of core's table do (`DisplaySettingsBoundary`): its lazily loaded `Component` wrapped.
 */
function childFollowingDisplaySettings(route: RouteObject): RouteObject {
  const { lazy, Component, children } = route;
  const next: RouteObject = { ...route } as RouteObject;
  if (Component) next.Component = followingDisplaySettings(Component);
  if (typeof lazy === 'function') {
    next.lazy = async () => {
      const loaded = await lazy();
      return loaded.Component
        ? { ...loaded, Component: followingDisplaySettings(loaded.Component) }
        : loaded;
    };
  }
  if (children) next.children = children.map(childFollowingDisplaySettings);
  return next;
}

export interface RouteHandle {
  route: RouteDef;
}

function pageRoute(route: RouteDef): RouteObject {
  const base = {
    path: route.path,
    handle: { route } satisfies RouteHandle,
    errorElement: <ErrorPage />,
  };
  const Eager = EAGER_PAGES[route.path];
  if (Eager) {
    return {
      ...base,
      element: (
        <RouteGuard route={route}>
          <DisplaySettingsBoundary Page={Eager} />
        </RouteGuard>
      ),
    };
  }
  const children = CHILD_ROUTES[route.path]?.map(childFollowingDisplaySettings);
  return {
    ...base,
    ...(children ? { children } : {}),
    hydrateFallbackElement: <PageLoader />,
    lazy: async () => {
      // In parallel with the page's code; the page shows once both are there.
      const styles = SHELL_STYLED_PAGES.has(route.path) ? undefined : loadPageStyles();
      if (!route.built) {
        const [{ NotBuiltPage }] = await Promise.all([import('./not-built-page'), styles]);
        return {
          element: (
            <RouteGuard route={route}>
              <NotBuiltPage title={route.title} />
            </RouteGuard>
          ),
        };
      }
      const load = BUILT_PAGES[route.path];
      if (!load) throw new Error(`No page component registered for route ${route.path}`);
      const [Page] = await Promise.all([load(), styles]);
      return {
        element: (
          <RouteGuard route={route}>
            <DisplaySettingsBoundary Page={Page} />
          </RouteGuard>
        ),
      };
    },
  };
}

/** Every route of core's ROUTES with its guard, inside the app layout, plus the Not Found page. */
export function createAppRoutes(): RouteObject[] {
  return [
    {
      id: 'root',
      element: <AppLayout />,
      errorElement: <ErrorPage />,
      hydrateFallbackElement: <PageLoader />,
      children: [
        ...ROUTES.map(pageRoute),
        { path: '*', element: <NotFoundPage />, errorElement: <ErrorPage /> },
      ],
    },
  ];
}

export function createAppRouter() {
  return createBrowserRouter(createAppRoutes());
}
