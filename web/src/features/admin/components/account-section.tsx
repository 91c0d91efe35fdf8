import {
  ACCOUNT_FIELD_LABELS,
  UserUpdateSchema,
  type AccountField,
  type AdminUser,
  type UserAccount,
  type UserUpdate,
} from '@learning-hub/core';
import {
  Alert,
  Badge,
  Button,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { displayName } from '../../../lib/format';
import { useDepartmentChoices } from '../../departments/api/departments-api';
import { useSetUserActive, useUpdateUser, useUserAccount } from '../api/users-api';
import { errorMessage, notifySuccess } from '../utils/notify';
import { ConfirmModal } from '../../../components/confirm-modal';
import { fieldErrors, showServerErrors } from '../../../lib/form-errors';
import { QueryState } from '../../../components/query-state';

interface DetailValues {
  firstname: string;
  lastname: string;
  email: string;
  departmentId: string | null;
}

function valuesOf(user: AdminUser): DetailValues {
  return {
    firstname: user.firstname,
    lastname: user.lastname,
    email: user.email ?? '',
    departmentId: user.departmentId,
  };
}

const FIELD_OF_VALUE: Record<keyof DetailValues, AccountField> = {
  firstname: 'firstname',
  lastname: 'lastname',
  email: 'email',
  departmentId: 'department',
};

/** The fields that differ from the user's record and are not the provider's. */
export function accountChanges(
  user: AdminUser,
  values: DetailValues,
  providerOwned: readonly AccountField[],
): UserUpdate {
  const current = valuesOf(user);
  const changes: Record<string, unknown> = {};
  for (const key of Object.keys(FIELD_OF_VALUE) as (keyof DetailValues)[]) {
    if (providerOwned.includes(FIELD_OF_VALUE[key])) continue;
    if (values[key] === current[key]) continue;
    changes[key] = key === 'email' && values.email.trim() === '' ? null : values[key];
  }
  return changes as UserUpdate;
}

/** The Account tab of a user: names, email, department (provider-owned ones read-only) and status. */
export function AccountSection({ user }: { user: AdminUser }) {
  const account = useUserAccount(user.id);
  if (account.isPending || account.isError) {
    return (
      <QueryState
        query={account}
        label="Loading the account"
        errorTitle="Could not load the account"
      />
    );
  }
  return (
    <Stack gap="lg">
      <DetailsForm key={JSON.stringify(valuesOf(user))} user={user} account={account.data} />
      <StatusSection user={user} account={account.data} />
    </Stack>
  );
}

function DetailsForm({ user, account }: { user: AdminUser; account: UserAccount }) {
  const update = useUpdateUser(user.id);
  const departments = useDepartmentChoices();
  const [serverError, setServerError] = useState<string | null>(null);
  const owned = account.providerOwned;
  const isOwned = (field: AccountField) => owned.includes(field);
  const providerName = account.provider?.label ?? 'its sign-in service';
  const canEdit = account.abilities.edit.allowed;

  const form = useForm<DetailValues>({
    initialValues: valuesOf(user),
    validate: (values) => {
      const changes = accountChanges(user, values, owned);
      if (Object.keys(changes).length === 0) return {};
      const parsed = UserUpdateSchema.safeParse(changes);
      return parsed.success ? {} : fieldErrors(parsed.error);
    },
  });

  const submit = async (values: DetailValues) => {
    const parsed = UserUpdateSchema.safeParse(accountChanges(user, values, owned));
    if (!parsed.success) return;
    setServerError(null);
    try {
      const saved = await update.mutateAsync(parsed.data);
      notifySuccess('Details saved', `${displayName(saved)} was updated.`);
    } catch (error) {
      if (!showServerErrors(form, error)) setServerError(errorMessage(error));
    }
  };

  const ownedNote = (field: AccountField) =>
    isOwned(field) ? `From ${providerName}: change it there.` : undefined;
  const readOnlyProps = (field: AccountField) =>
    isOwned(field) || !canEdit ? { readOnly: true, variant: 'filled' as const } : {};
  const departmentOptions = (departments.data ?? []).map((d) => ({ value: d.id, label: d.name }));
  if (user.departmentId && !departmentOptions.some((d) => d.value === user.departmentId)) {
    departmentOptions.push({
      value: user.departmentId,
      label: user.department ?? user.departmentId,
    });
  }

  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="details-heading">
      <form onSubmit={form.onSubmit((v) => void submit(v))} noValidate>
        <Stack gap="md">
          <Title order={3} size="h4" id="details-heading">
            Details
          </Title>
          {account.provider && owned.length > 0 && (
            <Text size="sm" c="dimmed">
              This account signs in through {providerName}, which sets its{' '}
              {owned.map((f) => ACCOUNT_FIELD_LABELS[f].toLowerCase()).join(', ')} at every sign-in:
              those are shown read-only.
            </Text>
          )}
          {!canEdit && account.abilities.edit.reason && (
            <Text size="sm" c="dimmed">
              You cannot change these details: {account.abilities.edit.reason}.
            </Text>
          )}
          {serverError && (
            <Alert color="red" role="alert" title="Not saved">
              {serverError}
            </Alert>
          )}
          <TextInput label="Username" value={user.username} readOnly variant="filled" />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label="First name"
              withAsterisk={!isOwned('firstname') && canEdit}
              description={ownedNote('firstname')}
              {...readOnlyProps('firstname')}
              {...form.getInputProps('firstname')}
            />
            <TextInput
              label="Last name"
              withAsterisk={!isOwned('lastname') && canEdit}
              description={ownedNote('lastname')}
              {...readOnlyProps('lastname')}
              {...form.getInputProps('lastname')}
            />
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label="Email"
              type="email"
              description={ownedNote('email')}
              {...readOnlyProps('email')}
              {...form.getInputProps('email')}
            />
            <Select
              label="Department"
              placeholder="No department"
              description={ownedNote('department')}
              clearable={!isOwned('department') && canEdit}
              searchable
              data={departmentOptions}
              {...readOnlyProps('department')}
              {...form.getInputProps('departmentId')}
            />
          </SimpleGrid>
          {canEdit && (
            <Group justify="flex-end">
              <Button
                type="submit"
                loading={update.isPending}
                disabled={Object.keys(accountChanges(user, form.getValues(), owned)).length === 0}
              >
                Save details
              </Button>
            </Group>
          )}
        </Stack>
      </form>
    </Paper>
  );
}

