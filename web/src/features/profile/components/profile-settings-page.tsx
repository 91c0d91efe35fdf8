import type { PublicUser } from '@learning-hub/core';
import { Alert, Paper, Stack, Text, Title } from '@mantine/core';
import { useNavigate, useSearchParams } from 'react-router';
import { useAuth } from '../../../lib/auth/auth-context';
import { safeNextPath } from '../../../lib/safe-next';
import { ChangePasswordForm } from './change-password-form';
import { ProfileForm } from './profile-form';
import { SessionsTable } from './sessions-table';

export const PASSWORD_CHANGE_REQUIRED_NOTICE = 'You must change your password before continuing.';

/** Why an account has no password to change here, or null for a local account. */
export function passwordElsewhereNotice(user: PublicUser): string | null {
  if (user.authMethod === 'local') return null;
  if (user.authMethod === 'disabled') {
    return 'You are signed in as the built-in developer account of dev mode. It has no password, so there is nothing to change here.';
  }
  return 'This account signs in through another service: change its password there.';
}

function PasswordElsewhere({ notice }: { notice: string }) {
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="password-heading">
      <Stack gap="sm">
        <Title order={2} size="h3" id="password-heading">
          Password
        </Title>
        <Text size="sm">{notice}</Text>
      </Stack>
    </Paper>
  );
}

/** /profile-settings: profile, password change (forced when required) and active sessions. */
export function ProfileSettingsPage() {
  const auth = useAuth();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const user = auth.user;
  if (!user) return null;
  const required = auth.requiresPasswordChange;
  const elsewhere = passwordElsewhereNotice(user);

  return (
    <Stack gap="xl" maw={960}>
      <Title order={1}>Profile Settings</Title>
      {required && (
        <Alert color="yellow" variant="light">
          {PASSWORD_CHANGE_REQUIRED_NOTICE}
        </Alert>
      )}
      {required && (
        <ChangePasswordForm
          onChanged={() => void navigate(safeNextPath(searchParams.get('next')), { replace: true })}
        />
      )}
      <ProfileForm user={user} disabled={required} />
      {!required && (elsewhere ? <PasswordElsewhere notice={elsewhere} /> : <ChangePasswordForm />)}
      <SessionsTable />
    </Stack>
  );
}
