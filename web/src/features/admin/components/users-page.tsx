import {
  Anchor,
  Badge,
  Button,
  Group,
  Loader,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconSearch, IconUserPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useCan } from '../../../lib/auth/use-can';
import { displayName } from '../../../lib/format';
import { DepartmentFilter } from '../../departments/components/department-filter';
import { useRoles } from '../api/roles-api';
import { USERS_PAGE_SIZE, useUserList } from '../api/users-api';
import { CreateUserModal } from './create-user-modal';
import { DataList } from '../../../components/data-list';
import { Pager } from '../../../components/pager';
import { PhoneFilters } from '../../../components/phone-filters';
import { useFilterParams, useTypedFilter } from '../../../lib/use-filter-params';

import { rangeText } from '../utils/range';
import { roleName, roleOptions } from '../utils/roles';
import { QueryState } from '../../../components/query-state';
import { href } from '../../../lib/links';

/** /admin: users with server-side search, role and department filters and pagination; create a user. */
export function UsersPage() {
  const navigate = useNavigate();
  const filters = useFilterParams();
  const search = filters.get('q') ?? '';
  const role = filters.get('role');
  const department = filters.get('department');
  const page = filters.page;
  const typedSearch = useTypedFilter(filters, 'q');
  const [creating, setCreating] = useState(false);
  const can = useCan();
  const update = filters.set;

  const roles = useRoles();
  const users = useUserList({
    search: search || undefined,
    role: role ?? undefined,
    department: department ?? undefined,
    page,
    pageSize: USERS_PAGE_SIZE,
  });
  const data = users.data;

  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="users-heading">
      <Stack gap="md">
        <Group justify="space-between" wrap="wrap">
          <Title order={2} size="h3" id="users-heading">
            Users & Roles
          </Title>
          {can.permission('user.create') && (
            <Button
              leftSection={<IconUserPlus size={16} aria-hidden="true" />}
              onClick={() => setCreating(true)}
            >
              Create user
            </Button>
          )}
        </Group>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <PhoneFilters
            active={[role, department].filter(Boolean).length}
            search={
              <TextInput
                label="Search"
                placeholder="Name, username or email"
                leftSection={<IconSearch size={16} aria-hidden="true" />}
                {...typedSearch.field}
              />
            }
          >
            <Select
              label="Role"
              placeholder="Any role"
              clearable
              data={roleOptions(roles.data)}
              value={role}
              onChange={(value) => update({ role: value })}
            />
            <DepartmentFilter
              value={department}
              onChange={(value) => update({ department: value })}
            />
          </PhoneFilters>
        </SimpleGrid>
        <QueryState query={users} label="Loading users" />
        {data && (
          <>
            <Group justify="space-between">
              <Text size="sm" c="dimmed" aria-live="polite">
                {rangeText(data.page, data.pageSize, data.items.length, data.total, 'users')}
              </Text>
              {users.isFetching && <Loader size="xs" aria-label="Updating" />}
            </Group>
            <DataList
              labelledBy="users-heading"
              rows={data.items}
              rowKey={(u) => u.id}
              minWidth={760}
              columns={[
                {
                  header: 'Name',
                  card: 'title',
                  cell: (u) => (
                    <>
                      <Anchor component={Link} to={href('adminUser', { userId: u.id })}>
                        {displayName(u)}
                      </Anchor>
                      {!u.isActive && (
                        <Badge ml="xs" size="sm" color="gray" variant="light" tt="none">
                          Inactive
                        </Badge>
                      )}
                    </>
                  ),
                },
                { header: 'Username', card: 'subtitle', cell: (u) => u.username },
                {
                  header: 'Role',
                  card: 'aside',
                  cell: (u) => (
                    <Badge variant="light" tt="none" color={u.role === 'admin' ? 'red' : 'brand'}>
                      {roleName(roles.data, u.role)}
                    </Badge>
                  ),
                },
                { header: 'Department', cell: (u) => u.department ?? '—' },
                {
                  header: 'Direct permissions',
                  align: 'right',
                  cell: (u) => u.directPermissions.length,
                },
                { header: 'Assignments', align: 'right', cell: (u) => u.assignmentCount },
              ]}
              onRowClick={(u, event) => {
                // A search typed just before must not pull the user back to the list.
                typedSearch.cancel();
                if ((event.target as HTMLElement).closest('a')) return;
                void navigate(href('adminUser', { userId: u.id }));
              }}
              empty={
                <Text c="dimmed" ta="center" py="md">
                  No users match these filters.
                </Text>
              }
            />
            <Pager
              label="Users pages"
              page={page}
              total={data.total}
              pageSize={data.pageSize}
              onChange={filters.setPage}
            />
          </>
        )}
      </Stack>
      <CreateUserModal opened={creating} onClose={() => setCreating(false)} />
    </Paper>
  );
}
