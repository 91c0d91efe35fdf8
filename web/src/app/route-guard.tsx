import type { RouteDef } from '@learning-hub/core';
import type { ReactNode } from 'react';
import { Navigate, useLocation, useParams } from 'react-router';
import { useAuth } from '../lib/auth/auth-context';
import { useCan } from '../lib/auth/use-can';
import { loginPathFor } from '../lib/safe-next';
import { AccessDeniedRedirect } from '../components/access-denied-redirect';
import { PageLoader } from '../components/page-loader';

/** The only route a user who must change their password may open. */
export const PASSWORD_CHANGE_PATH = '/profile-settings';

/**
 * The guard around every route of core's ROUTES (spec §2): sign-in first (remembering the page),
 * then the forced password change, then the route's requirement in its scope via core checkRoute.
 * A user lacking it is sent to `/`, which says which page and why (lib/access-denial.ts): the
 * same for every route, the pages nested under one included.
 */
export function RouteGuard({ route, children }: { route: RouteDef; children: ReactNode }) {
  const auth = useAuth();
  const can = useCan();
  const location = useLocation();
  const params = useParams();
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
  const decision = can.route(route, params);
  if (!decision.allowed) {
    return <AccessDeniedRedirect page={route.title} reason={decision.reason} />;
  }
  return (
    <>
      {title}
      {children}
    </>
  );
}
