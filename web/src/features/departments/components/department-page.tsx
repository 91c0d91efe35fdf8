/**
 * /departments/:deptName: one department — its description, managers, members, courses with the
 * members' progress, its newest library items and wiki pages. The route guard has turned the URL
 * name into the department's id (lib/route-params.tsx); what the viewer may change comes with the
 * department (`can.manage`: description and members; `can.administer`: name and archiving).
 */
import type { DepartmentDetail } from '@learning-hub/core';
import {
  Anchor,
  Badge,
  Breadcrumbs,
  Button,
  Group,
  List,
  Paper,
  Progress,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconArchive, IconArchiveOff, IconEdit, IconPencil } from '@tabler/icons-react';
import { lazy, Suspense, useId, useState, type ReactNode } from 'react';
import { Link } from 'react-router';

import { RichTextView } from '../../../components/rich-text/rich-text-view';

import { useRouteParam } from '../../../lib/route-params';
import { useDepartment, useMembers } from '../api/departments-api';
import { ArchiveDialog, EditDescriptionDialog, RenameDialog } from './department-dialogs';
import { formatDay, untilText } from './department-format';
import { MembersSection } from './members-section';
import { QueryState } from '../../../components/query-state';
import { countText } from '../../../lib/format';
import { href } from '../../../lib/links';

// The department's announcements: the announcements' own chunk (docs/announcements.md).
const ScopedAnnouncements = lazy(() =>
  import('../../announcements/components/scoped-announcements').then((m) => ({
    default: m.ScopedAnnouncements,
  })),
);

type Dialog = 'description' | 'rename' | 'archive' | null;

export function DepartmentPage() {
  const departmentId = useRouteParam('deptName');
  const department = useDepartment(departmentId);

  if (department.isPending || department.isError) {
    return (
      <QueryState
        query={department}
        label="Loading the department"
        size="page"
        denied={{ page: 'this department' }}
        heading="Department"
        back={{ to: '/departments', label: 'Back to the departments' }}
      />
    );
  }
  return <DepartmentView department={department.data} />;
}

/** A section with its heading, named by it (a landmark a screen reader can jump to). */
function Section({
  title,
  action,
  children,
}: {
  title: string;
  action?: ReactNode;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <Stack component="section" aria-labelledby={id} gap="sm">
      <Group justify="space-between" align="center" wrap="wrap" gap="xs">
        <Title order={2} id={id}>
          {title}
        </Title>
        {action}
      </Group>
      {children}
    </Stack>
  );
}

function DepartmentView({ department }: { department: DepartmentDetail }) {
  const [dialog, setDialog] = useState<Dialog>(null);
  const archived = department.archivedAt !== null;
  // Nothing is managed in an archived department; admins may still rename or unarchive it.
  const manage = department.can.manage && !archived;
  const administer = department.can.administer;

  return (
    <Stack gap="xl">
      <Stack gap="sm">
        <Breadcrumbs separatorMargin={6}>
          <Anchor component={Link} to="/departments" size="sm">
            Departments
          </Anchor>
          <Text size="sm" aria-current="page" lineClamp={1}>
            {department.name}
          </Text>
        </Breadcrumbs>
        <Group gap="sm" align="center" wrap="wrap">
          <Title order={1} style={{ overflowWrap: 'anywhere' }}>
            {department.name}
          </Title>
          {archived && (
            <Badge color="gray" variant="light" size="lg">
              Archived
            </Badge>
          )}
        </Group>
        {archived && department.archivedAt && (
          <Text size="sm" c="dimmed">
            {`Archived on ${formatDay(department.archivedAt)}: it takes no new members.`}
          </Text>
        )}
        {(manage || administer) && (
          <Group gap="xs" wrap="wrap">
            {manage && (
              <Button
                variant="default"
                leftSection={<IconEdit size={16} aria-hidden />}
                onClick={() => setDialog('description')}
              >
                Edit description
              </Button>
            )}
            {administer && (
              <>
                <Button
                  variant="default"
                  leftSection={<IconPencil size={16} aria-hidden />}
                  onClick={() => setDialog('rename')}
                >
                  Rename
                </Button>
                <Button
                  variant="default"
                  leftSection={
                    archived ? (
                      <IconArchiveOff size={16} aria-hidden />
                    ) : (
                      <IconArchive size={16} aria-hidden />
                    )
                  }
                  onClick={() => setDialog('archive')}
                >
                  {archived ? 'Unarchive' : 'Archive'}
                </Button>
              </>
            )}
          </Group>
        )}
      </Stack>

      {department.description ? (
        <RichTextView html={department.description} />
      ) : (
        <Text c="dimmed">This department has no description yet.</Text>
      )}

      <Suspense fallback={null}>
        <ScopedAnnouncements
          scope={{ type: 'department', id: department.id, name: department.name }}
        />
      </Suspense>
      <Section title="Managers">
        <Managers department={department} />
      </Section>
      <Section title="Members">
        <MembersSection department={department} manage={manage} />
      </Section>
      <Section title="Courses">
        <Courses department={department} />
      </Section>
      <Section
        title="Library"
        action={
          <Anchor
            component={Link}
            to={href('library', { scope: 'department', department: department.id })}
            size="sm"
          >
            {`See all (${department.library.total})`}
          </Anchor>
        }
      >
        <LibraryItems department={department} />
      </Section>
      <Section
        title="Wiki"
        action={
          <Anchor component={Link} to={href('wiki', { space: department.wiki.spaceKey })} size="sm">
            Open the space
          </Anchor>
        }
      >
        <WikiPages department={department} />
      </Section>

      {manage && (
        <EditDescriptionDialog
          department={department}
          opened={dialog === 'description'}
          onClose={() => setDialog(null)}
        />
      )}
      {administer && (
        <>
          <RenameDialog
            department={department}
            opened={dialog === 'rename'}
            onClose={() => setDialog(null)}
          />
          <ArchiveDialog
            department={department}
            opened={dialog === 'archive'}
            onClose={() => setDialog(null)}
          />
        </>
      )}
    </Stack>
  );
}

