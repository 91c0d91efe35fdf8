import { Anchor, Badge, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import { formatDateTimeSeconds } from '../../../lib/format';
import { href } from '../../../lib/links';

/** A check's time to the second (several checks share a minute). */
function formatTime(iso: string): string {
  return formatDateTimeSeconds(iso);
}

export interface CheckEntry {
  id: string;
  userId: string;
  permission: string;
  context: string;
  timestamp: string;
  result: boolean;
  reason: string | null;
}

export function ResultBadge({ allowed }: { allowed: boolean }) {
  return (
    <Badge color={allowed ? 'green' : 'red'} variant="dot" tt="none">
      {allowed ? 'Allowed' : 'Denied'}
    </Badge>
  );
}

/** Entries of the check audit ring: when, who, what, where, result and reason. */
export function ChecksTable({
  entries,
  labelledBy,
  userNames,
}: {
  entries: readonly CheckEntry[];
  labelledBy: string;
  /** Usernames by id: shown as a User column when given. */
  userNames?: ReadonlyMap<string, string>;
}) {
  return (
    <Table.ScrollContainer minWidth={760}>
      <Table verticalSpacing="xs" striped aria-labelledby={labelledBy}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Time</Table.Th>
            {userNames && <Table.Th scope="col">User</Table.Th>}
            <Table.Th scope="col">Permission</Table.Th>
            <Table.Th scope="col">Context</Table.Th>
            <Table.Th scope="col">Result</Table.Th>
            <Table.Th scope="col">Reason</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {entries.map((e) => (
            <Table.Tr key={e.id}>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatTime(e.timestamp)}</Table.Td>
              {userNames && (
                <Table.Td>
                  <Anchor component={Link} to={href('adminUser', { userId: e.userId })} size="sm">
                    {userNames.get(e.userId) ?? e.userId}
                  </Anchor>
                </Table.Td>
              )}
              <Table.Td>
                <Text size="sm" ff="monospace">
                  {e.permission}
                </Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm" ff="monospace">
                  {e.context}
                </Text>
              </Table.Td>
              <Table.Td>
                <ResultBadge allowed={e.result} />
              </Table.Td>
              <Table.Td>{e.reason ?? '—'}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
