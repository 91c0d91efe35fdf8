import { ALL_PERMISSION_IDS } from '@learning-hub/core';
import {
  Badge,
  Button,
  Card,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { IconLock, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useDeleteRole, useRoles, type RoleWithUsage } from '../api/roles-api';
import { notifySuccess } from '../utils/notify';
import { roleName } from '../utils/roles';
import { ConfirmModal, useConfirmation } from '../../../components/confirm-modal';
import { RoleFormModal } from './role-form-modal';
import { QueryState } from '../../../components/query-state';

export const SYSTEM_ROLE_NOTICE = 'System role — read only';

function PermissionBadges({ permissions }: { permissions: readonly string[] }) {
  if (permissions.length === ALL_PERMISSION_IDS.length) {
    return <Text size="sm">Every permission (admin passes every check)</Text>;
  }
  if (permissions.length === 0) return <Text size="sm">—</Text>;
  return (
    <Group gap={4} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
      {permissions.map((p) => (
        <li key={p}>
          <Badge variant="light" color="gray" tt="none" ff="monospace" fw={500}>
            {p}
          </Badge>
        </li>
      ))}
    </Group>
  );
}

function SystemRoleCard({ role, roles }: { role: RoleWithUsage; roles: RoleWithUsage[] }) {
  const headingId = `role-${role.id}-heading`;
  return (
    <Card withBorder padding="md" component="section" aria-labelledby={headingId}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Stack gap={0}>
            <Title order={3} size="h4" id={headingId}>
              {role.displayName}
            </Title>
            <Text size="xs" c="dimmed" ff="monospace">
              {role.id}
            </Text>
          </Stack>
          <Badge
            color="gray"
            variant="light"
            tt="none"
            leftSection={<IconLock size={12} aria-hidden="true" />}
          >
            {SYSTEM_ROLE_NOTICE}
          </Badge>
        </Group>
        <Text size="sm">{role.description}</Text>
        <Text size="sm">
          <strong>Inherits:</strong> {role.inherits ? roleName(roles, role.inherits) : '—'}
        </Text>
        <Text size="sm">
          <strong>All permissions:</strong> {role.allPermissions.length} · <strong>Users:</strong>{' '}
          {role.userCount}
        </Text>
        <Text size="sm" fw={700}>
          Adds:
        </Text>
        <PermissionBadges permissions={role.permissions} />
      </Stack>
    </Card>
  );
}

type Editing = { role: RoleWithUsage | null } | null;

/** /admin/roles: the system roles (read-only) and custom roles (create, edit, delete). */
export function RolesPage() {
  const roles = useRoles();
  const remove = useDeleteRole();
  const [editing, setEditing] = useState<Editing>(null);
  const deleting = useConfirmation(async (role: RoleWithUsage) => {
    await remove.mutateAsync(role.id);
    notifySuccess('Role deleted', `${role.displayName} was deleted.`);
  });

  if (roles.isPending || roles.isError) {
    return <QueryState query={roles} label="Loading roles" />;
  }
  const all = roles.data;
  const system = all.filter((r) => r.isSystemRole);
  const custom = all.filter((r) => !r.isSystemRole);

  return (
    <Stack gap="lg">
      <Stack gap="sm" component="section" aria-labelledby="system-roles-heading">
        <Title order={2} size="h3" id="system-roles-heading">
          System roles
        </Title>
        <Text size="sm" c="dimmed">
          Each inherits every permission of the one below it. System roles cannot be edited or
          deleted.
        </Text>
        <SimpleGrid cols={{ base: 1, md: 3 }}>
          {system.map((role) => (
            <SystemRoleCard key={role.id} role={role} roles={all} />
          ))}
        </SimpleGrid>
      </Stack>
      <Paper withBorder p="lg" component="section" aria-labelledby="custom-roles-heading">
        <Stack gap="sm">
          <Group justify="space-between">
            <Title order={2} size="h3" id="custom-roles-heading">
              Custom roles
            </Title>
            <Button
              leftSection={<IconPlus size={16} aria-hidden="true" />}
              onClick={() => setEditing({ role: null })}
            >
              Create role
            </Button>
          </Group>
          <Text size="sm" c="dimmed">
            A custom role builds on student, instructor or another custom role and adds permissions
            to it.
          </Text>
          {custom.length === 0 ? (
            <Text size="sm">No custom roles yet.</Text>
          ) : (
            <Table.ScrollContainer minWidth={860}>
              <Table verticalSpacing="sm" aria-labelledby="custom-roles-heading">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th scope="col">Role</Table.Th>
                    <Table.Th scope="col">Inherits</Table.Th>
                    <Table.Th scope="col">Adds</Table.Th>
                    <Table.Th scope="col" ta="right">
                      All permissions
                    </Table.Th>
                    <Table.Th scope="col" ta="right">
                      Users
                    </Table.Th>
                    <Table.Th scope="col" ta="right">
                      Priority
                    </Table.Th>
                    <Table.Th scope="col">
                      <VisuallyHidden>Actions</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {custom.map((role) => (
                    <Table.Tr key={role.id}>
                      <Table.Td>
                        <Text size="sm" fw={600}>
                          {role.displayName}
                        </Text>
                        <Text size="xs" c="dimmed" ff="monospace">
                          {role.id}
                        </Text>
                        {role.description && (
                          <Text size="xs" c="dimmed" maw={260}>
                            {role.description}
                          </Text>
                        )}
                      </Table.Td>
                      <Table.Td>{role.inherits ? roleName(all, role.inherits) : '—'}</Table.Td>
                      <Table.Td maw={320}>
                        <PermissionBadges permissions={role.permissions} />
                      </Table.Td>
                      <Table.Td ta="right">{role.allPermissions.length}</Table.Td>
                      <Table.Td ta="right">{role.userCount}</Table.Td>
                      <Table.Td ta="right">{role.priority}</Table.Td>
                      <Table.Td>
                        <Group gap="xs" wrap="nowrap" justify="flex-end">
                          <Button
                            size="xs"
                            variant="default"
                            aria-label={`Edit ${role.displayName}`}
                            onClick={() => setEditing({ role })}
                          >
                            Edit
                          </Button>
                          <Button
                            size="xs"
                            variant="default"
                            aria-label={`Delete ${role.displayName}`}
                            onClick={() => deleting.ask(role)}
                          >
                            Delete
                          </Button>
                        </Group>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </Stack>
      </Paper>
      <RoleFormModal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        role={editing?.role ?? null}
        roles={all}
      />
      <ConfirmModal
        {...deleting.props}
        title={`Delete ${deleting.thing?.displayName ?? 'role'}?`}
        confirmLabel="Delete role"
        danger
      >
        {`The custom role ${deleting.thing?.id ?? ''} will be deleted. A role still held by users or inherited by another role cannot be deleted.`}
      </ConfirmModal>
    </Stack>
  );
}
