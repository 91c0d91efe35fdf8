/**
 * The settings applier (docs/settings.md): puts the person's settings in force everywhere, at
 * once, without a reload. It reads the settings query (`settingsKey`) while someone is signed in,
 * else the copy this browser kept, and whenever that data changes it
 *
 * - sets Mantine's colour scheme (`system` is Mantine's `auto`),
 * - puts the date format, time zone, reduced motion and start page into the display-settings
 *   store (lib/settings/display-settings.ts), which the date formatters, the theme
 *   (`respectReducedMotion`) and the pages follow, and marks the document for reduced motion
 *   (`data-reduced-motion`, app.css),
 * - keeps the copy in the browser (STORAGE_KEYS.settings), which a reload applies before the
 *   server answers and which the other tabs of the browser follow (`storage` events).
 *
 * So anything that learns of new settings only sets the query's data:
 * `queryClient.setQueryData(settingsKey, settings)`. In the app's first load: no contract module.
 */
import {
  defaultUserSettings,
  type ColorSchemeSetting,
  type DisplaySettings,
  type UserSettings,
} from '@learning-hub/core';
import {
  useMantineColorScheme,
  type MantineColorScheme,
  type MantineColorSchemeManager,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useLiveEvent } from '../lib/live/use-live';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useLayoutEffect, useSyncExternalStore } from 'react';
import {
  saveSettingsChange,
  settingsKey,
  settingsQueryOptions,
} from '../features/settings/api/settings-api';
import { useAuth } from '../lib/auth/auth-context';
import { getDisplaySettings, setDisplaySettings } from '../lib/settings/display-settings';
import {
  readStoredSettings,
  subscribeStoredSettings,
  writeStoredSettings,
} from '../lib/settings/stored-settings';

/** Mantine's name for a colour scheme setting. */
export function mantineColorScheme(setting: ColorSchemeSetting): MantineColorScheme {
  return setting === 'system' ? 'auto' : setting;
}

/**
 * Mantine's colour scheme comes from the settings, not from a storage key of its own: it starts
 * from the browser's copy of the settings (so the first render has the right scheme), and the
 * applier sets it from then on. Mantine's own writes and subscriptions are not needed.
 */
export const settingsColorSchemeManager: MantineColorSchemeManager = {
  get: () => mantineColorScheme(getDisplaySettings().colorScheme),
  set: () => undefined,
  subscribe: () => undefined,
  unsubscribe: () => undefined,
  clear: () => undefined,
};

function displayOf(settings: UserSettings): DisplaySettings {
  return {
    colorScheme: settings.colorScheme,
    timeZone: settings.timeZone,
    dateFormat: settings.dateFormat,
    startPage: settings.startPage,
    reducedMotion: settings.reducedMotion,
  };
}

/** Whether the signed-in person's settings can be asked for (not while a password change is due). */
function useSettingsUser(): string | null {
  const auth = useAuth();
  return auth.isAuthenticated && !auth.requiresPasswordChange && auth.user ? auth.user.id : null;
}

/**
 * The settings in force: the signed-in person's (the query), else the browser's copy (the last
 * person's on this browser, or a choice made signed out), else the defaults.
 */
function useEffectiveSettings(): UserSettings {
  const userId = useSettingsUser();
  const query = useQuery({ ...settingsQueryOptions(), enabled: userId !== null });
  const stored = useSyncExternalStore(subscribeStoredSettings, readStoredSettings, () => null);
  const queryClient = useQueryClient();

  // Another tab of this browser saved this person's settings: take them without asking.
  useEffect(() => {
    if (userId !== null && stored?.userId === userId) {
      const current = queryClient.getQueryData<UserSettings>(settingsKey);
      if (current && JSON.stringify(current) !== JSON.stringify(stored.settings)) {
        queryClient.setQueryData(settingsKey, stored.settings);
      }
    }
  }, [stored, userId, queryClient]);

  // The signed-in person's settings, as kept for a reload and the other tabs.
  useEffect(() => {
    if (userId !== null && query.data) writeStoredSettings({ userId, settings: query.data });
  }, [userId, query.data]);

  return (userId !== null ? query.data : undefined) ?? stored?.settings ?? DEFAULTS;
}

const DEFAULTS = defaultUserSettings();

export function SettingsApplier() {
  const settings = useEffectiveSettings();
  const queryClient = useQueryClient();
  // Saved on another device (or tab): the server says so on the live channel.
  useLiveEvent<UserSettings>('settings', (saved) => queryClient.setQueryData(settingsKey, saved));
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  const { colorScheme: wanted, reducedMotion } = settings;

  // Before the browser paints: no frame of the old scheme or dates.
  useLayoutEffect(() => {
    setDisplaySettings(displayOf(settings));
  }, [settings]);

  useLayoutEffect(() => {
    const scheme = mantineColorScheme(wanted);
    if (colorScheme !== scheme) setColorScheme(scheme);
  }, [wanted, colorScheme, setColorScheme]);

  useLayoutEffect(() => {
    const root = document.documentElement;
    if (reducedMotion === 'system') delete root.dataset.reducedMotion;
    else root.dataset.reducedMotion = reducedMotion;
  }, [reducedMotion]);

  return null;
}

/**
 * Chooses a colour scheme from anywhere (the header's button): saved as the signed-in person's
 * setting (it follows them to their other devices), or kept in this browser for a visitor who is
 * not signed in. Applied at once; a failed save goes back and says so.
 */
export function useChooseColorScheme(): (scheme: ColorSchemeSetting) => void {
  const userId = useSettingsUser();
  const queryClient = useQueryClient();
  return useCallback(
    (scheme) => {
      if (userId === null) {
        const stored = readStoredSettings();
        writeStoredSettings({
          userId: null,
          settings: { ...(stored?.settings ?? defaultUserSettings()), colorScheme: scheme },
        });
        return;
      }
      void (async () => {
        try {
          const current = await queryClient.ensureQueryData(settingsQueryOptions());
          await saveSettingsChange(queryClient, { ...current, colorScheme: scheme });
        } catch (error) {
          notifications.show({
            color: 'red',
            title: 'Colour scheme not saved',
            message: error instanceof Error ? error.message : 'Something went wrong',
          });
        }
      })();
    },
    [userId, queryClient],
  );
}
