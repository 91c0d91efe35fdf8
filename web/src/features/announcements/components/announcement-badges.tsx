/** An announcement's badges and byline, wherever it is listed (light: the start page uses them). */
import type { Announcement } from '@learning-hub/core';
import { Badge } from '@mantine/core';
import { IconPin } from '@tabler/icons-react';
import { formatDateTime } from '../../../lib/format';
import { audienceText, PRIORITY_COLORS, PRIORITY_LABELS } from '../announcement-format';

/** A badge keeps its width beside a long title (the title is the one that is cut short). */
const KEEP_WHOLE = { flexShrink: 0 } as const;

/** Its badges: priority (unless info), pinned. */
export function AnnouncementBadges({ announcement }: { announcement: Announcement }) {
  return (
    <>
      {announcement.priority !== 'info' && (
        <Badge
          color={PRIORITY_COLORS[announcement.priority]}
          variant="light"
          tt="none"
          style={KEEP_WHOLE}
        >
          {PRIORITY_LABELS[announcement.priority]}
        </Badge>
      )}
      {announcement.pinned && (
        <Badge
          color="gray"
          variant="light"
          tt="none"
          style={KEEP_WHOLE}
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
