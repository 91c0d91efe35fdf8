import type { StorageSort, StorageUsage, UploadLimits, UserStorage } from '@learning-hub/core';
import {
  Anchor,
  Badge,
  Group,
  Loader,
  Paper,
  Stack,
  Table,
  Text,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconSelector } from '@tabler/icons-react';
import { Link } from 'react-router';
import { Pager } from '../../../components/pager';
import { formatBytes, displayName } from '../../../lib/format';
import { useFilterParams } from '../../../lib/use-filter-params';
import { STORAGE_PAGE_SIZE, useStorageUsage } from '../api/system-api';

import { rangeText } from '../utils/range';
import { QueryState } from '../../../components/query-state';
import { href } from '../../../lib/links';

/** "1 file", "60 uploads". */
const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

/** A rate's window in words: "10 minutes", "1 hour", "90 seconds". */
export function windowText(seconds: number): string {
  if (seconds === 3600) return '1 hour';
  if (seconds % 60 === 0) return plural(seconds / 60, 'minute');
  return plural(seconds, 'second');
}

/** The per-person limits in one sentence. */
export function limitsText(limits: UploadLimits): string {
  return (
    `Each person may upload files of up to ${formatBytes(limits.maxFileBytes)}, ` +
    `${plural(limits.rate.uploads, 'upload')} in ${windowText(limits.rate.windowSeconds)}; ` +
    `have ${formatBytes(limits.maxUnattachedBytes)} of uploads not yet attached to anything ` +
    `(removed after ${plural(limits.unattachedHours, 'hour')}); ` +
    `and store ${formatBytes(limits.maxStoredBytes)} in all.`
  );
}

/** A badge when a person's bytes come near a limit (80 % and over). */
function NearLimit({ bytes, limit }: { bytes: number; limit: number }) {
  if (limit <= 0 || bytes < limit * 0.8) return null;
  const full = bytes >= limit;
  return (
    <Badge size="sm" variant="light" color={full ? 'red' : 'orange'} tt="none">
      {full ? 'At the limit' : `${Math.floor((bytes / limit) * 100)}% of the limit`}
    </Badge>
  );
}

const COLUMNS: Record<StorageSort, string> = { unattached: 'Not attached', stored: 'Stored' };

/** A column header that orders the list by it; pressed again, the other way round. */
function SortHeader({
  column,
  sort,
  order,
  onSort,
}: {
  column: StorageSort;
  sort: StorageSort;
  order: 'asc' | 'desc';
  onSort(sort: StorageSort, order: 'asc' | 'desc'): void;
}) {
  const active = column === sort;
  const Icon = !active ? IconSelector : order === 'desc' ? IconArrowDown : IconArrowUp;
  return (
    <Table.Th
      scope="col"
      ta="right"
      aria-sort={active ? (order === 'desc' ? 'descending' : 'ascending') : 'none'}
    >
      <UnstyledButton
        onClick={() => onSort(column, active && order === 'desc' ? 'asc' : 'desc')}
        fw={700}
        fz="sm"
      >
        <Group gap={4} wrap="nowrap" justify="flex-end" component="span">
          {COLUMNS[column]}
          <Icon size={14} aria-hidden="true" />
        </Group>
      </UnstyledButton>
    </Table.Th>
  );
}

