/**
 * One announcement for those who manage it (docs/announcements.md, "Managing"): its state and
 * text, its counts — people reached, delivered, read, acknowledged — kept current live (the topic
 * `announcement`, event `announcement-counts`), who has not acknowledged it yet (paged), the CSV,
 * and Edit, Remind and Withdraw as its abilities allow. The manager page shows it as a page; the
 * course and department pages in a dialog.
 */
import type { Announcement, AnnouncementCounts, AnnouncementRecipient } from '@learning-hub/core';
import {
  Badge,
  Button,
  Group,
  Paper,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconBellRinging, IconDownload, IconEdit, IconX } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmModal } from '../../../components/confirm-modal';
import { DataList } from '../../../components/data-list';
import { Pager } from '../../../components/pager';
import { QueryState } from '../../../components/query-state';
import { RichTextView } from '../../../components/rich-text/rich-text-view';
import { countText, formatDateTime } from '../../../lib/format';
import { useLiveTopic } from '../../../lib/live/use-live';
import {
  announcementKeys,
  setAnnouncementCounts,
  useRecipients,
  useRemindAnnouncement,
  useWithdrawAnnouncement,
} from '../api/announcements-api';
import { downloadRecipientsCsv } from '../api/recipients-csv';
import { STATE_COLORS, STATE_LABELS } from '../announcement-format';
import { AnnouncementBadges, bylineOf } from './announcement-badges';
import { ComposeDialog, type FixedAudience } from './compose-dialog';

const RECIPIENTS_PAGE_SIZE = 20;

/** Follows the counts of one announcement live into its cached copy. */
export function useLiveCounts(id: string | null | undefined): void {
  const client = useQueryClient();
  useLiveTopic<{ topic: string; id: string; counts: AnnouncementCounts }>(
    'announcement',
    id,
    ['announcement-counts'],
    (_event, payload) => {
      setAnnouncementCounts(client, payload.id, payload.counts);
      // Who has (not) acknowledged it changed with the counts.
      void client.invalidateQueries({ queryKey: announcementKeys.recipientsOf(payload.id) });
    },
  );
}

function percent(part: number, whole: number): string {
  return whole === 0 ? '' : ` (${Math.round((part / whole) * 100)}%)`;
}

/** The four figures, as a list of terms (read by screen readers as such). */
export function CountsPanel({
  counts,
  requiresAck,
}: {
  counts: AnnouncementCounts;
  requiresAck: boolean;
}) {
  const figures = [
    { label: 'Reached', value: String(counts.recipients) },
    {
      label: 'Delivered',
      value: `${counts.delivered}${percent(counts.delivered, counts.recipients)}`,
    },
    { label: 'Read', value: `${counts.read}${percent(counts.read, counts.recipients)}` },
    ...(requiresAck
      ? [
          {
            label: 'Acknowledged',
            value: `${counts.acknowledged}${percent(counts.acknowledged, counts.recipients)}`,
          },
        ]
      : []),
  ];
  return (
    <SimpleGrid
      component="dl"
      cols={{ base: 2, sm: figures.length }}
      spacing="sm"
      aria-label="Counts"
      style={{ margin: 0 }}
    >
      {figures.map((f) => (
        <Paper key={f.label} withBorder p="sm">
          <Text component="dt" size="xs" c="dimmed">
            {f.label}
          </Text>
          <Text component="dd" fw={700} size="lg" style={{ margin: 0 }} aria-live="polite">
            {f.value}
          </Text>
        </Paper>
      ))}
    </SimpleGrid>
  );
}

