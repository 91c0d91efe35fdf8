/**
 * /wiki: the wiki's home. The spaces the reader may open (a side list; a Select on a phone), the
 * chosen space (`?space=`) as a tree, a search over every space (`?search=`), recent changes in
 * the space, the reader's drafts and the pages they follow. `?trash=true` shows the trash instead,
 * to those who may move pages there (wiki.delete) or manage a space: restore, delete for good,
 * empty it. "New page" is offered to those who may open the Page creator and create in a space.
 */
import type { WikiPageSummary, WikiSpace } from '@learning-hub/core';
import {
  Anchor,
  Button,
  Grid,
  Group,
  NavLink,
  Paper,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconArrowLeft, IconPlus, IconSearch, IconTrash } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { AccessDeniedRedirect } from '../../../components/access-denied-redirect';
import { Pager } from '../../../components/pager';
import { forbiddenReason } from '../../../lib/access-denial';
import { useCan } from '../../../lib/auth/use-can';
import { formatDateTime, countText } from '../../../lib/format';
import { useFilterParams, useTypedFilter } from '../../../lib/use-filter-params';
import { useWikiList, useWikiSpaces, useWikiTree } from '../api/wiki-api';
import { SpaceTree } from './space-tree';
import { WikiTrashActions, WikiTrashRowActions } from './trash-actions';
import { usePhone } from '../../../lib/use-phone';
import { StatusBadge, useMayOpenCreator } from './wiki-format';
import { QueryState } from '../../../components/query-state';
import { href } from '../../../lib/links';

const SEARCH_PAGE_SIZE = 20;
const SPACE_TYPE_LABELS: Record<WikiSpace['type'], string> = {
  company: 'Company',
  department: 'Department',
  course: 'Course',
};

export function WikiHomePage() {
  const filters = useFilterParams();
  const trash = filters.get('trash') === 'true';
  const spaces = useWikiSpaces();
  const can = useCan();
  const mayOpenCreator = useMayOpenCreator();
  const spaceList = spaces.data ?? [];
  const spaceKey = filters.get('space') ?? spaceList[0]?.key ?? null;
  const space = spaceList.find((s) => s.key === spaceKey) ?? null;
  const manageAny = spaceList.some((s) => s.can.manage);
  const mayTrash = manageAny || can.permission('wiki.delete', { scope: 'any' });
  const createIn = space?.can.create ? space : (spaceList.find((s) => s.can.create) ?? null);
  const refused = forbiddenReason(spaces.error);
  if (refused) return <AccessDeniedRedirect page="the wiki" reason={refused} />;

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
        <Title order={1}>{trash ? 'Wiki trash' : 'Wiki'}</Title>
        <Group gap="xs" wrap="wrap">
          {trash ? (
            <Button
              variant="default"
              leftSection={<IconArrowLeft size={16} aria-hidden />}
              onClick={() => filters.set({ trash: null })}
            >
              Back to the wiki
            </Button>
          ) : (
            <>
              {mayOpenCreator && createIn && (
                <Button
                  component={Link}
                  to={href('wikiCreate', { space: createIn.key })}
                  leftSection={<IconPlus size={16} aria-hidden />}
                >
                  New page
                </Button>
              )}
              {mayTrash && (
                <Button
                  variant="default"
                  leftSection={<IconTrash size={16} aria-hidden />}
                  onClick={() => filters.set({ trash: 'true', search: null })}
                >
                  Trash
                </Button>
              )}
            </>
          )}
        </Group>
      </Group>
      <QueryState query={spaces} label="Loading the wiki" />
      {spaces.data &&
        (trash ? (
          <TrashView spaces={spaceList} manageAny={manageAny} />
        ) : spaceList.length === 0 ? (
          <Text c="dimmed">There is no wiki space you may read yet.</Text>
        ) : (
          <HomeView spaces={spaceList} space={space} />
        ))}
    </Stack>
  );
}

function HomeView({ spaces, space }: { spaces: WikiSpace[]; space: WikiSpace | null }) {
  const filters = useFilterParams();
  const phone = usePhone();
  const search = filters.get('search') ?? '';
  const typedSearch = useTypedFilter(filters, 'search');
  const chooseSpace = (key: string | null) => filters.set({ space: key, search: null });

  return (
    <Grid gap="xl">
      <Grid.Col span={{ base: 12, sm: 4, lg: 3 }}>
        {phone ? (
          <Select
            label="Space"
            data={spaces.map((s) => ({ value: s.key, label: s.name }))}
            value={space?.key ?? null}
            allowDeselect={false}
            onChange={chooseSpace}
          />
        ) : (
          <Stack gap={4} component="nav" aria-labelledby="wiki-spaces">
            <Title order={2} size="h4" id="wiki-spaces">
              Spaces
            </Title>
            {spaces.map((s) => (
              <NavLink
                key={s.key}
                component={Link}
                to={href('wiki', { space: s.key })}
                label={s.name}
                description={`${SPACE_TYPE_LABELS[s.type]} · ${countText(s.pageCount, 'page', 'pages')}`}
                active={s.key === space?.key}
                aria-current={s.key === space?.key ? 'true' : undefined}
              />
            ))}
          </Stack>
        )}
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 8, lg: 9 }}>
        <Stack gap="lg">
          <TextInput
            label="Search the wiki"
            placeholder="Words of a title or a page"
            leftSection={<IconSearch size={16} aria-hidden="true" />}
            {...typedSearch.field}
          />
          {search ? (
            <SearchResults search={search} />
          ) : (
            space && (
              <>
                <SpaceSection space={space} />
                <ListSection
                  title="Recent changes"
                  params={{ space: space.key, sort: 'updated', order: 'desc', pageSize: 10 }}
                  empty="Nothing has changed in this space yet."
                />
                <ListSection
                  title="My drafts"
                  params={{ status: 'draft', sort: 'updated', order: 'desc', pageSize: 10 }}
                  empty={null}
                />
                <ListSection
                  title="Following"
                  params={{ following: true, sort: 'updated', order: 'desc', pageSize: 10 }}
                  empty="Follow a page to find it here."
                />
              </>
            )
          )}
        </Stack>
      </Grid.Col>
    </Grid>
  );
}

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Stack gap="xs" component="section" aria-labelledby={id}>
      <Title order={2} size="h3" id={id}>
        {title}
      </Title>
      {children}
    </Stack>
  );
}

