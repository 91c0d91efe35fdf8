import type { AccessAuditEntry } from '@learning-hub/core';
import { Anchor, Badge, Stack, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import { formatDateTime } from '../../../lib/format';
import { AUDIT_ACTION_LABELS, auditDetailLines } from '../utils/audit';
import { href } from '../../../lib/links';

const ACTION_COLORS: Record<string, string> = {
  role: 'brand',
  permission: 'teal',
  assignment: 'grape',
  custom_role: 'orange',
};

/** Entries of the durable access audit trail: when, who, what, about whom, particulars. */
export function AuditTable({
  entries,
  labelledBy,
  showTarget = true,
}: {
  entries: readonly AccessAuditEntry[];
  labelledBy: string;
  showTarget?: boolean;
}) {
  return (
    <Table.ScrollContainer minWidth={860}>
      <Table verticalSpacing="sm" striped aria-labelledby={labelledBy}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">When</Table.Th>
            <Table.Th scope="col">Changed by</Table.Th>
            <Table.Th scope="col">Action</Table.Th>
            {showTarget && <Table.Th scope="col">Target</Table.Th>}
            <Table.Th scope="col">Role / permission / context</Table.Th>
            <Table.Th scope="col">Details</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {entries.map((e) => (
            <Table.Tr key={e.id}>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(e.occurredAt)}</Table.Td>
              <Table.Td>{e.actorUsername ?? e.actorId ?? 'system'}</Table.Td>
              <Table.Td>
                <Badge
                  variant="dot"
                  tt="none"
                  color={ACTION_COLORS[e.action.split('.')[0] ?? ''] ?? 'gray'}
                >
                  {AUDIT_ACTION_LABELS[e.action]}
                </Badge>
              </Table.Td>
              {showTarget && (
                <Table.Td>
                  {e.targetUserId ? (
                    <Anchor
                      component={Link}
                      to={href('adminUser', { userId: e.targetUserId })}
                      size="sm"
                    >
                      {e.targetUsername ?? e.targetUserId}
                    </Anchor>
                  ) : e.roleId ? (
                    <Text size="sm">{`Role ${e.roleId}`}</Text>
                  ) : (
                    '—'
                  )}
                </Table.Td>
              )}
              <Table.Td>
                <Stack gap={0}>
                  {e.roleId && <Text size="sm">{`Role: ${e.roleId}`}</Text>}
                  {e.permission && (
                    <Text size="sm" ff="monospace">
                      {e.permission}
                    </Text>
                  )}
                  {e.context && (
                    <Text size="sm" ff="monospace">
                      {e.context}
                    </Text>
                  )}
                  {!e.roleId && !e.permission && !e.context && '—'}
                </Stack>
              </Table.Td>
              <Table.Td maw={380}>
                <Stack gap={2}>
                  {auditDetailLines(e).map((line, i) => (
                    <Text key={i} size="xs">
                      {line}
                    </Text>
                  ))}
                </Stack>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
