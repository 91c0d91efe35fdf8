/**
 * The start page's wiki section (docs/front-end.md "The start page"): the pages the reader follows
 * and the pages changed lately that they may open, each a link, and a link to the wiki. Its own
 * lazily loaded chunk, asked for once the sections above it have settled; the two lists are the
 * wiki's own list (`GET /api/wiki/pages`, published pages the reader may open, newest change
 * first).
 */
import type { WikiPageSummary } from '@learning-hub/core';
import { Anchor, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { QueryState } from '../../../components/query-state';
import { href } from '../../../lib/links';
import { formatDate } from '../../classroom/course-format';
import { useWikiList } from '../../wiki/api/wiki-api';
import { EmptyText, HomeSection, PlainList } from './home-section';

/** How many pages each list shows. */
export const WIKI_SECTION_SIZE = 5;

function PageLinks({ id, title, following }: { id: string; title: string; following: boolean }) {
  const list = useWikiList({
    ...(following ? { following: true } : {}),
    sort: 'updated',
    order: 'desc',
    pageSize: WIKI_SECTION_SIZE,
  });
  return (
    <Stack gap="xs" aria-labelledby={id} component="section">
      <Title order={3} size="h5" id={id}>
        {title}
      </Title>
      <QueryState query={list} label={`Loading ${title.toLowerCase()}`} />
      {list.data &&
        (list.data.items.length === 0 ? (
          <EmptyText>
            {following
              ? 'You follow no pages yet: Follow on a page lists it here.'
              : 'No wiki page you can open yet.'}
          </EmptyText>
        ) : (
          <PlainList gap="xs">
            {list.data.items.map((page) => (
              <PageLine key={page.id} page={page} />
            ))}
          </PlainList>
        ))}
    </Stack>
  );
}

function PageLine({ page }: { page: WikiPageSummary }) {
  return (
    <li>
      <Anchor component={Link} to={href('wikiPage', { pageId: page.id })} size="sm" fw={500}>
        {page.title}
      </Anchor>
      <Text size="xs" c="dimmed">
        {`${page.spaceName} · changed ${formatDate(page.updatedAt)}`}
      </Text>
    </li>
  );
}

export function WikiSection() {
  return (
    <HomeSection
      id="home-wiki"
      title="Wiki"
      framed
      action={
        <Anchor component={Link} to={href('wiki')} size="sm">
          Open the wiki
        </Anchor>
      }
    >
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
        <PageLinks id="home-wiki-following" title="Pages you follow" following />
        <PageLinks id="home-wiki-recent" title="Recently changed" following={false} />
      </SimpleGrid>
    </HomeSection>
  );
}
