/**
 * /wiki/pages/:pageId: one page — breadcrumbs, title, who changed it last, its table of contents
 * (a sticky side column on a wide screen, a fold at the top on a phone), the body, the pages under
 * it and the pages that link to it, and the space's tree. Following is for every reader; Edit,
 * History, Move, Move to trash, Restore and Delete for good follow what the server says the
 * reader may do (`can`). Opening the page counts a view once.
 */
import type { WikiPage } from '@learning-hub/core';
import {
  Alert,
  Anchor,
  Box,
  Breadcrumbs,
  Button,
  Collapse,
  Grid,
  Group,
  Paper,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import {
  IconArrowsMove,
  IconBell,
  IconBellOff,
  IconChevronDown,
  IconChevronRight,
  IconEdit,
  IconHistory,
} from '@tabler/icons-react';
import { useState } from 'react';
import { useViewOnce } from '../../../lib/use-view-once';
import { Link, useNavigate, useParams } from 'react-router';

import { formatDateTime, countText } from '../../../lib/format';
import {
  recordWikiView,
  useFollowWikiPage,
  usePurgeWikiPage,
  useRestoreWikiPage,
  useTrashWikiPage,
  useWikiPage,
  useWikiTree,
} from '../api/wiki-api';
import { MoveDialog } from './move-dialog';
import { SpaceTree } from './space-tree';
import { LifecycleActions } from '../../../components/trash-actions';
import { WIKI_PURGE_KEPT } from './trash-actions';
import { WikiContent } from './wiki-content';
import { usePhone } from '../../../lib/use-phone';
import { StatusBadge, updatedLine } from './wiki-format';
import { QueryState } from '../../../components/query-state';
import { href } from '../../../lib/links';

type Dialog = 'move' | null;

export function WikiPageView() {
  const { pageId = '' } = useParams();
  const page = useWikiPage(pageId);
  useViewOnce(pageId, recordWikiView);

  if (page.isPending || page.isError) {
    return (
      <QueryState
        query={page}
        label="Loading the page"
        size="page"
        denied={{ page: 'this wiki page', to: '/wiki' }}
        heading="Wiki page"
        back={{ to: '/wiki', label: 'Back to the wiki' }}
      />
    );
  }
  return <PageBody page={page.data} />;
}

/** A page that could not be loaded (not there, or hidden from the reader: the same 404). */
export function PageError({ error }: { error: unknown }) {
  return (
    <QueryState
      query={{ isPending: false, isError: true, error, data: undefined }}
      label="Loading the page"
      heading="Wiki page"
      back={{ to: '/wiki', label: 'Back to the wiki' }}
    />
  );
}

/** Wiki › space › ancestors › the page. */
export function PageBreadcrumbs({ page, current }: { page: WikiPage; current?: string }) {
  return (
    <Breadcrumbs separatorMargin={6} style={{ flexWrap: 'wrap', rowGap: 4 }}>
      <Anchor component={Link} to="/wiki" size="sm">
        Wiki
      </Anchor>
      <Anchor component={Link} to={href('wiki', { space: page.spaceKey })} size="sm">
        {page.spaceName}
      </Anchor>
      {page.ancestors.map((a) => (
        <Anchor key={a.id} component={Link} to={href('wikiPage', { pageId: a.id })} size="sm">
          {a.title}
        </Anchor>
      ))}
      {current ? (
        <Anchor component={Link} to={href('wikiPage', { pageId: page.id })} size="sm">
          {page.title}
        </Anchor>
      ) : null}
      <Text size="sm" aria-current="page" lineClamp={1}>
        {current ?? page.title}
      </Text>
    </Breadcrumbs>
  );
}

function PageBody({ page }: { page: WikiPage }) {
  const navigate = useNavigate();
  const phone = usePhone();
  const [dialog, setDialog] = useState<Dialog>(null);
  const trash = useTrashWikiPage();
  const purge = usePurgeWikiPage();
  const restore = useRestoreWikiPage();
  const inTrash = page.deletedAt !== null;

  return (
    <Stack gap="lg">
      <PageBreadcrumbs page={page} />
      <Stack gap={4}>
        <Group gap="sm" align="center">
          <Title order={1} style={{ overflowWrap: 'anywhere' }}>
            {page.title}
          </Title>
          <StatusBadge status={page.status} />
        </Group>
        <Text size="sm" c="dimmed">
          {updatedLine(page)}
        </Text>
      </Stack>

      {inTrash && (
        <Alert color="yellow" title="In the trash">
          {`Moved to the trash ${formatDateTime(page.deletedAt)}. Only people who may restore it see it.`}
        </Alert>
      )}

      <Group gap="xs" wrap="wrap">
        {!inTrash && <FollowButton page={page} />}
        {page.can.edit && !inTrash && (
          <Button
            component={Link}
            to={href('wikiEdit', { pageId: page.id })}
            leftSection={<IconEdit size={16} aria-hidden />}
          >
            Edit
          </Button>
        )}
        <Button
          component={Link}
          to={href('wikiHistory', { pageId: page.id })}
          variant="default"
          leftSection={<IconHistory size={16} aria-hidden />}
        >
          History
        </Button>
        {page.can.move && !inTrash && (
          <Button
            variant="default"
            leftSection={<IconArrowsMove size={16} aria-hidden />}
            onClick={() => setDialog('move')}
          >
            Move
          </Button>
        )}
        <LifecycleActions
          thing={page}
          inTrash={inTrash}
          can={{ trash: page.can.delete, restore: page.can.delete, purge: page.can.purge }}
          trash={trash}
          restore={restore}
          purge={purge}
          trashQuestion={`Move “${page.title}” to the trash? Readers no longer see it; the pages under it stay in the wiki. It can be restored from the trash.`}
          kept={WIKI_PURGE_KEPT}
          onTrashed={() => void navigate(href('wiki', { space: page.spaceKey }))}
          onPurged={() => void navigate(href('wiki', { trash: true }))}
        />
      </Group>

      <Grid gap="xl">
        <Grid.Col span={{ base: 12, md: 8, lg: 9 }}>
          <Stack gap="lg">
            {phone && page.headings.length > 0 && <PhoneContents page={page} />}
            <Box component="article" aria-label={page.title}>
              {page.html ? (
                <WikiContent html={page.html} />
              ) : (
                <Text c="dimmed">This page is empty.</Text>
              )}
            </Box>
            <LinkedPages page={page} />
            {phone && !inTrash && <PhoneTree page={page} />}
          </Stack>
        </Grid.Col>
        {!phone && (
          <Grid.Col span={{ md: 4, lg: 3 }}>
            <Stack
              gap="md"
              pos="sticky"
              top="calc(var(--app-shell-header-offset, 0rem) + 1rem)"
              style={{ maxHeight: 'calc(100vh - 6rem)', overflowY: 'auto' }}
            >
              {page.headings.length > 0 && (
                <Paper withBorder p="sm">
                  <Contents page={page} />
                </Paper>
              )}
              {!inTrash && (
                <Paper withBorder p="sm">
                  <Title order={2} size="h5" mb="xs">
                    {`Pages of ${page.spaceName}`}
                  </Title>
                  <PageTree page={page} />
                </Paper>
              )}
            </Stack>
          </Grid.Col>
        )}
      </Grid>

      {page.can.move && (
        <MoveDialog page={page} opened={dialog === 'move'} onClose={() => setDialog(null)} />
      )}
    </Stack>
  );
}

function FollowButton({ page }: { page: WikiPage }) {
  const follow = useFollowWikiPage(page.id);
  return (
    <Group gap={6} wrap="nowrap">
      <Button
        variant={page.following ? 'light' : 'default'}
        leftSection={
          page.following ? (
            <IconBellOff size={16} aria-hidden />
          ) : (
            <IconBell size={16} aria-hidden />
          )
        }
        loading={follow.isPending}
        onClick={() =>
          follow.mutate(!page.following, {
            onError: (error) => notifications.show({ color: 'red', message: error.message }),
          })
        }
      >
        {page.following ? 'Unfollow' : 'Follow'}
      </Button>
      <Text size="sm" c="dimmed" aria-live="polite">
        {countText(page.followerCount, 'follower', 'followers')}
      </Text>
    </Group>
  );
}

/** The table of contents: the page's h2–h4, indented by level, each a link to its anchor. */
function Contents({ page, headingless }: { page: WikiPage; headingless?: boolean }) {
  return (
    <Box component="nav" aria-label="Contents">
      {!headingless && (
        <Title order={2} size="h5" mb="xs">
          Contents
        </Title>
      )}
      <Box component="ol" m={0} p={0} style={{ listStyle: 'none' }}>
        {page.headings.map((h) => (
          <Box component="li" key={h.id} pl={`${(h.level - 2) * 0.75}rem`} py={2}>
            <Anchor href={`#${h.id}`} size="sm" style={{ overflowWrap: 'anywhere' }}>
              {h.text}
            </Anchor>
          </Box>
        ))}
      </Box>
    </Box>
  );
}

/** On a phone, the contents fold at the top of the page. */
function PhoneContents({ page }: { page: WikiPage }) {
  const [opened, { toggle }] = useDisclosure(false);
  return (
    <Paper withBorder p="xs">
      <Button
        variant="subtle"
        fullWidth
        justify="space-between"
        rightSection={
          opened ? (
            <IconChevronDown size={16} aria-hidden />
          ) : (
            <IconChevronRight size={16} aria-hidden />
          )
        }
        aria-expanded={opened}
        aria-controls="wiki-phone-contents"
        onClick={toggle}
      >
        Contents
      </Button>
      <Collapse expanded={opened} id="wiki-phone-contents">
        <Box pt="xs">
          <Contents page={page} headingless />
        </Box>
      </Collapse>
    </Paper>
  );
}

function PageTree({ page }: { page: WikiPage }) {
  const tree = useWikiTree(page.spaceKey);
  if (tree.isPending || tree.isError) return <QueryState query={tree} label="Loading the pages" />;
  return (
    <SpaceTree
      pages={tree.data.pages}
      currentPageId={page.id}
      label={`Pages of ${page.spaceName}`}
    />
  );
}

function PhoneTree({ page }: { page: WikiPage }) {
  const [opened, { toggle }] = useDisclosure(false);
  return (
    <Paper withBorder p="xs">
      <Button
        variant="subtle"
        fullWidth
        justify="space-between"
        aria-expanded={opened}
        aria-controls="wiki-phone-tree"
        rightSection={
          opened ? (
            <IconChevronDown size={16} aria-hidden />
          ) : (
            <IconChevronRight size={16} aria-hidden />
          )
        }
        onClick={toggle}
      >
        {`Pages of ${page.spaceName}`}
      </Button>
      <Collapse expanded={opened} id="wiki-phone-tree">
        <Box pt="xs">{opened && <PageTree page={page} />}</Box>
      </Collapse>
    </Paper>
  );
}

/** The pages under this one, and the pages that link to it. */
function LinkedPages({ page }: { page: WikiPage }) {
  return (
    <>
      {page.children.length > 0 && (
        <Stack gap="xs" component="section" aria-labelledby="wiki-children">
          <Title order={2} size="h4" id="wiki-children">
            Pages under this one
          </Title>
          <Box component="ul" m={0} pl="md">
            {page.children.map((c) => (
              <li key={c.id}>
                <Group gap={6} wrap="nowrap">
                  <Anchor component={Link} to={href('wikiPage', { pageId: c.id })}>
                    {c.title}
                  </Anchor>
                  <StatusBadge status={c.status} />
                </Group>
              </li>
            ))}
          </Box>
        </Stack>
      )}
      <Stack gap="xs" component="section" aria-labelledby="wiki-backlinks">
        <Title order={2} size="h4" id="wiki-backlinks">
          Linked from
        </Title>
        {page.backlinks.length === 0 ? (
          <Text size="sm" c="dimmed">
            No other page links here yet.
          </Text>
        ) : (
          <Box component="ul" m={0} pl="md">
            {page.backlinks.map((b) => (
              <li key={b.id}>
                <Anchor component={Link} to={href('wikiPage', { pageId: b.id })}>
                  {b.title}
                </Anchor>
                {b.spaceName !== page.spaceName && (
                  <Text component="span" size="sm" c="dimmed">{` · ${b.spaceName}`}</Text>
                )}
              </li>
            ))}
          </Box>
        )}
      </Stack>
    </>
  );
}
