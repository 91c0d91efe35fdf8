import { passwordRuleProblem, type PasswordOwner } from '@learning-hub/core';
import { Alert, Button, Group, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMemo, useState } from 'react';
import { PasswordStrength } from '../../../components/password-strength';
import { useAuth } from '../../../lib/auth/auth-context';

interface PasswordValues {
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
}

export const PASSWORDS_DO_NOT_MATCH = 'Passwords do not match';

/**
 * Current, new and confirmation. The new password is checked against the same rules as the
 * server's (core's `passwordRuleProblem`: length, control characters, only spaces, repeats,
 * sequences, the username and names) and a strength meter advises; the server remains the
 * authority, and its reason appears beside the field it concerns.
 */
export function ChangePasswordForm({ onChanged }: { onChanged?: () => void }) {
  const auth = useAuth();
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [newPassword, setNewPassword] = useState('');
  const [currentPassword, setCurrentPassword] = useState('');
  const owner: PasswordOwner = useMemo(
    () => ({
      username: auth.user?.username ?? '',
      firstname: auth.user?.firstname ?? null,
      lastname: auth.user?.lastname ?? null,
      email: auth.user?.email ?? null,
    }),
    [auth.user],
  );
  const userInputs = useMemo(
    () =>
      [owner.username, owner.firstname, owner.lastname, owner.email].filter(Boolean) as string[],
    [owner],
  );
  const form = useForm<PasswordValues>({
    mode: 'uncontrolled',
    initialValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
    validate: {
      currentPassword: (value) => (value ? null : 'Current password is required'),
      newPassword: (value, values) =>
        value
          ? passwordRuleProblem(value, owner, { currentPassword: values.currentPassword })
          : 'New password is required',
      confirmPassword: (value, values) =>
        value === values.newPassword ? null : PASSWORDS_DO_NOT_MATCH,
    },
  });
  form.watch('newPassword', ({ value }) => setNewPassword(value));
  form.watch('currentPassword', ({ value }) => setCurrentPassword(value));
  const problem = newPassword
    ? passwordRuleProblem(newPassword, owner, {
        ...(currentPassword ? { currentPassword } : {}),
      })
    : null;

  const submit = async (values: PasswordValues) => {
    setSaving(true);
    setError(null);
    const result = await auth.changePassword({
      currentPassword: values.currentPassword,
      newPassword: values.newPassword,
    });
    setSaving(false);
    if (!result.success) {
      if (result.code === 'INVALID_CURRENT_PASSWORD') {
        form.setFieldError('currentPassword', result.error);
      } else if (result.code === 'PASSWORD_POLICY') {
        form.setFieldError('newPassword', result.error);
      } else {
        setError(result.error);
      }
      return;
    }
    form.reset();
    const ended = result.revokedSessions;
    notifications.show({
      color: 'green',
      title: 'Password changed',
      message:
        ended > 0
          ? `Your password has been changed and ${ended} other ${ended === 1 ? 'session was' : 'sessions were'} ended.`
          : 'Your password has been changed.',
    });
    onChanged?.();
  };

  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="password-heading">
      <form onSubmit={form.onSubmit((values) => void submit(values))} noValidate>
        <Stack gap="md">
          <Title order={2} size="h3" id="password-heading">
            Change password
          </Title>
          <Text size="sm" c="dimmed">
            Changing your password signs you out on your other devices.
          </Text>
          {error && <Alert color="red">{error}</Alert>}
          <PasswordInput
            label="Current password"
            autoComplete="current-password"
            withAsterisk
            key={form.key('currentPassword')}
            {...form.getInputProps('currentPassword')}
          />
          <Stack gap={6}>
            <PasswordInput
              label="New password"
              description="At least 8 characters. A few unrelated words make a strong passphrase."
              autoComplete="new-password"
              withAsterisk
              key={form.key('newPassword')}
              {...form.getInputProps('newPassword')}
            />
            <PasswordStrength
              password={newPassword}
              userInputs={userInputs}
              problem={problem}
              showProblem={!form.errors.newPassword}
            />
          </Stack>
          <PasswordInput
            label="Confirm new password"
            autoComplete="new-password"
            withAsterisk
            key={form.key('confirmPassword')}
            {...form.getInputProps('confirmPassword')}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={saving}>
              Change password
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