/** Who it reached: those who have not acknowledged it (or everyone), paged, with the CSV. */
function RecipientsSection({ announcement, level }: { announcement: Announcement; level: 2 | 4 }) {
  const [which, setWhich] = useState<'pending' | 'all'>(
    announcement.requiresAck ? 'pending' : 'all',
  );
  const [page, setPage] = useState(1);
  const [exporting, setExporting] = useState(false);
  const pendingOnly = which === 'pending';
  const recipients = useRecipients(announcement.id, {
    ...(pendingOnly ? { acknowledged: false } : {}),
    page,
    pageSize: RECIPIENTS_PAGE_SIZE,
  });
  const headingId = `recipients-${announcement.id}`;

  async function exportCsv() {
    setExporting(true);
    try {
      await downloadRecipientsCsv(announcement.id, pendingOnly);
    } catch (error) {
      notifications.show({
        color: 'red',
        title: "Couldn't export the list",
        message: error instanceof Error ? error.message : 'Something went wrong',
      });
    } finally {
      setExporting(false);
    }
  }

  return (
    <Stack gap="sm" component="section" aria-labelledby={headingId}>
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Title order={level} size="h4" id={headingId}>
          {pendingOnly ? 'Not acknowledged yet' : 'Everyone it reached'}
        </Title>
        <Group gap="xs" wrap="wrap">
          {announcement.requiresAck && (
            <SegmentedControl
              size="xs"
              aria-label="Show"
              value={which}
              onChange={(value) => {
                setWhich(value as 'pending' | 'all');
                setPage(1);
              }}
              data={[
                { value: 'pending', label: 'Not acknowledged' },
                { value: 'all', label: 'Everyone' },
              ]}
            />
          )}
          <Button
            variant="default"
            size="compact-sm"
            leftSection={<IconDownload size={14} aria-hidden />}
            loading={exporting}
            onClick={() => void exportCsv()}
          >
            Export CSV
          </Button>
        </Group>
      </Group>
      <QueryState query={recipients} label="Loading the people it reached">
        {(data) => (
          <Stack gap="sm">
            <DataList<AnnouncementRecipient>
              rows={data.items}
              rowKey={(r) => r.user.id}
              labelledBy={headingId}
              empty={
                <Text size="sm" c="dimmed">
                  {pendingOnly ? 'Everyone it reached has acknowledged it.' : 'It reached nobody.'}
                </Text>
              }
              columns={[
                {
                  header: 'Name',
                  card: 'title',
                  cell: (r) => (
                    <Text size="sm">
                      {r.user.name}{' '}
                      <Text span size="sm" c="dimmed">
                        {r.user.username}
                      </Text>
                    </Text>
                  ),
                },
                { header: 'Department', card: 'subtitle', cell: (r) => r.department ?? '—' },
                {
                  header: 'Delivered',
                  card: 'meta',
                  cell: (r) => (r.deliveredAt ? formatDateTime(r.deliveredAt) : 'Not yet'),
                  cardCell: (r) => (r.deliveredAt ? 'Delivered' : 'Not delivered'),
                },
                {
                  header: 'Read',
                  card: 'meta',
                  cell: (r) => (r.readAt ? formatDateTime(r.readAt) : 'Not yet'),
                  cardCell: (r) => (r.readAt ? 'Read' : 'Not read'),
                },
                ...(announcement.requiresAck
                  ? [
                      {
                        header: 'Acknowledged',
                        card: 'field' as const,
                        cell: (r: AnnouncementRecipient) =>
                          r.acknowledgedAt ? formatDateTime(r.acknowledgedAt) : 'Not yet',
                      },
                      {
                        header: 'Reminded',
                        card: 'field' as const,
                        cell: (r: AnnouncementRecipient) =>
                          r.remindedAt ? formatDateTime(r.remindedAt) : '—',
                      },
                    ]
                  : []),
              ]}
            />
            <Pager
              label="Pages of the people it reached"
              page={page}
              total={data.total}
              pageSize={RECIPIENTS_PAGE_SIZE}
              onChange={setPage}
            />
          </Stack>
        )}
      </QueryState>
    </Stack>
  );
}

