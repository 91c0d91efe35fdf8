import { Alert, Stack, Title } from '@mantine/core';
import { useNavigate, useSearchParams } from 'react-router';
import { useAuth } from '../../../lib/auth/auth-context';
import { safeNextPath } from '../../../lib/safe-next';
import { ChangePasswordForm } from './change-password-form';
import { ProfileForm } from './profile-form';
import { SessionsTable } from './sessions-table';

export const PASSWORD_CHANGE_REQUIRED_NOTICE = 'You must change your password before continuing.';

/** /profile-settings: profile, password change (forced when required) and active sessions. */
export function ProfileSettingsPage() {
  const auth = useAuth();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const user = auth.user;
  if (!user) return null;
  const required = auth.requiresPasswordChange;

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
      {!required && <ChangePasswordForm />}
      <SessionsTable />
    </Stack>
  );
}
