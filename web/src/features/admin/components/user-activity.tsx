import { AUDIT_USER_VIEW_DEFAULT, type AdminUser } from '@learning-hub/core';
import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useAccessAudit, useCheckAudit } from '../api/access-api';

import { rangeText } from '../utils/range';
import { AuditTable } from './audit-table';
import { ChecksTable } from './checks-table';
import { Pager } from '../../../components/pager';
import { QueryState } from '../../../components/query-state';

/** The user's recent permission checks (this server's ring) and their access audit trail. */
export function UserActivity({ user }: { user: AdminUser }) {
  const [checksPage, setChecksPage] = useState(1);
  const [auditPage, setAuditPage] = useState(1);
  const limit = AUDIT_USER_VIEW_DEFAULT;
  const checks = useCheckAudit({ userId: user.id, page: checksPage, pageSize: limit });
  const audit = useAccessAudit({ userId: user.id, page: auditPage });

  return (
    <Stack gap="lg">
      <Paper withBorder p="lg" component="section" aria-labelledby="user-checks-heading">
        <Stack gap="sm">
          <Group justify="space-between">
            <Title order={3} size="h4" id="user-checks-heading">
              Recent permission checks
            </Title>
            <Button
              size="xs"
              variant="default"
              loading={checks.isFetching}
              onClick={() => void checks.refetch()}
            >
              Refresh
            </Button>
          </Group>
          <Text size="sm" c="dimmed">
            The last checks made for this user on this server (the newest first; the server keeps
            the last 1000 checks of all users).
          </Text>
          <QueryState query={checks} label="Loading checks" />
          {checks.data && checks.data.items.length === 0 && (
            <Text size="sm">No checks recorded for this user.</Text>
          )}
          {checks.data && checks.data.items.length > 0 && (
            <>
              <Text size="sm" c="dimmed">
                {rangeText(
                  checksPage,
                  limit,
                  checks.data.items.length,
                  checks.data.total,
                  'checks',
                )}
              </Text>
              <ChecksTable entries={checks.data.items} labelledBy="user-checks-heading" />
              <Pager
                label="Checks pages"
                page={checksPage}
                total={checks.data.total}
                pageSize={limit}
                onChange={setChecksPage}
              />
            </>
          )}
        </Stack>
      </Paper>
      <Paper withBorder p="lg" component="section" aria-labelledby="user-audit-heading">
        <Stack gap="sm">
          <Title order={3} size="h4" id="user-audit-heading">
            Access changes
          </Title>
          <Text size="sm" c="dimmed">
            Who changed this user&apos;s role, permissions and assignments, and when.
          </Text>
          <QueryState query={audit} label="Loading access changes" />
          {audit.data && audit.data.items.length === 0 && (
            <Text size="sm">No changes recorded.</Text>
          )}
          {audit.data && audit.data.items.length > 0 && (
            <>
              <Text size="sm" c="dimmed">
                {rangeText(
                  audit.data.page,
                  audit.data.pageSize,
                  audit.data.items.length,
                  audit.data.total,
                  'changes',
                )}
              </Text>
              <AuditTable
                entries={audit.data.items}
                labelledBy="user-audit-heading"
                showTarget={false}
              />
              <Pager
                label="Access changes pages"
                page={auditPage}
                total={audit.data.total}
                pageSize={audit.data.pageSize}
                onChange={setAuditPage}
              />
            </>
          )}
        </Stack>
      </Paper>
    </Stack>
  );
}
