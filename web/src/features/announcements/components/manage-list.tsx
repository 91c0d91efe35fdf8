/**
 * The announcements someone manages, as a list (a table on a wide screen, a card each on a
 * phone): title, state, audience, when, and how far each got. Each title opens its detail.
 */
import type { Announcement } from '@learning-hub/core';
import { Anchor, Badge, Group, Text, UnstyledButton } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { DataList } from '../../../components/data-list';
import { formatDateTime } from '../../../lib/format';
import {
  audienceText,
  PRIORITY_COLORS,
  PRIORITY_LABELS,
  STATE_COLORS,
  STATE_LABELS,
} from '../announcement-format';

/** When it went out, goes out, or was made. */
export function whenText(a: Announcement): string {
  if (a.state === 'scheduled') return `Goes out ${formatDateTime(a.publishAt)}`;
  if (a.state === 'draft') return `Draft of ${formatDateTime(a.updatedAt)}`;
  return formatDateTime(a.publishedAt);
}

/** Delivered, read and acknowledged of the people it reached, in a line. */
export function countsText(a: Announcement): string {
  const c = a.counts;
  if (!c) return '—';
  const parts = [`${c.delivered}/${c.recipients} delivered`, `${c.read} read`];
  if (a.requiresAck) parts.push(`${c.acknowledged} acknowledged`);
  return parts.join(' · ');
}

export function ManageList({
  items,
  label,
  linkTo,
  onOpen,
  empty,
}: {
  items: readonly Announcement[];
  label: string;
  /** The page of one (the manager page's); or `onOpen` (a dialog). */
  linkTo?(a: Announcement): string;
  onOpen?(a: Announcement): void;
  empty: ReactNode;
}) {
  const title = (a: Announcement) =>
    linkTo ? (
      <Anchor component={Link} to={linkTo(a)} fw={500} style={{ overflowWrap: 'anywhere' }}>
        {a.title}
      </Anchor>
    ) : (
      <UnstyledButton onClick={() => onOpen?.(a)} aria-haspopup="dialog">
        <Text
          span
          fw={500}
          c="var(--mantine-color-anchor)"
          td="underline"
          style={{ overflowWrap: 'anywhere' }}
        >
          {a.title}
        </Text>
      </UnstyledButton>
    );
  return (
    <DataList<Announcement>
      rows={items}
      rowKey={(a) => a.id}
      label={label}
      empty={empty}
      columns={[
        { header: 'Title', card: 'title', cell: title },
        {
          header: 'State',
          card: 'aside',
          cell: (a) => (
            <Group gap={4} wrap="nowrap">
              <Badge color={STATE_COLORS[a.state]} variant="light" tt="none">
                {STATE_LABELS[a.state]}
              </Badge>
              {a.priority !== 'info' && (
                <Badge color={PRIORITY_COLORS[a.priority]} variant="light" tt="none">
                  {PRIORITY_LABELS[a.priority]}
                </Badge>
              )}
            </Group>
          ),
        },
        { header: 'For', card: 'subtitle', cell: (a) => audienceText(a.audience) },
        { header: 'When', card: 'meta', cell: whenText },
        { header: 'Progress', card: 'field', cell: countsText },
      ]}
    />
  );
}
