import { Anchor, Badge, Group, Stack, Tabs, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link, useParams, useSearchParams } from 'react-router';
import { useAuth } from '../../../lib/auth/auth-context';
import { displayName } from '../../../lib/format';
import { useRoles } from '../api/roles-api';
import { useAdminUser } from '../api/users-api';

import { roleName } from '../utils/roles';
import { AccountSection } from './account-section';
import { AssignmentsSection } from './assignments-section';
import { DirectPermissionsSection } from './direct-permissions-section';
import { EffectivePermissionsPanel } from './effective-permissions-panel';
import { RoleSection } from './role-section';
import { UserActivity } from './user-activity';
import { QueryState } from '../../../components/query-state';

const TABS = ['access', 'account', 'effective', 'activity'] as const;
type Tab = (typeof TABS)[number];

/**
 * /admin/users/:userId: one user's role, direct permissions and assignments, their account
 * (details and status), effective permissions and activity.
 */
export function UserDetailPage() {
  const { userId = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const auth = useAuth();
  const roles = useRoles();
  const user = useAdminUser(userId);
  const requested = params.get('tab');
  const tab: Tab = TABS.includes(requested as Tab) ? (requested as Tab) : 'access';

  const back = (
    <Anchor component={Link} to="/admin" size="sm">
      <Group gap={4} component="span" wrap="nowrap">
        <IconArrowLeft size={14} aria-hidden="true" />
        All users
      </Group>
    </Anchor>
  );

  if (user.isPending || user.isError) {
    return (
      <Stack gap="sm" align="flex-start">
        {back}
        <QueryState query={user} label="Loading user" errorTitle="Could not load the user" />
      </Stack>
    );
  }
  const u = user.data;
  const isSelf = auth.user?.id === u.id;

  return (
    <Stack gap="md">
      {back}
      <Stack gap={4}>
        <Group gap="sm" wrap="wrap">
          <Title order={2}>{displayName(u)}</Title>
          <Badge variant="light" tt="none" color={u.role === 'admin' ? 'red' : 'brand'}>
            {roleName(roles.data, u.role)}
          </Badge>
          {isSelf && (
            <Badge variant="outline" tt="none">
              You
            </Badge>
          )}
          {!u.isActive && (
            <Badge variant="light" color="gray" tt="none">
              Inactive
            </Badge>
          )}
        </Group>
        <Text size="sm" c="dimmed">
          {[u.username, u.email, u.department ?? 'No department'].filter(Boolean).join(' · ')}
        </Text>
      </Stack>
      <Tabs
        value={tab}
        onChange={(value) =>
          setParams(
            (current) => {
              const next = new URLSearchParams(current);
              if (value && value !== 'access') next.set('tab', value);
              else next.delete('tab');
              return next;
            },
            { replace: true },
          )
        }
        keepMounted={false}
      >
        <Tabs.List>
          <Tabs.Tab value="access">Access</Tabs.Tab>
          <Tabs.Tab value="account">Account</Tabs.Tab>
          <Tabs.Tab value="effective">Effective permissions</Tabs.Tab>
          <Tabs.Tab value="activity">Activity</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="access" pt="md">
          <Stack gap="lg">
            <RoleSection key={u.role} user={u} />
            <DirectPermissionsSection user={u} />
            <AssignmentsSection user={u} />
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="account" pt="md">
          <AccountSection user={u} />
        </Tabs.Panel>
        <Tabs.Panel value="effective" pt="md">
          <EffectivePermissionsPanel user={u} />
        </Tabs.Panel>
        <Tabs.Panel value="activity" pt="md">
          <UserActivity user={u} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
