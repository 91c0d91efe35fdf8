/**
 * Where the app lands after sign-in when no page was remembered to go back to (docs/settings.md):
 * the person's start page, once the server has said which it is, if they may still open it;
 * else Home. Only the sign-in page renders it: Home stays Home on every later visit. Part of the
 * sign-in page's code, so light: no contract module.
 */
import { startPageRoute } from '@learning-hub/core';
import { useQuery } from '@tanstack/react-query';
import { Navigate } from 'react-router';
import { PageLoader } from '../../../components/page-loader';
import { useAuth } from '../../../lib/auth/auth-context';
import { useCan } from '../../../lib/auth/use-can';
import { readStoredSettings } from '../../../lib/settings/stored-settings';
import { settingsQueryOptions } from '../api/settings-api';

export function StartPageRedirect() {
  const auth = useAuth();
  const can = useCan();
  const asking = !auth.requiresPasswordChange;
  const query = useQuery({ ...settingsQueryOptions(), enabled: asking });
  if (asking && query.isPending) return <PageLoader label="Opening your start page" />;
  // The server could not say: the copy this browser kept of this person's settings, if any.
  const stored = readStoredSettings();
  const path =
    query.data?.startPage ??
    (stored && stored.userId === auth.user?.id ? stored.settings.startPage : '/');
  const route = startPageRoute(path);
  const target = route && can.route(route).allowed ? route.path : '/';
  return <Navigate to={target} replace />;
}
