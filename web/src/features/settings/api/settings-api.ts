/**
 * One's own settings, `GET /api/settings` and `PUT /api/settings` (docs/settings.md): the query
 * every part of the app reads them from (`settingsKey`, holding core's `UserSettings`) and saving
 * them. The settings applier of the app shell imports this module, so it stays in the app's first
 * load: it loads no contract module (docs/front-end.md, START_CONTRACTS) and reads the answers
 * with core's plain `coerceUserSettings` instead. The settings page's own answer (what it may
 * offer) is parsed with the contract in `settings-view-api.ts`.
 *
 * Anything that learns of new settings (the live channel's `settings` event, another tab) only
 * needs `queryClient.setQueryData(settingsKey, settings)`: the applier follows the query's data.
 */
import { coerceUserSettings, type UserSettings } from '@learning-hub/core';
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { ApiError, apiRequestBody, UNEXPECTED_RESPONSE } from '../../../lib/api-client';
import { USER_QUERY_PREFIX } from '../../../lib/auth/auth-context';

/** The signed-in person's settings (core's UserSettings). */
export const settingsKey = [USER_QUERY_PREFIX, 'settings'] as const;

/** How long the settings are taken as current; they are asked again when the window regains focus. */
const SETTINGS_STALE_MS = 60_000;

function settingsOf(body: unknown, key: 'settings' | null): UserSettings {
  const value = key === null ? body : (body as Record<string, unknown> | null)?.[key];
  if (typeof value !== 'object' || value === null) {
    throw new ApiError('INVALID_RESPONSE', UNEXPECTED_RESPONSE, 200);
  }
  return coerceUserSettings(value);
}

/** Reads one's settings (the settings of GET /api/settings's answer). */
export async function fetchSettings(signal?: AbortSignal): Promise<UserSettings> {
  return settingsOf(await apiRequestBody('/api/settings', { method: 'GET', signal }), 'settings');
}

/** Saves the whole settings; answers them as the server stored them. */
export async function saveSettings(settings: UserSettings): Promise<UserSettings> {
  return settingsOf(await apiRequestBody('/api/settings', { method: 'PUT', body: settings }), null);
}

export function settingsQueryOptions() {
  return queryOptions({
    queryKey: settingsKey,
    queryFn: ({ signal }) => fetchSettings(signal),
    staleTime: SETTINGS_STALE_MS,
    // Changed on another device meanwhile: seen when one comes back to the tab.
    refetchOnWindowFocus: true,
  });
}

/**
 * Saves `next` as one change, applied at once: the query holds `next` while the request is under
 * way (so the app shows it everywhere), then the server's answer. On failure the query goes back
 * to what the server last confirmed, and the error is thrown for the caller to show. Changes are
 * sent one after the other, and only the last one's outcome is shown, so a slow answer to an
 * earlier change never overwrites a later one. One saver per query client (the page and the
 * header's colour-scheme button share it).
 */
export function saveSettingsChange(
  queryClient: QueryClient,
  next: UserSettings,
): Promise<UserSettings> {
  let saver = savers.get(queryClient);
  if (!saver) {
    saver = createSaver(queryClient);
    savers.set(queryClient, saver);
  }
  return saver(next);
}

const savers = new WeakMap<QueryClient, (next: UserSettings) => Promise<UserSettings>>();

function createSaver(queryClient: QueryClient) {
  let latest = 0;
  let pending = 0;
  /** What the server last answered (or held before the first change). */
  let confirmed: UserSettings | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  return async (next: UserSettings): Promise<UserSettings> => {
    const id = ++latest;
    if (pending === 0) confirmed = queryClient.getQueryData(settingsKey);
    pending += 1;
    await queryClient.cancelQueries({ queryKey: settingsKey });
    queryClient.setQueryData(settingsKey, next);
    const request = queue.then(() => saveSettings(next));
    queue = request.catch(() => undefined);
    try {
      const stored = await request;
      confirmed = stored;
      if (id === latest) queryClient.setQueryData(settingsKey, stored);
      return stored;
    } catch (error) {
      if (id === latest && confirmed) queryClient.setQueryData(settingsKey, confirmed);
      throw error;
    } finally {
      pending -= 1;
    }
  };
}
