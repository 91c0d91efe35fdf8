import { Anchor, Center, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';

/** Any path not in core's ROUTES. */
export function NotFoundPage() {
  return (
    <Center mih="50vh">
      <title>Page Not Found · Learning Hub</title>
      <Stack align="center" gap="md" ta="center">
        <Title order={1}>Page Not Found</Title>
        <Text>There is no page at this address.</Text>
        <Anchor component={Link} to="/">
          Go to Home
        </Anchor>
      </Stack>
    </Center>
  );
}
