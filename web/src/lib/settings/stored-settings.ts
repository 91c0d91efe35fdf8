/**
 * The copy this browser keeps of the last settings it applied (core's STORAGE_KEYS.settings,
 * docs/settings.md): who they belong to and the settings themselves. A reload applies it before
 * the server answers (no flash of the wrong colour scheme), index.html's inline script reads its
 * colour scheme before the first paint, and the other tabs of the browser follow it through the
 * `storage` event. Read defensively: a copy written by another version, or by hand, gives the
 * defaults for whatever it gets wrong, never an error.
 */
import { coerceUserSettings, STORAGE_KEYS, type UserSettings } from '@learning-hub/core';

export interface StoredSettings {
  /** Whose settings they are; null for a choice made signed out (the sign-in page's toggle). */
  userId: string | null;
  settings: UserSettings;
}

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** The stored copy in `raw` (a storage value), or null when there is none or it is not JSON. */
export function parseStoredSettings(raw: string | null): StoredSettings | null {
  if (!raw) return null;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const v = value as { userId?: unknown; settings?: unknown };
  return {
    userId: typeof v.userId === 'string' ? v.userId : null,
    settings: coerceUserSettings(v.settings),
  };
}

/** The last value read and what it gave: a stable snapshot for useSyncExternalStore. */
let lastRead: { raw: string | null; stored: StoredSettings | null } | null = null;

export function readStoredSettings(): StoredSettings | null {
  const raw = storage()?.getItem(STORAGE_KEYS.settings) ?? null;
  if (lastRead?.raw !== raw) lastRead = { raw, stored: parseStoredSettings(raw) };
  return lastRead.stored;
}

const listeners = new Set<() => void>();

/**
 * Listens to changes of the copy: this tab's writes, and other tabs' (the `storage` event).
 * Returns the unsubscribe function.
 */
export function subscribeStoredSettings(listener: () => void): () => void {
  const onStorage = (event: StorageEvent) => {
    // `key` is null when another tab cleared the whole storage.
    if (event.key === STORAGE_KEYS.settings || event.key === null) listener();
  };
  listeners.add(listener);
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** Keeps the copy (only when it changed: another tab hears every write as a `storage` event). */
export function writeStoredSettings(stored: StoredSettings): void {
  const store = storage();
  if (!store) return;
  const raw = JSON.stringify(stored);
  try {
    if (store.getItem(STORAGE_KEYS.settings) === raw) return;
    store.setItem(STORAGE_KEYS.settings, raw);
  } catch {
    // Storage full or refused: the settings still apply, only a reload will wait for the server.
    return;
  }
  for (const listener of [...listeners]) listener();
}
