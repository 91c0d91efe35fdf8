import type { AdminUser } from '@learning-hub/core';
import { Group, Loader, Paper, Select, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useAssignments, useEffectivePermissions } from '../api/users-api';

import { GrantGroups } from './grant-groups';
import { QueryState } from '../../../components/query-state';

/** What the user holds in a scope (system, any, or one of their contexts), grouped by source. */
export function EffectivePermissionsPanel({ user }: { user: AdminUser }) {
  const [scope, setScope] = useState('system');
  const assignments = useAssignments(user.id);
  const effective = useEffectivePermissions(user.id, scope);

  const scopes = [
    { value: 'system', label: 'System (everywhere)' },
    { value: 'any', label: 'Any context the user has' },
    ...(assignments.data ?? []).map((a) => ({
      value: a.contextKey,
      label: `${a.contextLabel} (${a.contextKey})${a.inForce ? '' : ' — expired'}`,
    })),
  ];
  const data = effective.data;

  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="effective-heading">
      <Stack gap="md">
        <Title order={3} size="h4" id="effective-heading">
          Effective permissions
        </Title>
        <Group align="flex-end" gap="md">
          <Select
            label="Scope"
            data={scopes}
            value={scope}
            onChange={(value) => value && setScope(value)}
            allowDeselect={false}
            w={560}
            maw="100%"
          />
          {effective.isFetching && <Loader size="xs" aria-label="Updating" />}
        </Group>
        <QueryState query={effective} label="Loading effective permissions" />
        {data && (
          <>
            <Text size="sm" aria-live="polite">
              {`${data.permissions.length} permissions in ${
                data.scope === 'system'
                  ? 'the system context'
                  : data.scope === 'any'
                    ? 'any context'
                    : data.scope
              }, grouped by where they come from. A permission given in several ways appears in each group.`}
            </Text>
            {data.permissions.length === 0 ? (
              <Text size="sm">No permissions.</Text>
            ) : (
              <GrantGroups entries={data.permissions} />
            )}
          </>
        )}
      </Stack>
    </Paper>
  );
}
