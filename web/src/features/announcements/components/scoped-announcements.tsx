/**
 * A course's or a department's announcements, on its page (docs/announcements.md, "Where readers
 * see them"). Someone who may announce there (core's rule: course.edit in the course,
 * department.manage in the department) sees every announcement for it with its state and how far
 * it got, opens each (counts, who has not acknowledged, Remind, Withdraw, Edit), and writes new
 * ones for it; everyone else sees those out to them now, and nothing when there are none.
 */
import {
  mayAnnounceToCourse,
  mayAnnounceToDepartment,
  type Announcement,
} from '@learning-hub/core';
import { Button, Divider, Group, Stack, Text, Title } from '@mantine/core';
import { IconSpeakerphone } from '@tabler/icons-react';
import { Fragment, useId, useState } from 'react';
import { FormModal } from '../../../components/form-modal';
import { Pager } from '../../../components/pager';
import { ErrorAlert, QueryState } from '../../../components/query-state';
import { useCan } from '../../../lib/auth/use-can';
import { useAnnouncement, useAnnouncements } from '../api/announcements-api';
import { AnnouncementArticle } from './announcement-article';
import { AnnouncementDetail } from './announcement-detail';
import { ComposeDialog, type FixedAudience } from './compose-dialog';
import { ManageList } from './manage-list';

const PAGE_SIZE = 10;

export interface AnnouncementScope {
  type: 'course' | 'department';
  id: string;
  /** The course's title or the department's name. */
  name: string;
}

export function ScopedAnnouncements({ scope }: { scope: AnnouncementScope }) {
  const can = useCan();
  const check = (requirement: Parameters<typeof can.requirement>[0], checkScope: unknown) =>
    can.requirement(requirement, { scope: checkScope as never });
  const announces =
    scope.type === 'course'
      ? mayAnnounceToCourse(check, scope.id)
      : mayAnnounceToDepartment(check, scope.id);
  return announces ? <ManagedSection scope={scope} /> : <ReaderSection scope={scope} />;
}

const filterOf = (scope: AnnouncementScope) =>
  scope.type === 'course' ? { courseId: scope.id } : { departmentId: scope.id };

function fixedOf(scope: AnnouncementScope): FixedAudience {
  return scope.type === 'course'
    ? { label: `the people of ${scope.name}`, courseIds: [scope.id] }
    : { label: `the members of ${scope.name}`, departmentIds: [scope.id] };
}

function SectionHeading({ id, children }: { id: string; children?: React.ReactNode }) {
  return (
    <Group justify="space-between" wrap="wrap" gap="xs">
      <Title order={2} id={id}>
        Announcements
      </Title>
      {children}
    </Group>
  );
}

/** Those out to the reader now; nothing at all when there are none. */
function ReaderSection({ scope }: { scope: AnnouncementScope }) {
  const headingId = useId();
  const list = useAnnouncements({ view: 'mine', ...filterOf(scope), page: 1, pageSize: PAGE_SIZE });
  if (list.isError) return <ErrorAlert error={list.error} />;
  const items = list.data?.items ?? [];
  if (items.length === 0) return null;
  return (
    <Stack component="section" aria-labelledby={headingId} gap="sm">
      <SectionHeading id={headingId} />
      {items.map((announcement, index) => (
        <Fragment key={announcement.id}>
          {index > 0 && <Divider />}
          <AnnouncementArticle announcement={announcement} level={3} foldAt={200} />
        </Fragment>
      ))}
    </Stack>
  );
}

/** Every announcement for it, to manage, and writing a new one. */
function ManagedSection({ scope }: { scope: AnnouncementScope }) {
  const headingId = useId();
  const [page, setPage] = useState(1);
  const [composing, setComposing] = useState(false);
  const [opened, setOpened] = useState<string | null>(null);
  const list = useAnnouncements({ view: 'manage', ...filterOf(scope), page, pageSize: PAGE_SIZE });
  const fixed = fixedOf(scope);
  return (
    <Stack component="section" aria-labelledby={headingId} gap="sm">
      <SectionHeading id={headingId}>
        <Button
          variant="light"
          leftSection={<IconSpeakerphone size={16} aria-hidden />}
          onClick={() => setComposing(true)}
        >
          Announce
        </Button>
      </SectionHeading>
      <QueryState query={list} label="Loading the announcements">
        {(data) => (
          <Stack gap="sm">
            <ManageList
              items={data.items}
              label={`Announcements for ${scope.name}`}
              onOpen={(a: Announcement) => setOpened(a.id)}
              empty={
                <Text size="sm" c="dimmed">
                  {`No announcements for ${scope.name} yet. Announce writes one to ${fixed.label}.`}
                </Text>
              }
            />
            <Pager
              label="Pages of announcements"
              page={page}
              total={data.total}
              pageSize={PAGE_SIZE}
              onChange={setPage}
            />
          </Stack>
        )}
      </QueryState>
      <ComposeDialog opened={composing} onClose={() => setComposing(false)} fixed={fixed} />
      <FormModal
        opened={opened !== null}
        onClose={() => setOpened(null)}
        title="Announcement"
        size="xl"
      >
        {opened && <OpenedDetail id={opened} fixed={fixed} />}
      </FormModal>
    </Stack>
  );
}

function OpenedDetail({ id, fixed }: { id: string; fixed: FixedAudience }) {
  const announcement = useAnnouncement(id);
  return (
    <QueryState query={announcement} label="Loading the announcement">
      {(data) => <AnnouncementDetail announcement={data} fixed={fixed} headingLevel={3} />}
    </QueryState>
  );
}
