import { describeGrant, GRANT_SOURCE_LABELS, type Grant } from '@learning-hub/core';
import { Badge, Group, List, Stack, Text } from '@mantine/core';

/** For each permission checked: the chain of grants through which the user holds it. */
export function GrantChains({
  entries,
}: {
  entries: readonly { permission: string; grants: readonly Grant[] }[];
}) {
  return (
    <Stack gap="sm">
      {entries.map(({ permission, grants }) => (
        <Stack key={permission} gap={4}>
          <Text size="sm" fw={600} ff="monospace" component="h4" m={0}>
            {permission}
          </Text>
          {grants.length === 0 ? (
            <Text size="sm" c="dimmed">
              Not held in this scope.
            </Text>
          ) : (
            <List size="sm" spacing={4} listStyleType="none" withPadding={false}>
              {grants.map((grant) => (
                <List.Item key={describeGrant(grant)}>
                  <Group gap="xs" wrap="nowrap" align="flex-start">
                    <Badge variant="light" tt="none" miw={120}>
                      {GRANT_SOURCE_LABELS[grant.source]}
                    </Badge>
                    <Text size="sm">{describeGrant(grant)}</Text>
                  </Group>
                </List.Item>
              ))}
            </List>
          )}
        </Stack>
      ))}
    </Stack>
  );
}
