import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { useLocation, useNavigate } from 'react-router';

export const ACCESS_DENIED_TITLE = 'Access Denied';
export const ACCESS_DENIED_TEXT = 'You do not have permission to access this resource.';

/** The access-denied panel of spec §2, for routes that ask for it instead of a redirect. */
export function AccessDenied({ message = ACCESS_DENIED_TEXT }: { message?: string }) {
  const navigate = useNavigate();
  const location = useLocation();
  // The first entry of the history has the key 'default': there is nothing to go back to.
  const canGoBack = location.key !== 'default';
  return (
    <Center mih="50vh">
      <Stack align="center" gap="md" maw={480} ta="center">
        <IconLock size={48} stroke={1.5} aria-hidden="true" />
        <Title order={1}>{ACCESS_DENIED_TITLE}</Title>
        <Text>{message}</Text>
        <Button onClick={() => (canGoBack ? void navigate(-1) : void navigate('/'))}>
          Go Back
        </Button>
      </Stack>
    </Center>
  );
}