function PersonRow({ person, limits }: { person: UserStorage; limits: UploadLimits }) {
  const name = displayName(person);
  return (
    <Table.Tr>
      <Table.Td>
        <Anchor component={Link} to={href('adminUser', { userId: person.userId })}>
          {name}
        </Anchor>
        {!person.isActive && (
          <Badge ml="xs" size="sm" color="gray" variant="light" tt="none">
            Inactive
          </Badge>
        )}
        {name !== person.username && (
          <Text size="xs" c="dimmed">
            {person.username}
          </Text>
        )}
      </Table.Td>
      <Table.Td ta="right">{person.files}</Table.Td>
      <Table.Td ta="right">
        <Stack gap={2} align="flex-end">
          <Text span size="sm" style={{ whiteSpace: 'nowrap' }}>
            {formatBytes(person.unattachedBytes)}
          </Text>
          <NearLimit bytes={person.unattachedBytes} limit={limits.maxUnattachedBytes} />
        </Stack>
      </Table.Td>
      <Table.Td ta="right">
        <Stack gap={2} align="flex-end">
          <Text span size="sm" style={{ whiteSpace: 'nowrap' }}>
            {formatBytes(person.storedBytes)}
          </Text>
          <NearLimit bytes={person.storedBytes} limit={limits.maxStoredBytes} />
        </Stack>
      </Table.Td>
    </Table.Tr>
  );
}

function StorageTable({
  data,
  sort,
  order,
  onSort,
}: {
  data: StorageUsage;
  sort: StorageSort;
  order: 'asc' | 'desc';
  onSort(sort: StorageSort, order: 'asc' | 'desc'): void;
}) {
  return (
    <>
      {/* On a phone the table scrolls sideways: say so, and keep its scroll bar in sight. */}
      <Text size="xs" c="dimmed" hiddenFrom="sm">
        Scroll the table sideways to see every column.
      </Text>
      <Table.ScrollContainer
        minWidth={520}
        scrollAreaProps={{ type: 'always', viewportProps: { tabIndex: 0 } }}
      >
        <Table verticalSpacing="sm" aria-labelledby="storage-heading">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Person</Table.Th>
              <Table.Th scope="col" ta="right">
                Files
              </Table.Th>
              <SortHeader column="unattached" sort={sort} order={order} onSort={onSort} />
              <SortHeader column="stored" sort={sort} order={order} onSort={onSort} />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {data.items.map((person) => (
              <PersonRow key={person.userId} person={person} limits={data.limits} />
            ))}
            {data.items.length === 0 && (
              <Table.Tr>
                <Table.Td colSpan={4}>
                  <Text c="dimmed" ta="center" py="md">
                    Nobody stores any files yet.
                  </Text>
                </Table.Td>
              </Table.Tr>
            )}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </>
  );
}

/**
 * Admin → System → Storage: what each person stores (the files they uploaded), ordered by bytes
 * on the server a page at a time, with the totals and the per-person upload limits in force.
 */
export function StorageSection() {
  const filters = useFilterParams();
  const sort: StorageSort = filters.get('sort') === 'unattached' ? 'unattached' : 'stored';
  const order = filters.get('order') === 'asc' ? 'asc' : 'desc';
  const page = filters.page;
  const usage = useStorageUsage({ page, pageSize: STORAGE_PAGE_SIZE, sort, order });
  const data = usage.data;
  const onSort = (next: StorageSort, nextOrder: 'asc' | 'desc') =>
    filters.set({
      sort: next === 'stored' ? null : next,
      order: nextOrder === 'desc' ? null : nextOrder,
    });

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="storage-heading">
      <Stack gap="sm">
        <Title order={3} id="storage-heading">
          Storage
        </Title>
        <QueryState query={usage} label="Loading storage" />
        {data && (
          <>
            <Text size="sm">{limitsText(data.limits)}</Text>
            <Text size="sm">
              {`In all: ${formatBytes(data.totals.storedBytes)} in ${plural(data.totals.files, 'file')}, ` +
                `of which ${formatBytes(data.totals.unattachedBytes)} not yet attached.`}
            </Text>
            <Group justify="space-between">
              <Text size="sm" c="dimmed" aria-live="polite">
                {rangeText(data.page, data.pageSize, data.items.length, data.total, 'people')}
              </Text>
              {usage.isFetching && <Loader size="xs" aria-label="Updating" />}
            </Group>
            <StorageTable data={data} sort={sort} order={order} onSort={onSort} />
            <Pager
              label="Storage pages"
              page={page}
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
