import { Stack, Text } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { errorText } from './query-state';
import { FormActions, FormModal } from './form-modal';

export interface ConfirmModalProps {
  opened: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  /** "Cancel" by default. */
  cancelLabel?: string;
  /** Red confirm button for removals. */
  danger?: boolean;
  busy?: boolean;
  /**
   * A failure to show in the dialog: a message (e.g. the server's 409 message) as it is, or a
   * failed mutation's error with the API's code (form-modal.tsx, `FailedSave`).
   */
  error?: unknown;
  onConfirm(): void;
  onClose(): void;
}

/** A confirmation dialog: what will happen, Cancel, and the action (FormActions' footer). */
export function ConfirmModal({
  opened,
  title,
  children,
  confirmLabel,
  cancelLabel,
  danger = false,
  busy = false,
  error,
  onConfirm,
  onClose,
}: ConfirmModalProps) {
  return (
    <FormModal opened={opened} onClose={onClose} title={title} centered>
      <Stack gap="md">
        {typeof children === 'string' ? <Text size="sm">{children}</Text> : children}
        <FormActions
          submitLabel={confirmLabel}
          danger={danger}
          busy={busy}
          error={error}
          onCancel={onClose}
          cancelLabel={cancelLabel}
          onConfirm={onConfirm}
        />
      </Stack>
    </FormModal>
  );
}

/**
 * The confirmation of an action on one thing of a list (a row's Delete): `ask(thing)` opens the
 * dialog about it, `props` are ConfirmModal's `opened`, `busy`, `error`, `onConfirm` and
 * `onClose`. Confirming runs `action(thing)`: the dialog closes when it succeeds and shows its
 * failure's message when it fails.
 */
export function useConfirmation<T>(action: (thing: T) => Promise<unknown>) {
  const [thing, setThing] = useState<T | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    setThing(null);
    setError(null);
  };
  return {
    /** The thing asked about; null while the dialog is closed. */
    thing,
    ask(next: T) {
      setError(null);
      setThing(next);
    },
    props: {
      opened: thing !== null,
      busy,
      error,
      onClose: close,
      onConfirm() {
        if (thing === null) return;
        setError(null);
        setBusy(true);
        action(thing)
          .then(close, (failure: unknown) => setError(errorText(failure)))
          .finally(() => setBusy(false));
      },
    },
  };
}