/** The managers in force, with the day each one's role ends. */
function Managers({ department }: { department: DepartmentDetail }) {
  // The end dates come with the members; the names are the department's own list.
  const managers = useMembers(department.id, {
    role: 'department-manager',
    page: 1,
    pageSize: 100,
  });
  const ends = new Map((managers.data?.items ?? []).map((m) => [m.id, m.expiresAt]));
  if (department.managers.length === 0) {
    return <Text c="dimmed">This department has no managers.</Text>;
  }
  return (
    <List spacing={4} aria-label="Managers">
      {department.managers.map((manager) => {
        const until = untilText(ends.get(manager.id) ?? null);
        return (
          <List.Item key={manager.id}>
            {manager.name}
            {until && <Text span c="dimmed" size="sm">{` (${until})`}</Text>}
          </List.Item>
        );
      })}
    </List>
  );
}

function Courses({ department }: { department: DepartmentDetail }) {
  if (department.courses.length === 0) {
    return <Text c="dimmed">This department has no courses yet.</Text>;
  }
  return (
    <Stack component="ul" gap="xs" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
      {department.courses.map((course) => {
        const average = Math.round(course.averageProgress);
        return (
          <Paper component="li" key={course.id} withBorder p="sm">
            <Stack gap={6}>
              <Anchor
                component={Link}
                to={href('course', { courseId: course.id })}
                fw={500}
                style={{ overflowWrap: 'anywhere' }}
              >
                {`${course.code} · ${course.title}`}
              </Anchor>
              <Text size="sm">
                {`${countText(course.enrolledMembers, 'member', 'members')} enrolled · ${course.completedMembers} completed`}
              </Text>
              <Group gap="sm" wrap="nowrap">
                <Progress
                  value={average}
                  style={{ flex: 1 }}
                  aria-label={`Average progress in ${course.title}`}
                />
                <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                  {`${average}% average`}
                </Text>
              </Group>
            </Stack>
          </Paper>
        );
      })}
    </Stack>
  );
}

function LibraryItems({ department }: { department: DepartmentDetail }) {
  const { items } = department.library;
  if (items.length === 0) {
    return <Text c="dimmed">Nothing in the library is shared with this department yet.</Text>;
  }
  return (
    <List spacing={4} aria-label="Newest library items">
      {items.map((item) => (
        <List.Item key={item.id}>
          <Anchor component={Link} to={href('libraryItem', { itemId: item.id })}>
            {item.title}
          </Anchor>
          <Text span c="dimmed" size="sm">{` · ${formatDay(item.updatedAt)}`}</Text>
        </List.Item>
      ))}
    </List>
  );
}

function WikiPages({ department }: { department: DepartmentDetail }) {
  const { pages, pageCount } = department.wiki;
  return (
    <Stack gap="xs">
      <Text size="sm">{countText(pageCount, 'page', 'pages')}</Text>
      {pages.length === 0 ? (
        <Text c="dimmed">The department's wiki space has no pages yet.</Text>
      ) : (
        <List spacing={4} aria-label="Newest wiki pages">
          {pages.map((page) => (
            <List.Item key={page.id}>
              <Anchor component={Link} to={href('wikiPage', { pageId: page.id })}>
                {page.title}
              </Anchor>
              <Text span c="dimmed" size="sm">{` · ${formatDay(page.updatedAt)}`}</Text>
            </List.Item>
          ))}
        </List>
      )}
    </Stack>
  );
}
