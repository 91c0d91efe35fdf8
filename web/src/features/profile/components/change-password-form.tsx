import { passwordLengthProblem } from '@learning-hub/core';
import { Alert, Button, Group, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useAuth } from '../../../lib/auth/auth-context';

interface PasswordValues {
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
}

export const PASSWORDS_DO_NOT_MATCH = 'Passwords do not match';

/** Current, new and confirmation; the server's reason appears beside the field it concerns. */
export function ChangePasswordForm({ onChanged }: { onChanged?: () => void }) {
  const auth = useAuth();
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const form = useForm<PasswordValues>({
    mode: 'uncontrolled',
    initialValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
    validate: {
      currentPassword: (value) => (value ? null : 'Current password is required'),
      newPassword: (value) => (value ? passwordLengthProblem(value) : 'New password is required'),
      confirmPassword: (value, values) =>
        value === values.newPassword ? null : PASSWORDS_DO_NOT_MATCH,
    },
  });

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
          <PasswordInput
            label="New password"
            autoComplete="new-password"
            withAsterisk
            key={form.key('newPassword')}
            {...form.getInputProps('newPassword')}
          />
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
