/**
 * The one way to write a dialog with a form (docs/front-end.md, "The kit"):
 *
 *     <FormModal opened={opened} onClose={onClose} title="Rename department">
 *       <RenameForm onClose={onClose} />
 *     </FormModal>
 *
 *     <FormStack onSubmit={submit}>
 *       <TextInput label="Name" … />
 *       <FormActions submitLabel="Rename" mutation={update} onCancel={onClose} />
 *     </FormStack>
 *
 * `FormModal` renders its body only while it is open, so a form starts again from its first
 * values each time. `FormStack` is the form (no browser validation: the form checks its values
 * against core's contract) in a Stack. `FormActions` is the footer: the failed save, Cancel and
 * the submit button; ConfirmModal's footer is the same.
 */
import {
  Alert,
  Button,
  Group,
  Modal,
  Stack,
  type ModalProps,
  type StackProps,
} from '@mantine/core';
import type { ReactNode } from 'react';
import { ErrorAlert } from './query-state';
import { SaveErrorAlert } from './stale-edit';

export interface FormModalProps {
  opened: boolean;
  onClose(): void;
  title: string;
  size?: ModalProps['size'];
  centered?: boolean;
  children: ReactNode;
}

/** A dialog around a form: its title, the Close button, and the body only while it is open. */
export function FormModal({ opened, onClose, title, size, centered, children }: FormModalProps) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={title}
      size={size}
      centered={centered}
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {opened && children}
    </Modal>
  );
}

/** A form whose submit calls `onSubmit` (and loads no page), its fields in a Stack. */
export function FormStack({
  onSubmit,
  gap = 'md',
  children,
}: {
  onSubmit(): void;
  gap?: StackProps['gap'];
  children: ReactNode;
}) {
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      <Stack gap={gap}>{children}</Stack>
    </form>
  );
}

/** A failed save as an alert: a message as it is, an error with its code, a stale save with Reload. */
export function FailedSave({
  error,
  onReload,
}: {
  error: unknown;
  onReload?: (() => Promise<unknown>) | undefined;
}) {
  if (!error) return null;
  if (typeof error === 'string') {
    return (
      <Alert color="red" role="alert">
        {error}
      </Alert>
    );
  }
  if (onReload) return <SaveErrorAlert error={error} onReload={onReload} />;
  return <ErrorAlert error={error} />;
}

export interface FormActionsProps {
  /** The submit button's label ("Save", "Add member"). */
  submitLabel: string;
  /** The save's mutation: `busy` while it is pending, and its error (unless `error` is given). */
  mutation?: { isPending: boolean; error: unknown };
  /** The save is under way: the button shows it is loading. */
  busy?: boolean;
  disabled?: boolean;
  /** Red submit button for removals. */
  danger?: boolean;
  /**
   * The failed save, instead of the mutation's (nothing when null): an error (ErrorAlert, with the
   * API's code) or a message to show as it is.
   */
  error?: unknown;
  /** For a form that sends a revision: a stale save's alert offers Reload (stale-edit.tsx). */
  onReload?: (() => Promise<unknown>) | undefined;
  onCancel(): void;
  /** "Cancel" by default ("Stay on this page"). */
  cancelLabel?: string;
  /** Without it the button submits the form around it; with it (a confirmation) it is clicked. */
  onConfirm?: (() => void) | undefined;
}

/** A dialog's footer: the failed save, then Cancel and the submit button. */
export function FormActions({
  submitLabel,
  mutation,
  busy = mutation?.isPending ?? false,
  disabled,
  danger = false,
  error = mutation?.error,
  onReload,
  onCancel,
  cancelLabel = 'Cancel',
  onConfirm,
}: FormActionsProps) {
  return (
    <>
      <FailedSave error={error} onReload={onReload} />
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel}>
          {cancelLabel}
        </Button>
        <Button
          type={onConfirm ? 'button' : 'submit'}
          color={danger ? 'red.9' : undefined}
          loading={busy}
          disabled={disabled}
          onClick={onConfirm}
        >
          {submitLabel}
        </Button>
      </Group>
    </>
  );
}
