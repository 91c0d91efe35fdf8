import { Button, Group, Text } from '@mantine/core';
import { STALE_EDIT_NOTE } from '../../../components/stale-edit';
import type { AutosaveState } from './use-autosave';

/**
 * "Saving…", "Saved", or why it could not be saved; after a change someone else made meanwhile,
 * what Reload does and the button (the same words as every form's: components/stale-edit.tsx).
 */
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
        ? `Couldn't save: ${state.message} ${STALE_EDIT_NOTE}`
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