/** Edit, Remind and Withdraw, as the announcement's abilities allow. */
function ManageActions({
  announcement,
  fixed,
}: {
  announcement: Announcement;
  fixed?: FixedAudience | undefined;
}) {
  const [editing, setEditing] = useState(false);
  const [confirm, setConfirm] = useState<'remind' | 'withdraw' | null>(null);
  const remind = useRemindAnnouncement();
  const withdraw = useWithdrawAnnouncement();
  const pending = announcement.counts
    ? announcement.counts.recipients - announcement.counts.acknowledged
    : 0;
  const { can } = announcement;
  if (!can.edit && !can.remind && !can.withdraw) return null;
  return (
    <Group gap="xs" wrap="wrap">
      {can.edit && (
        <Button
          variant="default"
          leftSection={<IconEdit size={16} aria-hidden />}
          onClick={() => setEditing(true)}
        >
          Edit
        </Button>
      )}
      {can.remind && (
        <Button
          variant="default"
          leftSection={<IconBellRinging size={16} aria-hidden />}
          onClick={() => {
            remind.reset();
            setConfirm('remind');
          }}
        >
          Remind
        </Button>
      )}
      {can.withdraw && (
        <Button
          variant="default"
          color="red"
          leftSection={<IconX size={16} aria-hidden />}
          onClick={() => {
            withdraw.reset();
            setConfirm('withdraw');
          }}
        >
          Withdraw
        </Button>
      )}
      <ComposeDialog
        opened={editing}
        onClose={() => setEditing(false)}
        editing={announcement}
        fixed={fixed}
      />
      <ConfirmModal
        opened={confirm === 'remind'}
        title="Send a reminder?"
        confirmLabel="Send reminder"
        busy={remind.isPending}
        error={remind.error}
        onClose={() => setConfirm(null)}
        onConfirm={() =>
          remind.mutate(announcement.id, {
            onSuccess: (result) => {
              setConfirm(null);
              notifications.show({
                color: 'green',
                message: `Reminded ${countText(result.reminded, 'person', 'people')}.`,
              });
            },
          })
        }
      >
        {`The ${countText(pending, 'person who has', 'people who have')} not acknowledged “${announcement.title}” get it again as a notification. One reminder can go each hour.`}
      </ConfirmModal>
      <ConfirmModal
        opened={confirm === 'withdraw'}
        title="Withdraw the announcement?"
        confirmLabel="Withdraw"
        danger
        busy={withdraw.isPending}
        error={withdraw.error}
        onClose={() => setConfirm(null)}
        onConfirm={() => withdraw.mutate(announcement.id, { onSuccess: () => setConfirm(null) })}
      >
        {`“${announcement.title}” is taken back: nobody sees it any more. Its counts stay here. This cannot be undone.`}
      </ConfirmModal>
    </Group>
  );
}

/** The whole detail of one announcement, for a manager. */
export function AnnouncementDetail({
  announcement,
  fixed,
  headingLevel = 1,
}: {
  announcement: Announcement;
  fixed?: FixedAudience;
  /** 1 on its own page; 3 in a dialog (whose title is the heading above it). */
  headingLevel?: 1 | 3;
}) {
  useLiveCounts(announcement.publishedAt ? announcement.id : null);
  const when =
    announcement.state === 'scheduled'
      ? `Goes out ${formatDateTime(announcement.publishAt)}`
      : announcement.state === 'draft'
        ? 'Not out yet'
        : null;
  return (
    <Stack gap="lg">
      <Stack gap="xs">
        <Group gap="xs" wrap="wrap">
          <Title
            order={headingLevel}
            size={headingLevel === 1 ? 'h2' : 'h4'}
            style={{ overflowWrap: 'anywhere' }}
          >
            {announcement.title}
          </Title>
          <Badge color={STATE_COLORS[announcement.state]} variant="light" tt="none">
            {STATE_LABELS[announcement.state]}
          </Badge>
          <AnnouncementBadges announcement={announcement} />
        </Group>
        <Text size="sm" c="dimmed">
          {bylineOf(announcement)}
        </Text>
        {when && <Text size="sm">{when}</Text>}
        {announcement.expiresAt && (
          <Text size="sm">{`${announcement.state === 'expired' ? 'Expired' : 'Expires'} ${formatDateTime(announcement.expiresAt)}`}</Text>
        )}
        {announcement.remindedAt && (
          <Text size="sm">{`Last reminder ${formatDateTime(announcement.remindedAt)}`}</Text>
        )}
        <ManageActions announcement={announcement} fixed={fixed} />
      </Stack>
      {announcement.counts && (
        <CountsPanel counts={announcement.counts} requiresAck={announcement.requiresAck} />
      )}
      <Paper withBorder p="md">
        <RichTextView html={announcement.bodyHtml} />
      </Paper>
      {announcement.can.viewRecipients && (
        <RecipientsSection announcement={announcement} level={headingLevel === 1 ? 2 : 4} />
      )}
    </Stack>
  );
}
