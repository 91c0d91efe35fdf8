import type { SystemInfo } from '@learning-hub/core';
import { Alert, Anchor, Loader, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { formatDateTime } from '../../../lib/format';
import { useSystemInfo } from '../api/system-api';
import { errorMessage } from '../utils/notify';
import { JobsSection } from './jobs-section';
import { LinkHostsSection } from './link-hosts-section';
import { StorageSection } from './storage-section';

const DATABASES: Record<SystemInfo['database'], string> = {
  sqlite: 'SQLite (embedded)',
  postgres: 'PostgreSQL',
};

/** "3 d 4 h 5 min", "4 h 5 min", "5 min", "12 s". */
export function formatUptime(seconds: number): string {
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  if (days > 0) return `${days} d ${hours} h ${minutes} min`;
  if (hours > 0) return `${hours} h ${minutes} min`;
  if (minutes > 0) return `${minutes} min`;
  return `${seconds} s`;
}

/**
 * /admin/system: the runtime the server runs on, the settings changed at run time (the internal
 * hosts library links may go to), the storage each person uses, and the queue of background jobs.
 */
export function SystemPage() {
  const system = useSystemInfo();
  return (
    <Stack gap="md">
      <Title order={2}>System</Title>
      {system.isPending ? (
        <Loader aria-label="Loading system information" />
      ) : system.isError ? (
        <Alert color="red">{errorMessage(system.error)}</Alert>
      ) : (
        <Paper withBorder p="md" maw={640}>
          <Table aria-label="System information" variant="vertical" layout="fixed">
            <Table.Tbody>
              <Table.Tr>
                <Table.Th scope="row" w={200}>
                  Node.js
                </Table.Th>
                <Table.Td>
                  {system.data.node}
                  <Text span c="dimmed" size="sm">
                    {' '}
                    (supported lines: {system.data.supportedNodeLines.join(', ')})
                  </Text>
                </Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th scope="row">Platform</Table.Th>
                <Table.Td>
                  {system.data.platform} ({system.data.arch})
                </Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th scope="row">Database</Table.Th>
                <Table.Td>{DATABASES[system.data.database]}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th scope="row">Uptime</Table.Th>
                <Table.Td>
                  {formatUptime(system.data.uptimeSeconds)} (since{' '}
                  {formatDateTime(system.data.startedAt)})
                </Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th scope="row">API</Table.Th>
                <Table.Td>
                  {/* A link signed for this session: a new tab cannot send the bearer token. */}
                  <Anchor href={system.data.apiReferenceUrl} target="_blank" rel="noopener">
                    API reference
                  </Anchor>
                  <Text span c="dimmed" size="sm">
                    {' '}
                    (OpenAPI 3.1)
                  </Text>
                </Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
        </Paper>
      )}
      <LinkHostsSection />
      <StorageSection />
      <JobsSection />
    </Stack>
  );
}
