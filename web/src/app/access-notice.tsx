import { Alert, Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { useLocation, useNavigate } from 'react-router';
import { denialOf, denialText } from '../lib/access-denial';

/** The spec's access-denied panel (§2): its heading and default text, word for word. */
export const ACCESS_DENIED_TITLE = 'Access Denied';
export const ACCESS_DENIED_TEXT = 'You do not have permission to access this resource.';

/**
 * The notice of a refused page (lib/access-denial.ts), shown above the page the user was sent to
 * (`/`) until they dismiss it or go elsewhere: the spec's access-denied panel (heading, default
 * text and Go Back), plus which page was refused and the check's own reason. Go Back returns to
 * the page before the refused one. Dismissing drops the notice from the history entry, so going
 * back to this entry or reloading does not bring it back.
 */
export function AccessNotice() {
  const location = useLocation();
  const navigate = useNavigate();
  const denial = denialOf(location.state);
  if (!denial) return null;
  // React Router numbers the app's history entries (`idx`): at 0 there is no page of the app to
  // go back to (the refused page was opened directly), and Go Back only dismisses.
  const entry = window.history.state as { idx?: number } | null;
  const canGoBack = (entry?.idx ?? 0) > 0;
  const dismiss = () =>
    void navigate(
      { pathname: location.pathname, search: location.search, hash: location.hash },
      { replace: true, state: null },
    );
  return (
    <Alert
      role="alert"
      color="yellow"
      mb="lg"
      icon={<IconLock size={20} aria-hidden="true" />}
      withCloseButton
      closeButtonLabel="Dismiss"
      onClose={dismiss}
    >
      <Stack gap={6}>
        <Title order={2} size="h4">
          {ACCESS_DENIED_TITLE}
        </Title>
        <Text size="sm">{ACCESS_DENIED_TEXT}</Text>
        <Text size="sm">{denialText(denial)}</Text>
        <Group gap="sm">
          <Button
            size="xs"
            variant="default"
            onClick={() => (canGoBack ? void navigate(-1) : dismiss())}
          >
            Go Back
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}