function StatusSection({ user, account }: { user: AdminUser; account: UserAccount }) {
  const setActive = useSetUserActive(user.id);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const name = displayName(user);
  const active = user.isActive;
  const ability = active ? account.abilities.deactivate : account.abilities.reactivate;

  const confirm = async () => {
    setError(null);
    try {
      const result = await setActive.mutateAsync(!active);
      setConfirming(false);
      notifySuccess(
        active ? 'User deactivated' : 'User reactivated',
        active
          ? `${name} is deactivated; ${result.endedSessions} ${
              result.endedSessions === 1 ? 'session was' : 'sessions were'
            } ended.`
          : `${name} can sign in again.`,
      );
    } catch (e) {
      setError(errorMessage(e));
    }
  };

  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="status-heading">
      <Stack gap="sm">
        <Group gap="sm">
          <Title order={3} size="h4" id="status-heading">
            Status
          </Title>
          <Badge variant="light" color={active ? 'green' : 'gray'} tt="none">
            {active ? 'Active' : 'Deactivated'}
          </Badge>
        </Group>
        <Text size="sm" c="dimmed">
          {active
            ? 'Deactivating signs the user out everywhere at once; they cannot sign in until reactivated. Nothing of theirs is deleted.'
            : 'The user cannot sign in. Reactivating lets them sign in again as before.'}
        </Text>
        {ability.allowed ? (
          <Group>
            <Button
              color={active ? 'red.9' : undefined}
              variant={active ? 'outline' : 'filled'}
              onClick={() => {
                setError(null);
                setConfirming(true);
              }}
            >
              {active ? 'Deactivate' : 'Reactivate'}
            </Button>
          </Group>
        ) : (
          ability.reason && (
            <Text size="sm">
              {active ? 'Cannot be deactivated' : 'Cannot be reactivated'}: {ability.reason}
            </Text>
          )
        )}
      </Stack>
      <ConfirmModal
        opened={confirming}
        title={active ? `Deactivate ${name}?` : `Reactivate ${name}?`}
        confirmLabel={active ? 'Deactivate' : 'Reactivate'}
        danger={active}
        busy={setActive.isPending}
        error={error}
        onConfirm={() => void confirm()}
        onClose={() => setConfirming(false)}
      >
        {active
          ? `${name} will be signed out on every device at once and cannot sign in until reactivated.`
          : `${name} will be able to sign in again with their current password.`}
      </ConfirmModal>
    </Paper>
  );
}
