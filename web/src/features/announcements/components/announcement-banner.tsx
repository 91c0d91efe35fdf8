/**
 * The shell's banner of urgent announcements (docs/announcements.md, "Where readers see them"):
 * an urgent one that asks the reader to acknowledge it stays at the foot of every page until they
 * do, with Read it (the whole text, in a dialog) and I have read this. A region named by its
 * heading, its title announced by screen readers when it appears (an alert), its buttons in the
 * tab order; fixed to the foot of the screen so that nothing on the page moves when it comes.
 *
 * It is also where the app listens for announcements on the live channel: a notification of kind
 * `announcement` (or one marked read elsewhere) makes every announcement query stale, so the
 * banner, the start page's section and the course and department pages refresh at once.
 */
import type { Notification } from '@learning-hub/core';
import { Button, Group, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useId, useRef, useState } from 'react';
import { useLiveEvent } from '../../../lib/live/use-live';
import {
  BANNER_ANNOUNCEMENTS,
  invalidateAnnouncements,
  useAnnouncements,
} from '../api/announcements-api';
import { Acknowledgement } from './acknowledgement';
import './announcements.css';

// The whole text, in a dialog: loaded at the first Read it.
const AnnouncementDialog = lazy(() =>
  import('./announcement-dialog').then((m) => ({ default: m.AnnouncementDialog })),
);

/** Refreshes the announcements when the live channel says something changed. */
export function useAnnouncementsLive(): void {
  const client = useQueryClient();
  useLiveEvent<Notification>('notification', (notification) => {
    if (notification.kind === 'announcement') void invalidateAnnouncements(client);
  });
  useLiveEvent('notifications-read', () => void invalidateAnnouncements(client));
  useLiveEvent('resync', () => void invalidateAnnouncements(client));
  useLiveEvent('announcement-withdrawn', () => void invalidateAnnouncements(client));
}

export function AnnouncementBanner() {
  useAnnouncementsLive();
  const list = useAnnouncements(BANNER_ANNOUNCEMENTS);
  const [reading, setReading] = useState<string | null>(null);
  const headingId = useId();
  const bar = useRef<HTMLElement>(null);
  const [height, setHeight] = useState(0);
  const first = list.data?.items[0];
  const total = list.data?.total ?? 0;

  // The page keeps room for the bar at its foot, so its last lines are never under it.
  useEffect(() => {
    const element = bar.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setHeight(element.offsetHeight));
    observer.observe(element);
    return () => observer.disconnect();
  }, [first?.id]);

  return (
    <>
      {first && (
        <>
          <div style={{ height }} aria-hidden="true" />
          <section ref={bar} className="announcement-banner" aria-labelledby={headingId}>
            <Group
              justify="space-between"
              wrap="wrap"
              gap="sm"
              className="announcement-banner-inner"
            >
              <Group gap="sm" wrap="nowrap" align="flex-start" style={{ minWidth: 0 }}>
                <IconAlertTriangle
                  size={24}
                  color="var(--mantine-color-red-filled)"
                  aria-hidden="true"
                  style={{ flexShrink: 0 }}
                />
                <div style={{ minWidth: 0 }}>
                  <Text id={headingId} size="xs" fw={700} className="announcement-banner-kicker">
                    {total > 1 ? `Urgent announcement (1 of ${total})` : 'Urgent announcement'}
                  </Text>
                  {/* One line: the whole title is read out, and Read it shows it with the text. */}
                  <Text fw={600} size="sm" role="alert" lineClamp={1} component="p">
                    {first.title}
                  </Text>
                </div>
              </Group>
              <Group gap="xs" wrap="wrap">
                <Button variant="default" onClick={() => setReading(first.id)}>
                  Read it
                </Button>
                <Acknowledgement announcement={first} describedBy={headingId} />
              </Group>
            </Group>
          </section>
        </>
      )}
      {reading && (
        <Suspense fallback={null}>
          <AnnouncementDialog id={reading} onClose={() => setReading(null)} />
        </Suspense>
      )}
    </>
  );
}
