/**
 * The pages under /announcement-manager, in its layout's outlet: behind the guard of the route
 * (system.admin and role admin, spec §2), loaded lazily.
 */
import type { RouteObject } from 'react-router';

export const ANNOUNCEMENT_MANAGER_CHILD_ROUTES: RouteObject[] = [
  {
    index: true,
    lazy: () =>
      import('./components/manager-page').then((m) => ({ Component: m.AnnouncementManagerPage })),
  },
  {
    path: ':announcementId',
    lazy: () =>
      import('./components/manager-page').then((m) => ({
        Component: m.AnnouncementManagerDetailPage,
      })),
  },
];
