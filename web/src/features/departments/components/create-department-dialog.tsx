/** "New department" (admins): a name and a description; the new department's page opens. */
import { DepartmentCreateSchema } from '@learning-hub/core';
import { TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { FormActions, FormModal, FormStack } from '../../../components/form-modal';
import { RichTextEditor } from '../../../components/rich-text/rich-text-editor';
import { isClientError } from '../../../lib/api-client';
import { useCreateDepartment } from '../api/departments-api';
import { fieldErrors } from '../../../lib/form-errors';
import { href } from '../../../lib/links';

export function CreateDepartmentDialog({ opened, onClose }: { opened: boolean; onClose(): void }) {
  return (
    <FormModal opened={opened} onClose={onClose} title="New department" size="lg">
      <CreateForm onClose={onClose} />
    </FormModal>
  );
}

function CreateForm({ onClose }: { onClose(): void }) {
  const navigate = useNavigate();
  const create = useCreateDepartment();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [errors, setErrors] = useState<{ name?: string; description?: string }>({});
  // A name already taken (409) belongs to the name field; anything else to the form.
  const conflict = isClientError(create.error) && create.error.status === 409;

  function submit() {
    const parsed = DepartmentCreateSchema.safeParse({ name, description });
    if (!parsed.success) {
      const found = fieldErrors(parsed.error);
      setErrors({ name: found.name, description: found.description });
      return;
    }
    setErrors({});
    create.mutate(parsed.data, {
      onSuccess: (department) => {
        onClose();
        notifications.show({
          color: 'green',
          message: `The department ${department.name} was created.`,
        });
        void navigate(href('department', { deptName: department.slug ?? department.id }));
      },
    });
  }

  return (
    <FormStack onSubmit={submit}>
      <TextInput
        label="Name"
        required
        value={name}
        onChange={(event) => setName(event.currentTarget.value)}
        error={errors.name ?? (conflict ? create.error?.message : undefined)}
        data-autofocus
      />
      <RichTextEditor
        label="Description"
        value={description}
        onChange={setDescription}
        error={errors.description}
        minHeight="8rem"
      />
      <FormActions
        submitLabel="Create department"
        mutation={create}
        error={create.isError && !conflict ? create.error.message : null}
        onCancel={onClose}
      />
    </FormStack>
  );
}
