/**
 * The pages under /wiki, rendered in the wiki layout's outlet: they sit behind the guard of the
 * /wiki route, loaded lazily. What a person may do with one page comes from the server with the
 * page (`WikiPage.can`); the server refuses the rest anyway (docs/wiki.md).
 */
import type { RouteObject } from 'react-router';

export const WIKI_CHILD_ROUTES: RouteObject[] = [
  {
    index: true,
    lazy: () => import('./components/wiki-home-page').then((m) => ({ Component: m.WikiHomePage })),
  },
  {
    path: 'go',
    lazy: () => import('./components/go-page').then((m) => ({ Component: m.WikiGoPage })),
  },
  {
    path: 'pages/:pageId',
    lazy: () => import('./components/page-view').then((m) => ({ Component: m.WikiPageView })),
  },
  {
    path: 'pages/:pageId/edit',
    lazy: () =>
      import('./components/page-editor-page').then((m) => ({ Component: m.WikiEditorPage })),
  },
  {
    path: 'pages/:pageId/history',
    lazy: () => import('./components/history-page').then((m) => ({ Component: m.WikiHistoryPage })),
  },
  {
    path: 'pages/:pageId/revisions/:revision',
    lazy: () =>
      import('./components/revision-page').then((m) => ({ Component: m.WikiRevisionPage })),
  },
  {
    path: 'pages/:pageId/diff',
    lazy: () => import('./components/diff-page').then((m) => ({ Component: m.WikiDiffPage })),
  },
];
