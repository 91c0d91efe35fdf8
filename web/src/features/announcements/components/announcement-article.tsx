/**
 * One announcement as its readers see it (the start page, a course's or a department's page, the
 * dialog a notification opens): its title, how urgent it is, who wrote it and for whom, its text,
 * and "I have read this" when it asks for it.
 */
import type { Announcement } from '@learning-hub/core';
import { Group, Spoiler, Stack, Text, Title } from '@mantine/core';
import { useId } from 'react';
import { RichTextView } from '../../../components/rich-text/rich-text-view';
import { Acknowledgement } from './acknowledgement';
import { AnnouncementBadges, bylineOf } from './announcement-badges';

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
