import { Stack, Text, Title } from '@mantine/core';

export const NOT_BUILT_NOTICE = 'This area is not available yet.';

/** A route of the table whose feature is not built yet: its title and an honest notice. */
export function NotBuiltPage({ title }: { title: string }) {
  return (
    <Stack gap="sm">
      <Title order={1}>{title}</Title>
      <Text c="dimmed">{NOT_BUILT_NOTICE}</Text>
    </Stack>
  );
}
