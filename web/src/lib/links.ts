/**
 * The one way to build a link to a page of the app: `href('course', { courseId })`,
 * `href('wiki', { space })`. A page is named once here, with its path pattern: core's route table
 * (`ROUTES` in core/src/routes.ts) for the top-level pages and the areas' child routes below them
 * (features/<area>/routes.tsx); `links.test.ts` checks that the router has every one. The
 * pattern's parameters are required and percent-encoded; every other value goes to the query
 * string (`queryString`: empty values are left out).
 */
import { queryString, type QueryParams } from './query-string';

export const PAGES = {
  home: '/',
  departments: '/departments',
  department: '/departments/:deptName',
  library: '/library',
  libraryItem: '/library/:itemId',
  classroom: '/classroom',
  course: '/classroom/:courseId',
  lesson: '/classroom/:courseId/lessons/:lessonId',
  assignment: '/classroom/:courseId/assignments/:assignmentId',
  grader: '/classroom/:courseId/assignments/:assignmentId/grade',
  courseCreator: '/course-creator',
  learning: '/learning-management',
  search: '/search',
  wiki: '/wiki',
  wikiGo: '/wiki/go',
  wikiCreate: '/wiki/create',
  wikiPage: '/wiki/pages/:pageId',
  wikiEdit: '/wiki/pages/:pageId/edit',
  wikiHistory: '/wiki/pages/:pageId/history',
  wikiRevision: '/wiki/pages/:pageId/revisions/:revision',
  wikiDiff: '/wiki/pages/:pageId/diff',
  admin: '/admin',
  adminUser: '/admin/users/:userId',
  authTest: '/auth-test',
  announcementManager: '/announcement-manager',
  announcement: '/announcement-manager/:announcementId',
  profile: '/profile-settings',
} as const;

export type PageName = keyof typeof PAGES;

type ParamsOf<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamsOf<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

/** The values of a page's path and query: its pattern's parameters are required. */
export type LinkParams<N extends PageName> = Readonly<
  Record<ParamsOf<(typeof PAGES)[N]>, string | number>
> &
  QueryParams;

type HrefArgs<N extends PageName> = [ParamsOf<(typeof PAGES)[N]>] extends [never]
  ? [params?: QueryParams]
  : [params: LinkParams<N>];

/** The address of a page of the app, with its parameters in the path and the rest as a query. */
export function href<N extends PageName>(page: N, ...[params = {}]: HrefArgs<N>): string {
  const query: Record<string, QueryParams[string]> = { ...params };
  const path = PAGES[page].replace(/:(\w+)/g, (_, name: string) => {
    const value = query[name];
    delete query[name];
    return encodeURIComponent(String(value));
  });
  return `${path}${queryString(query)}`;
}
