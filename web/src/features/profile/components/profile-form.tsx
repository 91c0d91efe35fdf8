import {
  ProfileUpdateSchema,
  SYSTEM_ROLES,
  isSystemRoleId,
  type AccountField,
  type ProfileUpdate,
  type PublicUser,
} from '@learning-hub/core';
import { Alert, Button, Group, Paper, SimpleGrid, Stack, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useAuth } from '../../../lib/auth/auth-context';
import { useProfileSource } from '../api/profile-api';
import { fieldErrors } from '../../../lib/form-errors';

interface ProfileValues {
  firstname: string;
  lastname: string;
  email: string;
}

function valuesOf(user: PublicUser): ProfileValues {
  return { firstname: user.firstname, lastname: user.lastname, email: user.email ?? '' };
}

/** The fields that differ from the user's current profile (never those its provider owns). */
export function profileChanges(
  user: PublicUser,
  values: ProfileValues,
  providerOwned: readonly AccountField[] = [],
): Partial<ProfileValues> {
  const current = valuesOf(user);
  const changes: Partial<ProfileValues> = {};
  for (const key of ['firstname', 'lastname', 'email'] as const) {
    if (providerOwned.includes(key)) continue;
    if (values[key] !== current[key]) changes[key] = values[key];
  }
  return changes;
}

function roleLabel(role: string): string {
  return isSystemRoleId(role) ? SYSTEM_ROLES[role].displayName : role;
}

/** First name, last name and email (PUT /api/auth/profile); username, role and department read-only. */
export function ProfileForm({ user, disabled = false }: { user: PublicUser; disabled?: boolean }) {
  const auth = useAuth();
  const source = useProfileSource();
  const owned = source.data?.providerOwned ?? [];
  const providerName = source.data?.provider?.label ?? 'your sign-in service';
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const form = useForm<ProfileValues>({
    initialValues: valuesOf(user),
    validate: (values) => {
      const parsed = ProfileUpdateSchema.safeParse(profileChanges(user, values, owned));
      return parsed.success ? {} : fieldErrors(parsed.error);
    },
  });

  const submit = async (values: ProfileValues) => {
    const parsed = ProfileUpdateSchema.safeParse(profileChanges(user, values, owned));
    if (!parsed.success) return;
    const changes: ProfileUpdate = parsed.data;
    setSaving(true);
    setError(null);
    const result = await auth.updateProfile(changes);
    setSaving(false);
    if (!result.success) {
      setError(result.error);
      return;
    }
    form.setInitialValues(valuesOf(result.user));
    form.setValues(valuesOf(result.user));
    notifications.show({
      color: 'green',
      title: 'Profile updated',
      message: 'Your profile has been saved.',
    });
  };

  /** A field the provider sets at every sign-in: shown read-only, with where to change it. */
  const ownedProps = (field: AccountField) =>
    owned.includes(field)
      ? {
          readOnly: true,
          variant: 'filled' as const,
          withAsterisk: false,
          description: `From ${providerName}: change it there.`,
        }
      : {};

  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="profile-heading">
      <form onSubmit={form.onSubmit((values) => void submit(values))} noValidate>
        <fieldset disabled={disabled} style={{ border: 0, margin: 0, padding: 0, minWidth: 0 }}>
          <Stack gap="md">
            <Title order={2} size="h3" id="profile-heading">
              Profile
            </Title>
            {error && <Alert color="red">{error}</Alert>}
            <SimpleGrid cols={{ base: 1, sm: 3 }}>
              <TextInput label="Username" value={user.username} readOnly variant="filled" />
              <TextInput label="Role" value={roleLabel(user.role)} readOnly variant="filled" />
              <TextInput
                label="Department"
                value={user.department ?? 'None'}
                readOnly
                variant="filled"
              />
            </SimpleGrid>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput
                label="First name"
                autoComplete="given-name"
                withAsterisk
                {...form.getInputProps('firstname')}
                {...ownedProps('firstname')}
              />
              <TextInput
                label="Last name"
                autoComplete="family-name"
                withAsterisk
                {...form.getInputProps('lastname')}
                {...ownedProps('lastname')}
              />
            </SimpleGrid>
            <TextInput
              label="Email"
              type="email"
              autoComplete="email"
              {...form.getInputProps('email')}
              {...ownedProps('email')}
            />
            <Group justify="flex-end">
              <Button type="submit" loading={saving} disabled={!form.isDirty()}>
                Save profile
              </Button>
            </Group>
          </Stack>
        </fieldset>
      </form>
    </Paper>
  );
}
