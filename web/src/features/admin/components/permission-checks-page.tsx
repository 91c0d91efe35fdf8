import { AUDIT_ALL_VIEW_DEFAULT, AUDIT_USER_VIEW_DEFAULT } from '@learning-hub/core';
import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useCheckAudit } from '../api/access-api';

import { rangeText } from '../utils/range';
import { ChecksTable } from './checks-table';
import { Pager } from '../../../components/pager';
import { UserSearchSelect } from './user-search-select';
import { useFilterParams } from '../../../lib/use-filter-params';
import { QueryState } from '../../../components/query-state';

/** /admin/checks: the last permission checks made on this server (the in-memory ring). */
export function PermissionChecksPage() {
  const filters = useFilterParams();
  const userId = filters.get('user');
  const limit = userId ? AUDIT_USER_VIEW_DEFAULT : AUDIT_ALL_VIEW_DEFAULT;
  const checks = useCheckAudit({
    userId: userId ?? undefined,
    page: filters.page,
    pageSize: limit,
  });
  const data = checks.data;
  const names = new Map(
    (data?.items ?? []).flatMap((e) => (e.username ? [[e.userId, e.username] as const] : [])),
  );

  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="checks-heading">
      <Stack gap="md">
        <Group justify="space-between">
          <Title order={2} size="h3" id="checks-heading">
            Permission checks
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
          The last 1000 permission checks made on this server, newest first, with their result and
          the reason for each denial.
        </Text>
        <UserSearchSelect
          label="User"
          placeholder="All users"
          value={userId}
          onChange={(id) => filters.set({ user: id })}
          w={360}
          maw="100%"
        />
        <QueryState query={checks} label="Loading checks" />
        {data && (
          <>
            <Text size="sm" c="dimmed" aria-live="polite">
              {rangeText(filters.page, limit, data.items.length, data.total, 'checks')}
            </Text>
            {data.items.length > 0 && (
              <ChecksTable entries={data.items} labelledBy="checks-heading" userNames={names} />
            )}
            <Pager
              label="Checks pages"
              page={filters.page}
              total={data.total}
              pageSize={limit}
              onChange={filters.setPage}
            />
          </>
        )}
      </Stack>
    </Paper>
  );
}
