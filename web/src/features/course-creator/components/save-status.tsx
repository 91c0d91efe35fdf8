import { Button, Group, Text } from '@mantine/core';
import type { AutosaveState } from './use-autosave';

/** "Saving…", "Saved", or why it could not be saved (with Reload after a conflict). */
export function SaveStatus({ state, onReload }: { state: AutosaveState; onReload?: () => void }) {
  let text = '';
  let color: string | undefined = 'dimmed';
  switch (state.status) {
    case 'idle':
      text = 'All changes saved';
      break;
    case 'pending':
      text = 'Unsaved changes';
      break;
    case 'saving':
      text = 'Saving…';
      break;
    case 'saved':
      text = 'Saved';
      break;
    case 'invalid':
      text = `Couldn't save: ${state.message}`;
      color = 'red.8';
      break;
    case 'error':
      text = state.conflict
        ? `Couldn't save: ${state.message} Reload to get the latest version (your unsaved changes here are discarded).`
        : `Couldn't save: ${state.message}`;
      color = 'red.8';
      break;
  }
  return (
    <Group gap="xs" wrap="wrap">
      <Text role="status" size="sm" c={color}>
        {text}
      </Text>
      {state.status === 'error' && state.conflict && onReload && (
        <Button size="compact-sm" variant="light" onClick={onReload}>
          Reload
        </Button>
      )}
    </Group>
  );
}
