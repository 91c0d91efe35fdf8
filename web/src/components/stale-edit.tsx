/**
 * A save refused because someone else changed the thing since the form read it: `409 CONFLICT`
 * with core's STALE_REVISION_MESSAGE (docs/architecture.md, "Two people editing at once"). The
 * form says so where the user is looking, keeps what they typed, and offers Reload, which brings
 * the other person's version into the form instead — said before the click, never done silently.
 */
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { isStaleEdit } from '../lib/api-client';
import { ErrorAlert, errorText } from './query-state';

/** What Reload does to the form, said next to it (the course creator's status says it too). */
export const STALE_EDIT_NOTE =
  'Your changes are still here, unsaved. Reload shows their version instead and discards yours.';

/** The stale save's message with Reload; `onReload` fetches the thing and refills the form. */
export function StaleEditAlert({
  message,
  onReload,
}: {
  message: string;
  onReload(): Promise<unknown>;
}) {
  const [reloading, setReloading] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);
  async function reload() {
    setReloading(true);
    setFailed(null);
    try {
      await onReload();
    } catch (error) {
      setFailed(`Couldn't reload: ${errorText(error)}`);
    } finally {
      setReloading(false);
    }
  }
  return (
    <Alert color="red" role="alert" title="Someone else changed this">
      <Stack gap="xs">
        <Text size="sm">{message}</Text>
        <Text size="sm">{STALE_EDIT_NOTE}</Text>
        {failed && <Text size="sm">{failed}</Text>}
        <Group>
          <Button
            size="compact-sm"
            variant="light"
            loading={reloading}
            onClick={() => void reload()}
          >
            Reload
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}

/** A failed save in a form: the stale-edit alert with Reload, or the error as it is. */
export function SaveErrorAlert({
  error,
  onReload,
}: {
  error: unknown;
  onReload(): Promise<unknown>;
}) {
  if (isStaleEdit(error)) {
    return <StaleEditAlert message={errorText(error)} onReload={onReload} />;
  }
  return <ErrorAlert error={error} />;
}

/**
 * The thing a form edits, read again from the server when a stale save is reloaded: render the
 * form with `key` (a new one after each reload, so the form starts again from `value`) and pass
 * `onReload` to StaleEditAlert.
 */
export function useReloadable<T>(initial: T, reload: () => Promise<T>) {
  const [loaded, setLoaded] = useState({ value: initial, times: 0 });
  return {
    key: loaded.times,
    value: loaded.value,
    onReload: async () => {
      const fresh = await reload();
      setLoaded((l) => ({ value: fresh, times: l.times + 1 }));
    },
  };
}