function SpaceSection({ space }: { space: WikiSpace }) {
  const tree = useWikiTree(space.key);
  return (
    <Section id="wiki-space" title={space.name}>
      <QueryState query={tree} label="Loading the pages" />
      {tree.data && (
        <Paper withBorder p="sm">
          <SpaceTree pages={tree.data.pages} label={`Pages of ${space.name}`} />
          {tree.data.truncated && (
            <Text size="sm" c="dimmed" mt="xs">
              This space has more pages than the tree shows: search to find the others.
            </Text>
          )}
        </Paper>
      )}
    </Section>
  );
}

function ListSection({
  title,
  params,
  empty,
}: {
  title: string;
  params: Parameters<typeof useWikiList>[0];
  /** What to say when there is nothing; null hides the section then. */
  empty: string | null;
}) {
  const list = useWikiList(params);
  const id = `wiki-${title.toLowerCase().replace(/\W+/g, '-')}`;
  if (empty === null && list.data?.total === 0) return null;
  return (
    <Section id={id} title={title}>
      <QueryState query={list} label={`Loading ${title.toLowerCase()}`} />
      {list.data &&
        (list.data.items.length === 0 ? (
          <Text size="sm" c="dimmed">
            {empty}
          </Text>
        ) : (
          <PageList pages={list.data.items} label={title} />
        ))}
    </Section>
  );
}

function SearchResults({ search }: { search: string }) {
  const filters = useFilterParams();
  const list = useWikiList({ search, page: filters.page, pageSize: SEARCH_PAGE_SIZE });
  return (
    <Section id="wiki-results" title="Search results">
      <QueryState query={list} label="Searching" />
      {list.data && (
        <>
          <Text size="sm" c="dimmed" aria-live="polite">
            {countText(list.data.total, 'page found', 'pages found')}
          </Text>
          {list.data.items.length > 0 && (
            <PageList pages={list.data.items} label="Search results" />
          )}
          <Pager
            label="Search result pages"
            page={filters.page}
            total={list.data.total}
            pageSize={list.data.pageSize}
            onChange={filters.setPage}
          />
        </>
      )}
    </Section>
  );
}

/** Pages as a list: the title (a link), a draft badge, the space and the last change. */
function PageList({ pages, label }: { pages: WikiPageSummary[]; label: string }) {
  return (
    <Stack component="ul" gap="xs" m={0} p={0} aria-label={label} style={{ listStyle: 'none' }}>
      {pages.map((page) => (
        <li key={page.id}>
          <Group gap={6} wrap="nowrap">
            <Anchor
              component={Link}
              to={href('wikiPage', { pageId: page.id })}
              fw={500}
              style={{ overflowWrap: 'anywhere' }}
            >
              {page.title}
            </Anchor>
            <StatusBadge status={page.status} />
          </Group>
          <Text size="xs" c="dimmed">
            {`${page.spaceName} · updated ${formatDateTime(page.updatedAt)} by ${page.updatedBy.name}`}
          </Text>
        </li>
      ))}
    </Stack>
  );
}

function TrashView({ spaces, manageAny }: { spaces: WikiSpace[]; manageAny: boolean }) {
  const filters = useFilterParams();
  const list = useWikiList({ trash: true, page: filters.page, pageSize: SEARCH_PAGE_SIZE });
  const manages = new Set(spaces.filter((s) => s.can.manage).map((s) => s.key));
  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Text size="sm" c="dimmed">
          Pages moved to the trash that you may restore. Restoring puts a page back where it was.
        </Text>
        {manageAny && <WikiTrashActions empty={list.data?.total === 0} />}
      </Group>
      <QueryState query={list} label="Loading the trash" />
      {list.data &&
        (list.data.items.length === 0 ? (
          <Text c="dimmed" ta="center" py="xl">
            The trash is empty.
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={640}>
            <Table verticalSpacing="sm" aria-label="Pages in the trash">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Title</Table.Th>
                  <Table.Th>Actions</Table.Th>
                  <Table.Th>Space</Table.Th>
                  <Table.Th>Deleted</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.data.items.map((page) => (
                  <Table.Tr key={page.id}>
                    <Table.Td>
                      <Anchor component={Link} to={href('wikiPage', { pageId: page.id })} fw={500}>
                        {page.title}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>
                      <WikiTrashRowActions page={page} canPurge={manages.has(page.spaceKey)} />
                    </Table.Td>
                    <Table.Td>{page.spaceName}</Table.Td>
                    <Table.Td>{formatDateTime(page.deletedAt)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        ))}
      {list.data && (
        <Pager
          label="Trash pages"
          page={filters.page}
          total={list.data.total}
          pageSize={list.data.pageSize}
          onChange={filters.setPage}
        />
      )}
    </Stack>
  );
}
