/**
 * Changes to a department itself: its description (managers), its name and archiving (admins).
 * Each saves with PATCH /api/departments/{id}, shows a notification and closes; a refusal shows
 * the server's message in the dialog.
 */
import type { DepartmentDetail } from '@learning-hub/core';
import { DepartmentUpdateSchema } from '@learning-hub/core';
import { Alert, Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ConfirmModal } from '../../../components/confirm-modal';
import { RichTextEditor } from '../../../components/rich-text/rich-text-editor';
import { isClientError } from '../../../lib/api-client';

import { useUpdateDepartment } from '../api/departments-api';
import { fieldErrors, firstError } from '../../../lib/form-errors';
import { href } from '../../../lib/links';
import { ErrorAlert } from '../../../components/query-state';

interface DialogProps {
  department: DepartmentDetail;
  opened: boolean;
  onClose(): void;
}

export function EditDescriptionDialog({ department, opened, onClose }: DialogProps) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title="Edit description"
      size="lg"
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {opened && <DescriptionForm department={department} onClose={onClose} />}
    </Modal>
  );
}

function DescriptionForm({ department, onClose }: Omit<DialogProps, 'opened'>) {
  const update = useUpdateDepartment(department.id);
  const [description, setDescription] = useState(department.description);
  const [error, setError] = useState<string | null>(null);

  function submit() {
    const parsed = DepartmentUpdateSchema.safeParse({ description });
    if (!parsed.success) {
      setError(firstError(fieldErrors(parsed.error)) ?? 'The description cannot be saved');
      return;
    }
    setError(null);
    update.mutate(
      { description },
      {
        onSuccess: () => {
          onClose();
          notifications.show({ color: 'green', message: 'The description was saved.' });
        },
      },
    );
  }

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <Stack gap="md">
        <RichTextEditor
          label="Description"
          value={description}
          onChange={setDescription}
          error={error}
          minHeight="10rem"
        />
        {update.isError && <ErrorAlert error={update.error} />}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={update.isPending}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

export function RenameDialog({ department, opened, onClose }: DialogProps) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title="Rename department"
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {opened && <RenameForm department={department} onClose={onClose} />}
    </Modal>
  );
}

/** A new name is a new address: the page moves there, and the old address redirects to it. */
function RenameForm({ department, onClose }: Omit<DialogProps, 'opened'>) {
  const navigate = useNavigate();
  const update = useUpdateDepartment(department.id);
  const [name, setName] = useState(department.name);
  const [nameError, setNameError] = useState<string | null>(null);
  // A name already taken (409) belongs to the field.
  const conflict = isClientError(update.error) && update.error.status === 409;

  function submit() {
    const parsed = DepartmentUpdateSchema.safeParse({ name });
    setNameError(parsed.success ? null : (fieldErrors(parsed.error).name ?? null));
    if (!parsed.success || !parsed.data.name) return;
    if (parsed.data.name === department.name) {
      onClose();
      return;
    }
    update.mutate(
      { name: parsed.data.name },
      {
        onSuccess: (renamed) => {
          onClose();
          notifications.show({
            color: 'green',
            message: `The department is now called ${renamed.name}.`,
          });
          void navigate(href('department', { deptName: renamed.slug ?? renamed.id }), {
            replace: true,
          });
        },
      },
    );
  }

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <Stack gap="md">
        <TextInput
          label="Name"
          description="The page's address follows the new name; links to the old one keep working."
          required
          value={name}
          onChange={(event) => setName(event.currentTarget.value)}
          error={nameError ?? (conflict ? update.error?.message : undefined)}
          data-autofocus
        />
        {update.isError && !conflict && (
          <Alert color="red" role="alert">
            {update.error.message}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={update.isPending}>
            Rename
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Archiving (no new members; everything is kept) or bringing an archived department back. */
export function ArchiveDialog({ department, opened, onClose }: DialogProps) {
  const update = useUpdateDepartment(department.id);
  const archiving = department.archivedAt === null;
  const close = () => {
    update.reset();
    onClose();
  };
  return (
    <ConfirmModal
      opened={opened}
      title={archiving ? 'Archive the department?' : 'Unarchive the department?'}
      confirmLabel={archiving ? 'Archive' : 'Unarchive'}
      danger={archiving}
      busy={update.isPending}
      error={update.error?.message ?? null}
      onClose={close}
      onConfirm={() =>
        update.mutate(
          { archived: archiving },
          {
            onSuccess: () => {
              close();
              notifications.show({
                color: 'green',
                message: archiving
                  ? `${department.name} was archived.`
                  : `${department.name} is active again.`,
              });
            },
          },
        )
      }
    >
      {archiving
        ? `${department.name} takes no new members while it is archived. Its members, courses, library and wiki are kept, and admins can unarchive it.`
        : `${department.name} takes new members again.`}
    </ConfirmModal>
  );
}
