import { ALL_PERMISSION_IDS, type AdminUser } from '@learning-hub/core';
import {
  Button,
  Group,
  Paper,
  Select,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useState } from 'react';
import { useGrantPermission, useRevokePermission } from '../api/users-api';
import { notifyError, notifySuccess } from '../utils/notify';
import { permissionDescription, permissionOptions } from '../utils/permissions';
import { ConfirmModal } from '../../../components/confirm-modal';
import { PermissionOptionRow } from './permission-option';
import { useGrantRules } from './use-grant-rules';

/**
 * Permissions granted to the user directly, everywhere: revoke (confirmed) and grant. Only what
 * the signed-in user may give or take away is offered (core's grant rules).
 */
export function DirectPermissionsSection({ user }: { user: AdminUser }) {
  const rules = useGrantRules(user);
  const grant = useGrantPermission(user.id);
  const revoke = useRevokePermission(user.id);
  const [adding, setAdding] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<string | null>(null);
  const held = user.directPermissions;
  const locked = rules.ready ? rules.permissions : null;
  const notOffered = ALL_PERMISSION_IDS.filter((p) => !rules.grantable.has(p));

  const add = async () => {
    if (!adding) return;
    try {
      await grant.mutateAsync(adding);
      notifySuccess('Permission granted', `${adding} was granted to ${user.username}.`);
      setAdding(null);
    } catch (error) {
      notifyError('Could not grant the permission', error);
    }
  };

  const remove = async () => {
    if (!revoking) return;
    try {
      await revoke.mutateAsync(revoking);
      notifySuccess('Permission revoked', `${revoking} was revoked from ${user.username}.`);
    } catch (error) {
      notifyError('Could not revoke the permission', error);
    } finally {
      setRevoking(null);
    }
  };

  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="direct-heading">
      <Stack gap="sm">
        <Title order={3} size="h4" id="direct-heading">
          Direct permissions
        </Title>
        <Text size="sm" c="dimmed">
          Granted to this user everywhere, on top of their role.
        </Text>
        {locked && <Text size="sm">{`You cannot change these permissions: ${locked}.`}</Text>}
        {held.length === 0 ? (
          <Text size="sm">No direct permissions.</Text>
        ) : (
          <Table verticalSpacing="xs" aria-labelledby="direct-heading">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Permission</Table.Th>
                <Table.Th scope="col">Description</Table.Th>
                <Table.Th scope="col">
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {held.map((permission) => (
                <Table.Tr key={permission}>
                  <Table.Td>
                    <Text ff="monospace" size="sm">
                      {permission}
                    </Text>
                  </Table.Td>
                  <Table.Td>{permissionDescription(permission)}</Table.Td>
                  <Table.Td ta="right">
                    <RevokeCell
                      permission={permission}
                      denial={locked ? null : rules.revokeDenial(permission)}
                      hidden={!rules.ready || locked !== null}
                      onRevoke={() => setRevoking(permission)}
                    />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        {rules.ready && !locked && (
          <Group align="flex-end" gap="sm" wrap="wrap">
            <Select
              label="Add a permission"
              placeholder="Search the catalogue"
              searchable
              clearable
              data={permissionOptions({ exclude: [...held, ...notOffered] })}
              renderOption={({ option }) => <PermissionOptionRow option={option} />}
              value={adding}
              onChange={setAdding}
              nothingFoundMessage="No such permission"
              maxDropdownHeight={320}
              w={320}
            />
            <Button disabled={!adding} loading={grant.isPending} onClick={() => void add()}>
              Grant
            </Button>
          </Group>
        )}
      </Stack>
      <ConfirmModal
        opened={revoking !== null}
        title={`Revoke ${revoking ?? ''}?`}
        confirmLabel="Revoke"
        danger
        busy={revoke.isPending}
        onConfirm={() => void remove()}
        onClose={() => setRevoking(null)}
      >
        {`${user.username} will no longer hold ${revoking ?? ''} directly. Their role and context assignments are not changed.`}
      </ConfirmModal>
    </Paper>
  );
}

/** Revoke, or why the signed-in user may not take this permission away. */
function RevokeCell({
  permission,
  denial,
  hidden,
  onRevoke,
}: {
  permission: string;
  denial: string | null;
  hidden: boolean;
  onRevoke(): void;
}) {
  if (hidden) return null;
  if (denial) {
    return (
      <Text size="xs" c="dimmed">
        {denial}
      </Text>
    );
  }
  return (
    <Button size="xs" variant="default" aria-label={`Revoke ${permission}`} onClick={onRevoke}>
      Revoke
    </Button>
  );
}
