/**
 * The start page's announcements (docs/announcements.md, "Where readers see them"): the latest
 * ones out to the reader, urgent ones still waiting for their acknowledgement first, then pinned
 * ones; and the dialog a notification's link opens (`/?announcement=<id>`). Nothing when there is
 * nothing to show. Contributed to the start page through features/announcements/home.ts.
 */
import { Button, Divider, Stack } from '@mantine/core';
import { Fragment, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ErrorAlert } from '../../../components/query-state';
import { HomeSection } from '../../home/components/home-section';
import { HOME_ANNOUNCEMENTS, useAnnouncements } from '../api/announcements-api';
import { AnnouncementArticle } from './announcement-article';
import { AnnouncementDialog } from './announcement-dialog';

/** How many the section shows after Show all. */
const ALL = 50;

export function AnnouncementsHomeSection() {
  const [all, setAll] = useState(false);
  const list = useAnnouncements(
    all ? { ...HOME_ANNOUNCEMENTS, pageSize: ALL } : HOME_ANNOUNCEMENTS,
  );
  const [params, setParams] = useSearchParams();
  const opened = params.get('announcement');
  const close = () =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('announcement');
        return next;
      },
      { replace: true },
    );
  const dialog = <AnnouncementDialog id={opened} onClose={close} />;
  if (list.isError) {
    return (
      <HomeSection id="home-announcements" title="Announcements" framed>
        <ErrorAlert error={list.error} />
        {dialog}
      </HomeSection>
    );
  }
  const items = list.data?.items ?? [];
  if (items.length === 0) return dialog;
  const more = (list.data?.total ?? 0) - items.length;
  return (
    <HomeSection id="home-announcements" title="Announcements" framed>
      <Stack gap="md">
        {items.map((announcement, index) => (
          <Fragment key={announcement.id}>
            {index > 0 && <Divider />}
            <AnnouncementArticle announcement={announcement} level={3} foldAt={160} />
          </Fragment>
        ))}
        {more > 0 && !all && (
          <Button variant="subtle" size="compact-sm" onClick={() => setAll(true)}>
            {`Show all ${list.data?.total ?? ''} announcements`}
          </Button>
        )}
      </Stack>
      {dialog}
    </HomeSection>
  );
}
