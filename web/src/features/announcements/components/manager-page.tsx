/**
 * /announcement-manager (spec §2: system.admin and role admin): every announcement with its state
 * and how far it got, filtered by state and priority, and composing a new one; each opens its
 * detail (/announcement-manager/{announcementId}) with the counts, who has not acknowledged it,
 * the CSV, Remind, Withdraw and Edit. A table on a wide screen, cards on a phone.
 */
import type { AnnouncementPriority, AnnouncementState } from '@learning-hub/core';
import {
  Anchor,
  Breadcrumbs,
  Button,
  Group,
  NativeSelect,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { Pager } from '../../../components/pager';
import { QueryState } from '../../../components/query-state';
import { href } from '../../../lib/links';
import { useFilterParams } from '../../../lib/use-filter-params';
import { useAnnouncement, useAnnouncements } from '../api/announcements-api';
import { PRIORITY_LABELS, STATE_LABELS } from '../announcement-format';
import { AnnouncementDetail } from './announcement-detail';
import { ComposeDialog } from './compose-dialog';
import { ManageList } from './manage-list';

const PAGE_SIZE = 20;
const MANAGER_PATH = href('announcementManager');
const detailPath = (id: string) => href('announcement', { announcementId: id });

const STATES = Object.keys(STATE_LABELS) as AnnouncementState[];
const PRIORITIES = Object.keys(PRIORITY_LABELS) as AnnouncementPriority[];

export function AnnouncementManagerPage() {
  const filters = useFilterParams();
  const state = filters.get('state') as AnnouncementState | null;
  const priority = filters.get('priority') as AnnouncementPriority | null;
  const [composing, setComposing] = useState(false);
  const navigate = useNavigate();
  const list = useAnnouncements({
    view: 'manage',
    ...(state && STATES.includes(state) ? { state } : {}),
    ...(priority && PRIORITIES.includes(priority) ? { priority } : {}),
    page: filters.page,
    pageSize: PAGE_SIZE,
  });
  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
        <Title order={1}>Announcement Manager</Title>
        <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setComposing(true)}>
          New announcement
        </Button>
      </Group>
      <Group gap="sm" align="flex-end" wrap="wrap">
        <NativeSelect
          label="State"
          value={state ?? ''}
          onChange={(event) => filters.set({ state: event.currentTarget.value || null })}
          data={[
            { value: '', label: 'Any state' },
            ...STATES.map((s) => ({ value: s, label: STATE_LABELS[s] })),
          ]}
        />
        <NativeSelect
          label="Priority"
          value={priority ?? ''}
          onChange={(event) => filters.set({ priority: event.currentTarget.value || null })}
          data={[
            { value: '', label: 'Any priority' },
            ...PRIORITIES.map((p) => ({ value: p, label: PRIORITY_LABELS[p] })),
          ]}
        />
      </Group>
      <QueryState query={list} label="Loading the announcements">
        {(data) => (
          <Stack gap="sm">
            <ManageList
              items={data.items}
              label="Announcements"
              linkTo={(a) => detailPath(a.id)}
              empty={
                <Text c="dimmed">
                  {state || priority
                    ? 'No announcement matches these filters.'
                    : 'No announcements yet. New announcement writes the first.'}
                </Text>
              }
            />
            <Pager
              label="Pages of announcements"
              page={filters.page}
              total={data.total}
              pageSize={PAGE_SIZE}
              onChange={filters.setPage}
            />
          </Stack>
        )}
      </QueryState>
      <ComposeDialog
        opened={composing}
        onClose={() => setComposing(false)}
        onSaved={(saved) => void navigate(detailPath(saved.id))}
      />
    </Stack>
  );
}

/** /announcement-manager/{announcementId}. */
export function AnnouncementManagerDetailPage() {
  const { announcementId = '' } = useParams();
  const announcement = useAnnouncement(announcementId);
  const crumbs = (
    <Breadcrumbs separatorMargin={6}>
      <Anchor component={Link} to={MANAGER_PATH} size="sm">
        Announcement Manager
      </Anchor>
      <Text size="sm" aria-current="page" lineClamp={1}>
        {announcement.data?.title ?? 'Announcement'}
      </Text>
    </Breadcrumbs>
  );
  if (announcement.isPending || announcement.isError) {
    return (
      <Stack gap="lg">
        {crumbs}
        <QueryState
          query={announcement}
          label="Loading the announcement"
          size="page"
          heading="Announcement"
          back={{ to: MANAGER_PATH, label: 'Back to the announcements' }}
        />
      </Stack>
    );
  }
  return (
    <Stack gap="lg">
      {crumbs}
      <AnnouncementDetail announcement={announcement.data} />
    </Stack>
  );
}

/** The outlet of /announcement-manager. */
export { Outlet as AnnouncementManagerLayout } from 'react-router';
