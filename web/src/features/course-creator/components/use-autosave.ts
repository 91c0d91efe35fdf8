/**
 * Saves edits on their own a moment after the last keystroke (docs/classroom.md, "Course
 * creator"): `schedule(value)` on every change, one save at a time, the newest value wins.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { isStaleEdit } from '../../../lib/api-client';

export const AUTOSAVE_DELAY_MS = 1500;

export type AutosaveState =
  | { status: 'idle' }
  | { status: 'pending' }
  | { status: 'saving' }
  | { status: 'saved' }
  | { status: 'error'; message: string; conflict: boolean }
  | { status: 'invalid'; message: string };

export interface Autosave<T> {
  state: AutosaveState;
  /** Changes not yet stored by the server (waiting, in flight, or failed). */
  dirty: boolean;
  schedule(value: T): void;
  /** Says the value cannot be saved as it is (a validation message); it stays unsaved. */
  invalid(message: string): void;
  /** Saves what is waiting now instead of after the delay. */
  flush(): void;
  /** Forgets what is waiting (after reloading the server's version). */
  reset(): void;
}

export function useAutosave<T>(
  save: (value: T) => Promise<void>,
  delay = AUTOSAVE_DELAY_MS,
): Autosave<T> {
  const [state, setState] = useState<AutosaveState>({ status: 'idle' });
  const [dirty, setDirty] = useState(false);
  const pending = useRef<{ value: T } | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const inFlight = useRef(false);
  const saveRef = useRef(save);
  useEffect(() => {
    saveRef.current = save;
  });

  const run = useCallback(async function runSave() {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    if (inFlight.current || !pending.current) return;
    const { value } = pending.current;
    pending.current = null;
    inFlight.current = true;
    setState({ status: 'saving' });
    try {
      await saveRef.current(value);
      if (pending.current) setState({ status: 'pending' });
      else {
        setState({ status: 'saved' });
        setDirty(false);
      }
    } catch (error) {
      const message = error instanceof Error && error.message ? error.message : 'Unknown error';
      // Only a change someone else made meanwhile is fixed by reloading (not a code taken).
      setState({ status: 'error', message, conflict: isStaleEdit(error) });
    } finally {
      inFlight.current = false;
    }
    if (pending.current) void runSave();
  }, []);

  const schedule = useCallback(
    (value: T) => {
      pending.current = { value };
      setDirty(true);
      setState((s) => (s.status === 'saving' ? s : { status: 'pending' }));
      if (timer.current) clearTimeout(timer.current);
      timer.current = setTimeout(() => void run(), delay);
    },
    [delay, run],
  );

  const invalid = useCallback((message: string) => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    pending.current = null;
    setDirty(true);
    setState({ status: 'invalid', message });
  }, []);

  const flush = useCallback(() => void run(), [run]);

  const reset = useCallback(() => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    pending.current = null;
    setDirty(false);
    setState({ status: 'idle' });
  }, []);

  // Leaving the editor (another lesson, another step) still stores what was typed.
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
      if (pending.current && !inFlight.current) void saveRef.current(pending.current.value);
    },
    [],
  );

  return { state, dirty, schedule, invalid, flush, reset };
}
