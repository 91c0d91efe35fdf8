/**
 * The one leave guard: warns before leaving a form (another page, or closing the tab) while
 * something is not saved (the wiki's editors, the course creator).
 */
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useCallback, useEffect, useRef } from 'react';
import { useBlocker } from 'react-router';

interface Locations {
  currentLocation: { pathname: string };
  nextLocation: { pathname: string };
}

/**
 * `dirty`: something is not saved. Returns the dialog to render and `release()`, which a form
 * that has just saved calls before it navigates away (the check reads the latest value when the
 * navigation happens, before React has rendered the saved state).
 */
export function useLeaveGuard(dirty: boolean) {
  const dirtyNow = useRef(dirty);
  useEffect(() => {
    dirtyNow.current = dirty;
  }, [dirty]);
  const shouldBlock = useCallback(
    ({ currentLocation, nextLocation }: Locations) =>
      dirtyNow.current && currentLocation.pathname !== nextLocation.pathname,
    [],
  );
  const blocker = useBlocker(shouldBlock);
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  const release = useCallback(() => {
    dirtyNow.current = false;
  }, []);

  const dialog = (
    <Modal
      opened={blocker.state === 'blocked'}
      onClose={() => blocker.reset?.()}
      title="Leave without saving?"
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <Stack gap="md">
        <Text size="sm">Some changes are not saved yet. If you leave now, they are lost.</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => blocker.reset?.()}>
            Stay on this page
          </Button>
          <Button color="red.9" onClick={() => blocker.proceed?.()}>
            Leave
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
  return { dialog, release };
}

/** The guard as a component, for a page that never needs `release()`. */
export function LeaveGuard({ dirty }: { dirty: boolean }) {
  return useLeaveGuard(dirty).dialog;
}
