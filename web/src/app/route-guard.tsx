import type { RouteDef } from '@learning-hub/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Navigate, useLocation, useParams, type Location } from 'react-router';
import { forbiddenReason } from '../lib/access-denial';
import { useAuth } from '../lib/auth/auth-context';
import { useCan } from '../lib/auth/use-can';
import { DEPARTMENT_ROUTE, departmentNameResolver } from '../lib/departments/department-links';
import { ResolvedParamsContext, routeParamKey, type RouteParamResolver } from '../lib/route-params';
import { loginPathFor } from '../lib/safe-next';
import { AccessDeniedRedirect } from '../components/access-denied-redirect';
import { PageLoader } from '../components/page-loader';
import { NotFoundPage } from './not-found-page';

/** The only route a user who must change their password may open. */
export const PASSWORD_CHANGE_PATH = '/profile-settings';

/**
 * Routes whose path parameter names a thing by something other than the id its permissions are
 * held under (lib/route-params.tsx): resolved before the route's requirement is checked.
 */
const ROUTE_PARAM_RESOLVERS: Readonly<Record<string, RouteParamResolver>> = {
  [DEPARTMENT_ROUTE]: departmentNameResolver,
};

/** How long a resolved name is trusted before it is asked again. */
const RESOLUTION_STALE_MS = 60_000;

/** The current URL with the resolved parameter's segment replaced by its current name. */
function canonicalUrl(route: RouteDef, param: string, location: Location, canonical: string) {
  const index = route.path.split('/').indexOf(`:${param}`);
  const segments = location.pathname.split('/');
  segments[index] = encodeURIComponent(canonical);
  return `${segments.join('/')}${location.search}${location.hash}`;
}

/** The route's resolver, if any, and its answer for the parameter in the URL. */
function useParamResolution(
  route: RouteDef,
  params: Readonly<Record<string, string | undefined>>,
  enabled: boolean,
) {
  const resolver = ROUTE_PARAM_RESOLVERS[route.path];
  const value = resolver ? (params[resolver.param] ?? '') : '';
  const query = useQuery({
    queryKey: routeParamKey(route.path, value),
    queryFn: ({ signal }) => {
      if (!resolver) throw new Error(`No resolver for ${route.path}`);
      return resolver.resolve(value, signal);
    },
    enabled: enabled && !!resolver && value !== '',
    staleTime: RESOLUTION_STALE_MS,
  });
  return resolver ? { resolver, value, query } : null;
}

/**
 * The guard around every route of core's ROUTES (spec §2): sign-in first (remembering the page),
 * then the forced password change, then the route's requirement in its scope via core checkRoute.
 * A user lacking it is sent to `/`, which says which page and why (lib/access-denial.ts): the
 * same for every route, the pages nested under one included. A route whose parameter is a name
 * (a department's URL name) has it resolved first: a former name redirects to the current one,
 * and the requirement is checked with the id it stands for; a name the server does not resolve
 * for this user (unknown, or a department they may not open) is Not Found to those who pass the
 * requirement everywhere and a denial to everyone else.
 */
export function RouteGuard({ route, children }: { route: RouteDef; children: ReactNode }) {
  const auth = useAuth();
  const can = useCan();
  const location = useLocation();
  const params = useParams();
  const resolution = useParamResolution(
    route,
    params,
    route.access !== 'public' && auth.isAuthenticated && !auth.requiresPasswordChange,
  );
  const title = <title>{`${route.title} · Learning Hub`}</title>;

  if (route.access === 'public') {
    return (
      <>
        {title}
        {children}
      </>
    );
  }
  if (!auth.isAuthenticated) {
    if (auth.isLoading) return <PageLoader />;
    return <Navigate to={loginPathFor(location.pathname, location.search)} replace />;
  }
  if (auth.requiresPasswordChange && route.path !== PASSWORD_CHANGE_PATH) {
    const next = encodeURIComponent(`${location.pathname}${location.search}`);
    return <Navigate to={`${PASSWORD_CHANGE_PATH}?next=${next}`} replace />;
  }
  if (!auth.access) {
    // The server could not be asked what this user may do: that is an error, not a denial.
    if (auth.loadError && !auth.isLoading) throw auth.loadError;
    return <PageLoader />;
  }
  let checked: Readonly<Record<string, string | undefined>> = params;
  let resolved: Readonly<Record<string, string>> = {};
  if (resolution) {
    const { resolver, value, query } = resolution;
    if (query.data === undefined) {
      if (!query.isError) return <PageLoader />;
      const refused = forbiddenReason(query.error);
      if (refused) return <AccessDeniedRedirect page={route.title} reason={refused} />;
      throw query.error;
    }
    if (query.data === null) {
      // The server answers 404 both for a name nobody has or had and for a department the user
      // may not open, so which of the two it is stays unknown here. The route is checked with the
      // name in place of an id: whoever may open every department sees Not Found, anyone else the
      // usual denial, the same for a hidden department as for one that does not exist.
      const unresolved = can.route(route, params);
      if (!unresolved.allowed) {
        return <AccessDeniedRedirect page={route.title} reason={unresolved.reason} />;
      }
      return <NotFoundPage />;
    }
    if (query.data.canonical !== value) {
      return (
        <Navigate
          to={canonicalUrl(route, resolver.param, location, query.data.canonical)}
          replace
          state={location.state}
        />
      );
    }
    checked = { ...params, [resolver.param]: query.data.id };
    resolved = { [resolver.param]: query.data.id };
  }
  const decision = can.route(route, checked);
  if (!decision.allowed) {
    return <AccessDeniedRedirect page={route.title} reason={decision.reason} />;
  }
  return (
    <ResolvedParamsContext value={resolved}>
      {title}
      {children}
    </ResolvedParamsContext>
  );
}
