/**
 * The settings the app is showing itself with right now (docs/settings.md): colour scheme, time
 * zone, date format, reduced motion and start page. One small store that the settings applier
 * writes and the rest reads: the date formatters (lib/format.ts), the theme (app/providers.tsx),
 * Mantine's colour scheme and the pages, which re-render when the dates' settings change
 * (`DisplaySettingsBoundary`). It starts from the copy this browser kept of the last settings
 * (`stored-settings.ts`), so that a reload shows them before the server has answered.
 *
 * In the app's first load: no schemas (core's plain `coerce…` reads the copy), nothing heavy.
 */
import type { DisplaySettings } from '@learning-hub/core';
import { coerceDisplaySettings } from '@learning-hub/core';
import { useSyncExternalStore } from 'react';
import { readStoredSettings } from './stored-settings';

let current: DisplaySettings | null = null;
/** Bumped when the way dates read changes (time zone or date format), never otherwise. */
let dateVersion = 0;
const listeners = new Set<() => void>();

/** The settings in force (from the browser's copy, or the defaults, until the applier sets them). */
export function getDisplaySettings(): DisplaySettings {
  current ??= coerceDisplaySettings(readStoredSettings()?.settings ?? null);
  return current;
}

/**
 * Puts `next` in force: the formatters start over when the time zone or date format changed, and
 * everything that reads the store is told. Nothing happens when nothing changed.
 */
export function setDisplaySettings(next: DisplaySettings): void {
  const previous = getDisplaySettings();
  const value = coerceDisplaySettings(next);
  if (
    previous.colorScheme === value.colorScheme &&
    previous.timeZone === value.timeZone &&
    previous.dateFormat === value.dateFormat &&
    previous.startPage === value.startPage &&
    previous.reducedMotion === value.reducedMotion
  ) {
    return;
  }
  if (previous.timeZone !== value.timeZone || previous.dateFormat !== value.dateFormat) {
    dateVersion += 1;
  }
  current = value;
  for (const listener of [...listeners]) listener();
}

/** Forgets the settings in force, so the next read starts from the browser's copy (tests). */
export function resetDisplaySettings(): void {
  current = null;
  dateVersion += 1;
  for (const listener of [...listeners]) listener();
}

export function subscribeDisplaySettings(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** One value of the settings in force, re-rendering the component when it changes. */
export function useDisplaySetting<K extends keyof DisplaySettings>(key: K): DisplaySettings[K] {
  const read = () => getDisplaySettings()[key];
  return useSyncExternalStore(subscribeDisplaySettings, read, read);
}

/**
 * A number that changes whenever dates read differently (a new time zone or date format): a
 * component that formats dates and must follow at once reads it (`DisplaySettingsBoundary`).
 */
export function useDateFormatVersion(): number {
  const read = () => dateVersion;
  return useSyncExternalStore(subscribeDisplaySettings, read, read);
}
