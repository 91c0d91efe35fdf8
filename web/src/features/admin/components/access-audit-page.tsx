import { ACCESS_AUDIT_ACTIONS } from '@learning-hub/core';
import {
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
import { useAccessAudit, type AccessAuditAction } from '../api/access-api';
import { AUDIT_ACTION_LABELS } from '../utils/audit';
import { dayBoundary } from '../utils/dates';

import { rangeText } from '../utils/range';
import { AuditTable } from './audit-table';
import { Pager } from '../../../components/pager';
import { UserSearchSelect } from './user-search-select';
import { useFilterParams } from '../../../lib/use-filter-params';
import { QueryState } from '../../../components/query-state';

const isAction = (value: string | null): value is AccessAuditAction =>
  (ACCESS_AUDIT_ACTIONS as readonly string[]).includes(value ?? '');

/** /admin/audit: the durable trail of who granted or revoked what, and when. */
export function AccessAuditPage() {
  const filters = useFilterParams();
  const action = filters.get('action');
  const userId = filters.get('user');
  const actorId = filters.get('actor');
  const from = filters.get('from') ?? '';
  const to = filters.get('to') ?? '';
  const badRange = from !== '' && to !== '' && from > to;
  const audit = useAccessAudit({
    action: isAction(action) ? action : undefined,
    userId: userId ?? undefined,
    actorId: actorId ?? undefined,
    from: from ? dayBoundary(from, 'start') : undefined,
    to: to ? dayBoundary(to, 'end') : undefined,
    page: filters.page,
  });
  const data = audit.data;

  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="audit-heading">
      <Stack gap="md">
        <Title order={2} size="h3" id="audit-heading">
          Access changes
        </Title>
        <Text size="sm" c="dimmed">
          Every change to roles, direct permissions, context assignments and custom roles: who made
          it, when, and what it was.
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 5 }}>
          <Select
            label="Action"
            placeholder="Any action"
            clearable
            data={ACCESS_AUDIT_ACTIONS.map((a) => ({ value: a, label: AUDIT_ACTION_LABELS[a] }))}
            value={isAction(action) ? action : null}
            onChange={(value) => filters.set({ action: value })}
          />
          <UserSearchSelect
            label="About user"
            placeholder="Anyone"
            value={userId}
            onChange={(id) => filters.set({ user: id })}
          />
          <UserSearchSelect
            label="Changed by"
            placeholder="Anyone"
            value={actorId}
            onChange={(id) => filters.set({ actor: id })}
          />
          <TextInput
            type="date"
            label="From"
            value={from}
            onChange={(event) => filters.set({ from: event.currentTarget.value || null })}
          />
          <TextInput
            type="date"
            label="To"
            value={to}
            error={badRange ? 'Must not be before From' : undefined}
            onChange={(event) => filters.set({ to: event.currentTarget.value || null })}
          />
        </SimpleGrid>
        <QueryState query={audit} label="Loading access changes" />
        {data && (
          <>
            <Group justify="space-between">
              <Text size="sm" c="dimmed" aria-live="polite">
                {rangeText(data.page, data.pageSize, data.items.length, data.total, 'changes')}
              </Text>
              {audit.isFetching && <Loader size="xs" aria-label="Updating" />}
            </Group>
            {data.items.length > 0 && (
              <AuditTable entries={data.items} labelledBy="audit-heading" />
            )}
            <Pager
              label="Access changes pages"
              page={filters.page}
              total={data.total}
              pageSize={data.pageSize}
              onChange={filters.setPage}
            />
          </>
        )}
      </Stack>
    </Paper>
  );
}
