import {
  grantableRoles,
  NEW_USER_DEFAULT_ROLE,
  SYSTEM_ROLES,
  UserCreateSchema,
  type UserCreated,
} from '@learning-hub/core';
import { Alert, Button, Group, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { FormActions, FormModal, FormStack } from '../../../components/form-modal';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { Link } from 'react-router';
import { CopyValueButton } from '../../../components/copy-value-button';
import { useCan } from '../../../lib/auth/use-can';
import { displayName } from '../../../lib/format';
import { useDepartmentChoices } from '../../departments/api/departments-api';
import { useRoles } from '../api/roles-api';
import { useCreateUser } from '../api/users-api';
import { errorMessage } from '../utils/notify';
import { roleOptions } from '../utils/roles';
import { registryOf } from './role-form-modal';
import { fieldErrors, showServerErrors } from '../../../lib/form-errors';
import { href } from '../../../lib/links';

interface NewUserValues {
  username: string;
  firstname: string;
  lastname: string;
  email: string;
  departmentId: string | null;
  role: string | null;
}

const EMPTY: NewUserValues = {
  username: '',
  firstname: '',
  lastname: '',
  email: '',
  departmentId: null,
  role: NEW_USER_DEFAULT_ROLE,
};

function payload(values: NewUserValues) {
  return {
    username: values.username,
    firstname: values.firstname,
    lastname: values.lastname,
    email: values.email.trim() === '' ? null : values.email.trim(),
    departmentId: values.departmentId,
    role: values.role ?? NEW_USER_DEFAULT_ROLE,
  };
}

export const ONE_TIME_PASSWORD_NOTICE =
  'This password is shown only now: the server keeps no copy it could show again. Give it to the user in person or over a trusted channel. They must choose their own password when they first sign in.';

/** Create a local account; its one-time password is shown once, then the dialog forgets it. */
export function CreateUserModal({ opened, onClose }: { opened: boolean; onClose(): void }) {
  const [created, setCreated] = useState<UserCreated | null>(null);
  const close = () => {
    setCreated(null);
    onClose();
  };
  return (
    <FormModal
      opened={opened}
      onClose={close}
      title={created ? 'User created' : 'Create a user'}
      size="lg"
      centered
    >
      {created ? (
        <OneTimePassword created={created} onDone={close} />
      ) : (
        <CreateUserForm onCancel={close} onCreated={setCreated} />
      )}
    </FormModal>
  );
}

function CreateUserForm({
  onCancel,
  onCreated,
}: {
  onCancel(): void;
  onCreated(created: UserCreated): void;
}) {
  const create = useCreateUser();
  const roles = useRoles();
  const departments = useDepartmentChoices();
  const can = useCan();
  const [serverError, setServerError] = useState<string | null>(null);

  // Only the roles the signed-in user may give (core's grant rules, as the server applies them).
  const allowed = new Set(
    roles.data && can.subject ? grantableRoles(can.subject, null, registryOf(roles.data)) : [],
  );
  allowed.add(NEW_USER_DEFAULT_ROLE);
  const options = roles.data
    ? roleOptions(roles.data.filter((r) => allowed.has(r.id)))
    : [{ value: NEW_USER_DEFAULT_ROLE, label: SYSTEM_ROLES[NEW_USER_DEFAULT_ROLE].displayName }];

  const form = useForm<NewUserValues>({
    initialValues: EMPTY,
    validate: (values) => {
      const parsed = UserCreateSchema.safeParse(payload(values));
      return parsed.success ? {} : fieldErrors(parsed.error);
    },
  });

  const submit = async (values: NewUserValues) => {
    setServerError(null);
    try {
      onCreated(await create.mutateAsync(UserCreateSchema.parse(payload(values))));
    } catch (error) {
      if (!showServerErrors(form, error)) setServerError(errorMessage(error));
    }
  };

  return (
    <FormStack onSubmit={form.onSubmit((v) => void submit(v))}>
      <Text size="sm" c="dimmed">
        A local account that signs in with a username and password. A one-time password is made for
        it and shown once.
      </Text>
      {serverError && (
        <Alert color="red" role="alert" title="Not created">
          {serverError}
        </Alert>
      )}
      <TextInput
        label="Username"
        description="Letters, digits and . _ - @; unique, whatever the case."
        autoComplete="off"
        withAsterisk
        {...form.getInputProps('username')}
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput label="First name" withAsterisk {...form.getInputProps('firstname')} />
        <TextInput label="Last name" withAsterisk {...form.getInputProps('lastname')} />
      </SimpleGrid>
      <TextInput label="Email" type="email" {...form.getInputProps('email')} />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Select
          label="Department"
          placeholder="No department"
          clearable
          searchable
          data={(departments.data ?? []).map((d) => ({ value: d.id, label: d.name }))}
          {...form.getInputProps('departmentId')}
        />
        <Select
          label="Role"
          allowDeselect={false}
          data={options}
          disabled={roles.isPending}
          {...form.getInputProps('role')}
        />
      </SimpleGrid>
      <FormActions submitLabel="Create user" busy={create.isPending} onCancel={onCancel} />
    </FormStack>
  );
}

function OneTimePassword({ created, onDone }: { created: UserCreated; onDone(): void }) {
  const { oneTimePassword, ...user } = created;
  return (
    <Stack gap="md">
      <Text size="sm">
        {displayName(user)} can now sign in as <strong>{user.username}</strong> with this one-time
        password.
      </Text>
      <Alert color="yellow" variant="light" title="Copy it now">
        {ONE_TIME_PASSWORD_NOTICE}
      </Alert>
      <Group gap="xs" align="flex-end" wrap="nowrap">
        <TextInput
          label="One-time password"
          value={oneTimePassword}
          readOnly
          variant="filled"
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          style={{ flex: 1 }}
          onFocus={(event) => event.currentTarget.select()}
        />
        <CopyValueButton
          value={oneTimePassword}
          label="Copy the password"
          copiedLabel="Password copied"
        />
      </Group>
      <Group justify="flex-end">
        <Button
          variant="default"
          component={Link}
          to={href('adminUser', { userId: user.id })}
          onClick={onDone}
        >
          Open the user
        </Button>
        <Button onClick={onDone}>Done</Button>
      </Group>
    </Stack>
  );
}
