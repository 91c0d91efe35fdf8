/**
 * The one leave guard: warns before leaving a form (another page, or closing the tab) while
 * something is not saved (the wiki's editors, the course creator).
 */
import { ConfirmModal } from './confirm-modal';
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
    <ConfirmModal
      opened={blocker.state === 'blocked'}
      title="Leave without saving?"
      confirmLabel="Leave"
      cancelLabel="Stay on this page"
      danger
      onClose={() => blocker.reset?.()}
      onConfirm={() => blocker.proceed?.()}
    >
      Some changes are not saved yet. If you leave now, they are lost.
    </ConfirmModal>
  );
  return { dialog, release };
}

/** The guard as a component, for a page that never needs `release()`. */
export function LeaveGuard({ dirty }: { dirty: boolean }) {
  return useLeaveGuard(dirty).dialog;
}
