/**
 * One announcement as its readers see it (the start page, a course's or a department's page, the
 * dialog a notification opens): its title, how urgent it is, who wrote it and for whom, its text,
 * and "I have read this" when it asks for it.
 */
import type { Announcement } from '@learning-hub/core';
import { Badge, Button, Group, Spoiler, Stack, Text, Title } from '@mantine/core';
import { IconCircleCheck, IconPin } from '@tabler/icons-react';
import { useId } from 'react';
import { ErrorAlert } from '../../../components/query-state';
import { RichTextView } from '../../../components/rich-text/rich-text-view';
import { formatDateTime } from '../../../lib/format';
import { useAcknowledgeAnnouncement } from '../api/announcements-api';
import { audienceText, PRIORITY_COLORS, PRIORITY_LABELS } from '../announcement-format';

/** "I have read this", or when the reader said it. */
export function Acknowledgement({
  announcement,
  describedBy,
}: {
  announcement: Announcement;
  describedBy?: string;
}) {
  const acknowledge = useAcknowledgeAnnouncement();
  const receipt = announcement.receipt;
  if (!announcement.requiresAck || !receipt) return null;
  if (receipt.acknowledgedAt) {
    return (
      <Group gap={6} wrap="nowrap">
        <IconCircleCheck size={16} color="var(--mantine-color-green-filled)" aria-hidden />
        <Text
          size="sm"
          c="dimmed"
        >{`You confirmed reading this on ${formatDateTime(receipt.acknowledgedAt)}.`}</Text>
      </Group>
    );
  }
  return (
    <Stack gap={4} align="flex-start">
      <Button
        size="compact-md"
        leftSection={<IconCircleCheck size={16} aria-hidden />}
        loading={acknowledge.isPending}
        aria-describedby={describedBy}
        onClick={() => acknowledge.mutate(announcement.id)}
      >
        I have read this
      </Button>
      {acknowledge.error ? <ErrorAlert error={acknowledge.error} /> : null}
    </Stack>
  );
}

/** Its badges: priority (unless info), pinned. */
export function AnnouncementBadges({ announcement }: { announcement: Announcement }) {
  return (
    <>
      {announcement.priority !== 'info' && (
        <Badge color={PRIORITY_COLORS[announcement.priority]} variant="light" tt="none">
          {PRIORITY_LABELS[announcement.priority]}
        </Badge>
      )}
      {announcement.pinned && (
        <Badge
          color="gray"
          variant="light"
          tt="none"
          leftSection={<IconPin size={12} aria-hidden />}
        >
          Pinned
        </Badge>
      )}
    </>
  );
}

/** Who wrote it, when it went out, and for whom. */
export function bylineOf(announcement: Announcement): string {
  const when = announcement.publishedAt ?? announcement.publishAt ?? announcement.createdAt;
  return `${announcement.author.name} · ${formatDateTime(when)} · ${audienceText(announcement.audience)}`;
}

export interface AnnouncementArticleProps {
  announcement: Announcement;
  /** The heading level of its title (3 in a page's section). */
  level?: 2 | 3 | 4;
  /** Long text is folded after this many pixels, with Show more (none: shown whole). */
  foldAt?: number;
}

export function AnnouncementArticle({ announcement, level = 3, foldAt }: AnnouncementArticleProps) {
  const titleId = useId();
  const body = <RichTextView html={announcement.bodyHtml} />;
  return (
    <Stack component="article" gap="xs" aria-labelledby={titleId}>
      <Group gap="xs" wrap="wrap" align="center">
        <Title order={level} size="h4" id={titleId} style={{ overflowWrap: 'anywhere' }}>
          {announcement.title}
        </Title>
        <AnnouncementBadges announcement={announcement} />
      </Group>
      <Text size="xs" c="dimmed">
        {bylineOf(announcement)}
      </Text>
      {foldAt ? (
        <Spoiler maxHeight={foldAt} showLabel="Show more" hideLabel="Show less">
          {body}
        </Spoiler>
      ) : (
        body
      )}
      <Acknowledgement announcement={announcement} describedBy={titleId} />
    </Stack>
  );
}
