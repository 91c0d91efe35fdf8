import { Stack, Text } from '@mantine/core';
import { permissionDescription } from '../utils/permissions';

/** A permission in a select's dropdown: its id and the catalogue's description. */
export function PermissionOptionRow({ option }: { option: { value: string; label: string } }) {
  return (
    <Stack gap={0}>
      <Text size="sm" ff="monospace">
        {option.label}
      </Text>
      <Text size="xs" c="dimmed">
        {permissionDescription(option.value)}
      </Text>
    </Stack>
  );
}
