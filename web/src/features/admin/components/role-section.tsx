import { isAdminRole, type AdminUser } from '@learning-hub/core';
import { Button, Group, Paper, Select, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { displayName } from '../../../lib/format';
import { useRoles } from '../api/roles-api';
import { useSetRole } from '../api/users-api';
import { notifyError, notifySuccess } from '../utils/notify';
import { roleName, roleOptions } from '../utils/roles';
import { ConfirmModal } from '../../../components/confirm-modal';
import { useGrantRules } from './use-grant-rules';

/**
 * The user's system or custom role; changes that involve admin are confirmed first. Only the
 * roles the signed-in user may give are offered (core's grant rules); when none can be, the
 * select is locked and says why.
 */
export function RoleSection({ user }: { user: AdminUser }) {
  const roles = useRoles();
  const rules = useGrantRules(user);
  const setRole = useSetRole(user.id);
  const [choice, setChoice] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const selected = choice ?? user.role;
  const changed = selected !== user.role;
  const selectedRole = roles.data?.find((r) => r.id === selected);
  const name = displayName(user);

  const save = async () => {
    try {
      const updated = await setRole.mutateAsync(selected);
      notifySuccess('Role changed', `${name} is now ${roleName(roles.data, updated.role)}.`);
      setChoice(null);
    } catch (error) {
      notifyError('Could not change the role', error);
    } finally {
      setConfirming(false);
    }
  };

  const involvesAdmin = isAdminRole(user.role) || isAdminRole(selected);
  const warning = isAdminRole(selected)
    ? `${name} will become an administrator: every permission, and access to Admin Settings.`
    : `${name} will no longer be an administrator.`;
  const offered = roles.data?.filter((r) => r.id === user.role || rules.roles.has(r.id));
  const locked = rules.ready ? rules.roleChange : null;

  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="role-heading">
      <Stack gap="sm">
        <Title order={3} size="h4" id="role-heading">
          Role
        </Title>
        <Group align="flex-end" gap="sm" wrap="wrap">
          <Select
            label="Role"
            data={roleOptions(offered)}
            value={selected}
            onChange={(value) => setChoice(value)}
            allowDeselect={false}
            disabled={!rules.ready || locked !== null}
            aria-describedby={locked ? 'role-locked' : undefined}
            w={280}
          />
          <Button
            disabled={!changed}
            loading={setRole.isPending}
            onClick={() => (involvesAdmin ? setConfirming(true) : void save())}
          >
            Change role
          </Button>
          {changed && (
            <Button variant="subtle" onClick={() => setChoice(null)}>
              Undo
            </Button>
          )}
        </Group>
        {locked && (
          <Text size="sm" id="role-locked">
            {`You cannot change this role: ${locked}.`}
          </Text>
        )}
        {selectedRole && (
          <Text size="sm" c="dimmed">
            {selectedRole.description} {selectedRole.allPermissions.length} permissions.
          </Text>
        )}
      </Stack>
      <ConfirmModal
        opened={confirming}
        title={`Change role to ${roleName(roles.data, selected)}?`}
        confirmLabel="Change role"
        danger={!isAdminRole(selected)}
        busy={setRole.isPending}
        onConfirm={() => void save()}
        onClose={() => setConfirming(false)}
      >
        {warning}
      </ConfirmModal>
    </Paper>
  );
}
