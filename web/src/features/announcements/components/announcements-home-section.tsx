/**
 * The start page's announcements (docs/announcements.md, "Where readers see them"): the latest
 * ones out to the reader, urgent ones still waiting for their acknowledgement first, then pinned
 * ones — each a line: its title (which opens the whole text), how urgent, who and when, and "I
 * have read this" when it asks for it. A notification's link (`/?announcement=<id>`) opens one
 * here. Nothing when there is nothing to show. Contributed to the start page through
 * features/announcements/home.ts.
 *
 * Headlines, not the texts: the section comes with the first page, and a text block larger than
 * the greeting, painted once the list is there, would be the page's largest paint, seconds later on
 * a phone (docs/front-end.md, "The start page's sections from the areas").
 */
import type { Announcement } from '@learning-hub/core';
import { Button, Group, Stack, Text, UnstyledButton } from '@mantine/core';
import { lazy, Suspense, useId, useState } from 'react';
import { useSearchParams } from 'react-router';
import { HomeSection, PlainList } from '../../home/components/home-section';
import { HOME_ANNOUNCEMENTS, useAnnouncements } from '../api/announcements-api';
import { Acknowledgement } from './acknowledgement';
import { AnnouncementBadges, bylineOf } from './announcement-badges';

// The whole text, in a dialog: loaded when one is opened.
const AnnouncementDialog = lazy(() =>
  import('./announcement-dialog').then((m) => ({ default: m.AnnouncementDialog })),
);

/** How many the section shows after Show all. */
const ALL = 50;

function Headline({ announcement, onOpen }: { announcement: Announcement; onOpen(): void }) {
  const titleId = useId();
  return (
    <li>
      <Group justify="space-between" wrap="wrap" gap="xs" align="center">
        <Stack gap={2} style={{ minWidth: 0, flex: '1 1 16rem' }}>
          <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
            <UnstyledButton
              onClick={onOpen}
              aria-haspopup="dialog"
              id={titleId}
              style={{ minWidth: 0 }}
            >
              <Text
                component="span"
                fw={600}
                size="sm"
                c="var(--mantine-color-anchor)"
                lineClamp={1}
              >
                {announcement.title}
              </Text>
            </UnstyledButton>
            <AnnouncementBadges announcement={announcement} />
          </Group>
          <Text size="xs" c="dimmed" lineClamp={1}>
            {bylineOf(announcement)}
          </Text>
        </Stack>
        <Acknowledgement announcement={announcement} describedBy={titleId} />
      </Group>
    </li>
  );
}

export function AnnouncementsHomeSection() {
  const [all, setAll] = useState(false);
  const list = useAnnouncements(
    all ? { ...HOME_ANNOUNCEMENTS, pageSize: ALL } : HOME_ANNOUNCEMENTS,
  );
  const [params, setParams] = useSearchParams();
  const opened = params.get('announcement');
  const open = (id: string | null) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (id) next.set('announcement', id);
        else next.delete('announcement');
        return next;
      },
      { replace: true, preventScrollReset: true },
    );
  const dialog = opened ? (
    <Suspense fallback={null}>
      <AnnouncementDialog id={opened} onClose={() => open(null)} />
    </Suspense>
  ) : null;
  if (list.isError) {
    return (
      <HomeSection id="home-announcements" title="Announcements" framed>
        <Text size="sm" c="var(--mantine-color-error)" role="alert">
          {list.error instanceof Error
            ? list.error.message
            : 'The announcements could not be loaded.'}
        </Text>
        {dialog}
      </HomeSection>
    );
  }
  const items = list.data?.items ?? [];
  if (items.length === 0) return dialog;
  const total = list.data?.total ?? 0;
  return (
    <HomeSection id="home-announcements" title="Announcements" framed>
      <PlainList>
        {items.map((announcement) => (
          <Headline
            key={announcement.id}
            announcement={announcement}
            onOpen={() => open(announcement.id)}
          />
        ))}
      </PlainList>
      {total > items.length && !all && (
        <Group>
          <Button variant="subtle" size="compact-sm" onClick={() => setAll(true)}>
            {`Show all ${total} announcements`}
          </Button>
        </Group>
      )}
      {dialog}
    </HomeSection>
  );
}
