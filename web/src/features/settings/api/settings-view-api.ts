/**
 * What the settings page shows besides the settings: whether email is set up on this server and
 * the start pages this person may choose (GET /api/settings, parsed with its contract: this
 * module loads with the page only). Its answer's settings go into `settingsKey` too, which the
 * page edits and the whole app follows (settings-api.ts).
 */
import { UserSettingsViewSchema } from '@learning-hub/core';
import { queryOptions, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { USER_QUERY_PREFIX } from '../../../lib/auth/auth-context';
import { settingsKey } from './settings-api';

export const settingsViewKey = [USER_QUERY_PREFIX, 'settings-view'] as const;

export function settingsViewQuery(queryClient: QueryClient) {
  return queryOptions({
    queryKey: settingsViewKey,
    queryFn: async ({ signal }) => {
      const view = await api.get('/api/settings', UserSettingsViewSchema, { signal });
      queryClient.setQueryData(settingsKey, view.settings);
      return view;
    },
  });
}

/** The page's answer: the settings, whether email is available, the start pages on offer. */
export function useSettingsView() {
  const queryClient = useQueryClient();
  return useQuery(settingsViewQuery(queryClient));
}
