/**
 * Path parameters that name a thing by a name which is not the id its permissions are held under
 * (a department's URL name, which follows renames: `/departments/:deptName`). The route guard
 * resolves such a parameter before it checks the route (app/route-params.ts lists the resolvers):
 * a former name redirects to the current one, an unknown name is Not Found, and the requirement
 * is checked with the id. The page under the guard reads the resolved id with `useRouteParam`.
 */
import type { QueryClient } from '@tanstack/react-query';
import { createContext, useContext } from 'react';
import { useParams } from 'react-router';
import { USER_QUERY_PREFIX } from './auth/auth-context';

/** What a name in the URL stands for. */
export interface RouteParamResolution {
  /** The id the permissions are held under, and the one the API takes. */
  id: string;
  /** The name the URL should carry now (a former name differs from it). */
  canonical: string;
}

/** How one route's parameter is resolved. */
export interface RouteParamResolver {
  /** The path parameter it resolves (`deptName`). */
  param: string;
  /** Asks the server; null when nothing has or had that name. */
  resolve(value: string, signal: AbortSignal): Promise<RouteParamResolution | null>;
}

const ROOT = [USER_QUERY_PREFIX, 'route-param'] as const;

/** The query key of one resolution (under the user's prefix: sign-out drops it). */
export function routeParamKey(routePath: string, value: string) {
  return [...ROOT, routePath, value] as const;
}

/**
 * After a rename: the new name resolves without asking (the page shows at once under it), and
 * every earlier resolution is asked again when next used. Not at once: the page is still under
 * the old name until the rename's own caller moves it, and a resolution asked again now would
 * redirect first, unmounting the caller before it could say the rename was done.
 */
export function renamedRouteParam(
  queryClient: QueryClient,
  routePath: string,
  resolution: RouteParamResolution,
): Promise<void> {
  queryClient.setQueryData(routeParamKey(routePath, resolution.canonical), resolution);
  return queryClient.invalidateQueries({
    queryKey: [...ROOT, routePath],
    predicate: (query) => query.queryKey[3] !== resolution.canonical,
    refetchType: 'none',
  });
}

/** The resolved parameters of the route being shown (param → id). */
export const ResolvedParamsContext = createContext<Readonly<Record<string, string>>>({});

/** A path parameter as the page needs it: the resolved id when the guard resolved it. */
export function useRouteParam(name: string): string {
  const resolved = useContext(ResolvedParamsContext);
  const params = useParams();
  return resolved[name] ?? params[name] ?? '';
}
