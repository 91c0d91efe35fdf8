import type { AdminUser, AssignmentView } from '@learning-hub/core';
import {
  Badge,
  Button,
  Group,
  Paper,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { formatDateTime, displayName } from '../../../lib/format';
import { useAssignments, useRemoveAssignment } from '../api/users-api';
import { notifyError, notifySuccess } from '../utils/notify';
import { contextRoleName } from '../utils/roles';
import { AssignmentFormModal } from './assignment-form-modal';
import { ConfirmModal, useConfirmation } from '../../../components/confirm-modal';
import { useGrantRules } from './use-grant-rules';
import { QueryState } from '../../../components/query-state';

type Editing = { kind: 'new' } | { kind: 'edit'; assignment: AssignmentView } | null;

export function AssignmentStatus({ assignment }: { assignment: AssignmentView }) {
  return (
    <Group gap={4}>
      {assignment.inForce ? (
        <Badge color="green" variant="dot" tt="none">
          In force
        </Badge>
      ) : (
        <Badge color="gray" variant="dot" tt="none">
          {assignment.isActive ? 'Expired' : 'Inactive'}
        </Badge>
      )}
      {assignment.derived && (
        <Badge color="grape" variant="dot" tt="none">
          Own department
        </Badge>
      )}
    </Group>
  );
}

/**
 * The user's context assignments: list, assign (create or replace), edit and remove; only what
 * the signed-in user may give or take away is offered (core's grant rules).
 */
export function AssignmentsSection({ user }: { user: AdminUser }) {
  const rules = useGrantRules(user);
  const locked = rules.ready ? rules.assignments : null;
  const assignments = useAssignments(user.id);
  const remove = useRemoveAssignment(user.id);
  const [editing, setEditing] = useState<Editing>(null);
  const name = displayName(user);
  // A failed removal is said in a notification: the dialog closes either way.
  const removing = useConfirmation(async (assignment: AssignmentView) => {
    try {
      await remove.mutateAsync(assignment.contextKey);
      notifySuccess(
        'Assignment removed',
        `${name} no longer has access in ${assignment.contextLabel}.`,
      );
    } catch (error) {
      notifyError('Could not remove the assignment', error);
    }
  });

  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="assignments-heading">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={3} size="h4" id="assignments-heading">
            Context assignments
          </Title>
          {rules.ready && !locked && (
            <Button
              leftSection={<IconPlus size={16} aria-hidden="true" />}
              onClick={() => setEditing({ kind: 'new' })}
            >
              Assign
            </Button>
          )}
        </Group>
        <Text size="sm" c="dimmed">
          Roles and permissions held only in one course, department or other context. A new
          assignment for the same context replaces the old one.
        </Text>
        {locked && <Text size="sm">{`You cannot change these assignments: ${locked}.`}</Text>}
        <QueryState query={assignments} label="Loading assignments" />
        {assignments.data && assignments.data.length === 0 && (
          <Text size="sm">No context assignments.</Text>
        )}
        {assignments.data && assignments.data.length > 0 && (
          <Table.ScrollContainer minWidth={820}>
            <Table verticalSpacing="sm" aria-labelledby="assignments-heading">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">Context</Table.Th>
                  <Table.Th scope="col">Roles</Table.Th>
                  <Table.Th scope="col">Direct permissions</Table.Th>
                  <Table.Th scope="col">Expires</Table.Th>
                  <Table.Th scope="col">Status</Table.Th>
                  <Table.Th scope="col">
                    <VisuallyHidden>Actions</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {assignments.data.map((a) => (
                  <Table.Tr key={a.contextKey}>
                    <Table.Td>
                      <Text size="sm" fw={500}>
                        {a.contextLabel}
                      </Text>
                      <Text size="xs" c="dimmed" ff="monospace">
                        {a.contextKey}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Group gap={4}>
                        {a.roles.length === 0 && <Text size="sm">—</Text>}
                        {a.roles.map((r) => (
                          <Badge key={r} variant="outline" tt="none">
                            {contextRoleName(r)}
                          </Badge>
                        ))}
                      </Group>
                    </Table.Td>
                    <Table.Td>
                      <Group gap={4}>
                        {a.directPermissions.length === 0 && <Text size="sm">—</Text>}
                        {a.directPermissions.map((p) => (
                          <Badge key={p} variant="light" color="gray" tt="none" ff="monospace">
                            {p}
                          </Badge>
                        ))}
                      </Group>
                    </Table.Td>
                    <Table.Td>{a.expiresAt ? formatDateTime(a.expiresAt) : 'Never'}</Table.Td>
                    <Table.Td>
                      <AssignmentStatus assignment={a} />
                    </Table.Td>
                    <Table.Td>
                      {a.derived ? (
                        <Text size="xs" c="dimmed">
                          From the user&apos;s department
                        </Text>
                      ) : !rules.ready || locked ? null : rules.removeDenial(a) ? (
                        <Text size="xs" c="dimmed">
                          {rules.removeDenial(a)}
                        </Text>
                      ) : (
                        <Group gap="xs" wrap="nowrap" justify="flex-end">
                          <Button
                            size="xs"
                            variant="default"
                            aria-label={`Edit assignment in ${a.contextLabel}`}
                            onClick={() => setEditing({ kind: 'edit', assignment: a })}
                          >
                            Edit
                          </Button>
                          <Button
                            size="xs"
                            variant="default"
                            color="red"
                            aria-label={`Remove assignment in ${a.contextLabel}`}
                            onClick={() => removing.ask(a)}
                          >
                            Remove
                          </Button>
                        </Group>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
      <AssignmentFormModal
        userId={user.id}
        userName={name}
        opened={editing !== null}
        onClose={() => setEditing(null)}
        initial={editing?.kind === 'edit' ? editing.assignment : null}
        existing={assignments.data ?? []}
        rules={rules}
      />
      <ConfirmModal
        {...removing.props}
        title="Remove this assignment?"
        confirmLabel="Remove"
        danger
      >
        {`${name} will lose the roles and permissions held in ${removing.thing?.contextLabel ?? ''} (${removing.thing?.contextKey ?? ''}).`}
      </ConfirmModal>
    </Paper>
  );
}
