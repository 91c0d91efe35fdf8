/**
 * Changes to a department itself: its description (managers), its name and archiving (admins).
 * Each saves with PATCH /api/departments/{id} at the revision the dialog was filled from, shows a
 * notification and closes; a refusal shows the server's message in the dialog. When someone else
 * changed the department meanwhile, the forms keep what was typed until Reload fills them with
 * the department as it is now (docs/architecture.md, "Two people editing at once").
 */
import type { DepartmentDetail } from '@learning-hub/core';
import { DepartmentUpdateSchema } from '@learning-hub/core';
import { TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { ConfirmModal } from '../../../components/confirm-modal';
import { FormActions, FormModal, FormStack } from '../../../components/form-modal';
import { RichTextEditor } from '../../../components/rich-text/rich-text-editor';
import { isClientError, isStaleEdit } from '../../../lib/api-client';

import { useReloadDepartment, useUpdateDepartment } from '../api/departments-api';
import { fieldErrors, firstError } from '../../../lib/form-errors';
import { href } from '../../../lib/links';
import { useReloadable } from '../../../components/stale-edit';

interface DialogProps {
  department: DepartmentDetail;
  opened: boolean;
  onClose(): void;
}

interface FormProps {
  department: DepartmentDetail;
  onClose(): void;
  /** Fills the form again from the department as the server has it now. */
  onReload(): Promise<void>;
}

/** A form, filled again from the server's department when a stale save is reloaded. */
function Reloadable({
  department,
  onClose,
  form: Form,
}: Omit<DialogProps, 'opened'> & { form(props: FormProps): ReactNode }) {
  const reload = useReloadDepartment(department.id);
  const loaded = useReloadable(department, reload);
  return (
    <Form key={loaded.key} department={loaded.value} onClose={onClose} onReload={loaded.onReload} />
  );
}

export function EditDescriptionDialog({ department, opened, onClose }: DialogProps) {
  return (
    <FormModal opened={opened} onClose={onClose} title="Edit description" size="lg">
      <Reloadable department={department} onClose={onClose} form={DescriptionForm} />
    </FormModal>
  );
}

function DescriptionForm({ department, onClose, onReload }: FormProps) {
  const update = useUpdateDepartment(department.id);
  const [description, setDescription] = useState(department.description);
  const [error, setError] = useState<string | null>(null);

  function submit() {
    const parsed = DepartmentUpdateSchema.safeParse({
      description,
      revision: department.revision,
    });
    if (!parsed.success) {
      setError(firstError(fieldErrors(parsed.error)) ?? 'The description cannot be saved');
      return;
    }
    setError(null);
    update.mutate(
      { description, revision: department.revision },
      {
        onSuccess: () => {
          onClose();
          notifications.show({ color: 'green', message: 'The description was saved.' });
        },
      },
    );
  }

  return (
    <FormStack onSubmit={submit}>
      <RichTextEditor
        label="Description"
        value={description}
        onChange={setDescription}
        error={error}
        minHeight="10rem"
      />
      <FormActions submitLabel="Save" mutation={update} onReload={onReload} onCancel={onClose} />
    </FormStack>
  );
}

export function RenameDialog({ department, opened, onClose }: DialogProps) {
  return (
    <FormModal opened={opened} onClose={onClose} title="Rename department">
      <Reloadable department={department} onClose={onClose} form={RenameForm} />
    </FormModal>
  );
}

/** A new name is a new address: the page moves there, and the old address redirects to it. */
function RenameForm({ department, onClose, onReload }: FormProps) {
  const navigate = useNavigate();
  const update = useUpdateDepartment(department.id);
  const [name, setName] = useState(department.name);
  const [nameError, setNameError] = useState<string | null>(null);
  // A name already taken (409) belongs to the field; a change made meanwhile does not.
  const conflict =
    isClientError(update.error) && update.error.status === 409 && !isStaleEdit(update.error);

  function submit() {
    const parsed = DepartmentUpdateSchema.safeParse({ name, revision: department.revision });
    setNameError(parsed.success ? null : (fieldErrors(parsed.error).name ?? null));
    if (!parsed.success || !parsed.data.name) return;
    if (parsed.data.name === department.name) {
      onClose();
      return;
    }
    update.mutate(
      { name: parsed.data.name, revision: department.revision },
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
    <FormStack onSubmit={submit}>
      <TextInput
        label="Name"
        description="The page's address follows the new name; links to the old one keep working."
        required
        value={name}
        onChange={(event) => setName(event.currentTarget.value)}
        error={nameError ?? (conflict ? update.error?.message : undefined)}
        data-autofocus
      />
      <FormActions
        submitLabel="Rename"
        mutation={update}
        error={conflict ? null : update.error}
        onReload={onReload}
        onCancel={onClose}
      />
    </FormStack>
  );
}

/** The archive dialog's answer to a stale change, once the department was reloaded. */
const ARCHIVE_STALE =
  'Someone else changed this department since you opened it. The dialog now shows it as it is: confirm again if you still want to.';

/**
 * Archiving (no new members; everything is kept) or bringing an archived department back. When
 * someone else changed the department meanwhile, it is reloaded and the dialog asks again about
 * the department as it is now.
 */
export function ArchiveDialog({ department, opened, onClose }: DialogProps) {
  const update = useUpdateDepartment(department.id);
  const reload = useReloadDepartment(department.id);
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
      error={isStaleEdit(update.error) ? ARCHIVE_STALE : (update.error?.message ?? null)}
      onClose={close}
      onConfirm={() =>
        update.mutate(
          { archived: archiving, revision: department.revision },
          {
            onError: (error) => {
              if (isStaleEdit(error)) void reload().catch(() => undefined);
            },
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
