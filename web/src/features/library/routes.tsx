/**
 * The pages under /library, rendered in the library layout's outlet: they sit behind the guard of
 * the /library route (library.view), loaded lazily. What a person may do with one item comes
 * from the server with the item (`LibraryItem.can`).
 */
import type { RouteObject } from 'react-router';

export const LIBRARY_CHILD_ROUTES: RouteObject[] = [
  {
    index: true,
    lazy: () => import('./components/library-page').then((m) => ({ Component: m.LibraryPage })),
  },
  {
    path: ':itemId',
    lazy: () => import('./components/item-page').then((m) => ({ Component: m.ItemPage })),
  },
];
