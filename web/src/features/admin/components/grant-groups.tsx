import type { Grant } from '@learning-hub/core';
import { Badge, Group, Paper, Stack, Text } from '@mantine/core';
import { GRANT_SOURCE_LABELS } from '@learning-hub/core';
import { groupBySource } from '../utils/grants';

const SOURCE_COLORS: Readonly<Record<Grant['source'], string>> = {
  admin: 'red',
  role: 'brand',
  'inherited-role': 'indigo',
  direct: 'teal',
  'context-role': 'grape',
  'context-direct': 'orange',
  'parent-context': 'gray',
};

/** Permissions grouped by the grant they come from (role, inherited role, direct, context …). */
export function GrantGroups({
  entries,
  headingLevel = 4,
}: {
  entries: readonly { permission: string; grants: readonly Grant[] }[];
  headingLevel?: 3 | 4 | 5;
}) {
  const groups = groupBySource(entries);
  const Heading = `h${headingLevel}` as const;
  return (
    <Stack gap="sm">
      {groups.map((group) => (
        <Paper key={group.key} withBorder p="sm">
          <Group gap="xs" mb="xs" wrap="wrap">
            <Badge color={SOURCE_COLORS[group.grant.source]} variant="dot" tt="none">
              {GRANT_SOURCE_LABELS[group.grant.source]}
            </Badge>
            <Text component={Heading} size="sm" fw={600} m={0}>
              {group.key}
            </Text>
            <Text size="xs" c="dimmed">
              {group.permissions.length === 1
                ? '1 permission'
                : `${group.permissions.length} permissions`}
            </Text>
          </Group>
          <Group gap={6} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {group.permissions.map((p) => (
              <li key={p}>
                <Badge variant="light" color="gray" tt="none" ff="monospace" fw={500}>
                  {p}
                </Badge>
              </li>
            ))}
          </Group>
        </Paper>
      ))}
    </Stack>
  );
}
