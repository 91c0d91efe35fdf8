/**
 * The pages under /admin, rendered in the admin layout's outlet: they sit behind the guard of the
 * /admin route (system.admin and role admin), loaded lazily.
 */
import type { RouteObject } from 'react-router';

export const ADMIN_CHILD_ROUTES: RouteObject[] = [
  {
    index: true,
    lazy: () => import('./components/users-page').then((m) => ({ Component: m.UsersPage })),
  },
  {
    path: 'users/:userId',
    lazy: () =>
      import('./components/user-detail-page').then((m) => ({ Component: m.UserDetailPage })),
  },
  {
    path: 'roles',
    lazy: () => import('./components/roles-page').then((m) => ({ Component: m.RolesPage })),
  },
  {
    path: 'audit',
    lazy: () =>
      import('./components/access-audit-page').then((m) => ({ Component: m.AccessAuditPage })),
  },
  {
    path: 'authentication',
    lazy: () =>
      import('./components/authentication-page').then((m) => ({
        Component: m.AuthenticationPage,
      })),
  },
  {
    path: 'checks',
    lazy: () =>
      import('./components/permission-checks-page').then((m) => ({
        Component: m.PermissionChecksPage,
      })),
  },
  {
    path: 'system',
    lazy: () => import('./components/system-page').then((m) => ({ Component: m.SystemPage })),
  },
];
