/**
 * /wiki/pages/:pageId/history: the page's revisions, newest first and paged — number, when, who,
 * what they said changed, size, and which revision a restore brought back. Two radio columns
 * choose any two revisions to compare (as MediaWiki's history does); each revision can be read
 * on its own.
 */
import type { WikiRevisionSummary } from '@learning-hub/core';
import { Anchor, Badge, Button, Group, Radio, Stack, Text, Title } from '@mantine/core';
import { IconArrowsDiff } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { DataList, type DataListColumn } from '../../../components/data-list';
import { Pager } from '../../../components/pager';

import { formatDateTime, countText } from '../../../lib/format';
import { useFilterParams } from '../../../lib/use-filter-params';
import { useWikiPage, useWikiRevisions } from '../api/wiki-api';
import { PageBreadcrumbs } from './page-view';
import { QueryState } from '../../../components/query-state';
import { href } from '../../../lib/links';

const numberFormat = new Intl.NumberFormat();

export function WikiHistoryPage() {
  const { pageId = '' } = useParams();
  const navigate = useNavigate();
  const filters = useFilterParams();
  const page = useWikiPage(pageId);
  const revisions = useWikiRevisions(pageId, filters.page);
  const [chosen, setChosen] = useState<{ from: number | null; to: number | null }>({
    from: null,
    to: null,
  });

  if (page.isPending || page.isError) {
    return (
      <QueryState
        query={page}
        label="Loading the history"
        size="page"
        denied={{ page: 'this wiki page', to: '/wiki' }}
        heading="Wiki page"
        back={{ to: '/wiki', label: 'Back to the wiki' }}
      />
    );
  }

  const list = revisions.data?.items ?? [];
  // Until the reader chooses, the newest revision against the one before it.
  const from = chosen.from ?? list[1]?.number ?? null;
  const to = chosen.to ?? list[0]?.number ?? null;
  const canCompare = from !== null && to !== null && from !== to;

  return (
    <Stack gap="lg">
      <PageBreadcrumbs page={page.data} current="History" />
      <Title order={1} style={{ overflowWrap: 'anywhere' }}>
        {`History of “${page.data.title}”`}
      </Title>
      <QueryState query={revisions} label="Loading the revisions" />
      {revisions.data && (
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            if (canCompare) void navigate(href('wikiDiff', { pageId, from, to }));
          }}
        >
          <Stack gap="sm">
            <Group justify="space-between" wrap="wrap" gap="sm">
              <Text size="sm" c="dimmed">
                {`${countText(revisions.data.total, 'revision', 'revisions')}. Choose two to compare: one in “From”, one in “To”.`}
              </Text>
              <Button
                type="submit"
                leftSection={<IconArrowsDiff size={16} aria-hidden />}
                disabled={!canCompare}
              >
                Compare selected revisions
              </Button>
            </Group>
            <DataList
              label="Revisions"
              rows={list}
              rowKey={(r) => r.id}
              verticalSpacing="xs"
              minWidth={720}
              columns={revisionColumns({
                pageId,
                current: page.data.revision,
                from,
                to,
                onFrom: (n) => setChosen((c) => ({ ...c, from: n, to })),
                onTo: (n) => setChosen((c) => ({ ...c, to: n, from })),
              })}
            />
            <Pager
              label="Revision pages"
              page={filters.page}
              total={revisions.data.total}
              pageSize={revisions.data.pageSize}
              onChange={filters.setPage}
            />
          </Stack>
        </form>
      )}
      <Anchor component={Link} to={href('wikiPage', { pageId })}>
        Back to the page
      </Anchor>
    </Stack>
  );
}

function revisionColumns({
  pageId,
  current,
  from,
  to,
  onFrom,
  onTo,
}: {
  pageId: string;
  /** The page's current revision. */
  current: number;
  from: number | null;
  to: number | null;
  onFrom(revision: number): void;
  onTo(revision: number): void;
}): DataListColumn<WikiRevisionSummary>[] {
  const choice = (r: WikiRevisionSummary, side: 'from' | 'to', label?: string) => (
    <Radio
      name={side}
      label={label}
      aria-label={`Compare ${side} revision ${r.number}`}
      checked={(side === 'from' ? from : to) === r.number}
      onChange={() => (side === 'from' ? onFrom : onTo)(r.number)}
    />
  );
  return [
    {
      header: 'From',
      width: 56,
      card: 'aside',
      cell: (r) => choice(r, 'from'),
      cardCell: (r) => choice(r, 'from', 'From'),
    },
    {
      header: 'To',
      width: 56,
      card: 'aside',
      cell: (r) => choice(r, 'to'),
      cardCell: (r) => choice(r, 'to', 'To'),
    },
    {
      header: 'Revision',
      card: 'title',
      cell: (r) => (
        <Group gap={6} wrap="nowrap">
          <Anchor
            component={Link}
            to={href('wikiRevision', { pageId, revision: r.number })}
            style={{ whiteSpace: 'nowrap' }}
          >
            {`Revision ${r.number}`}
          </Anchor>
          {r.number === current && (
            <Badge size="sm" variant="light" color="green">
              Current
            </Badge>
          )}
          {r.status === 'draft' && (
            <Badge size="sm" variant="light" color="yellow">
              Draft
            </Badge>
          )}
        </Group>
      ),
    },
    {
      header: 'Summary',
      wrapAnywhere: true,
      cell: (r) => (
        <>
          {r.summary || (
            <Text component="span" size="sm" c="dimmed">
              No summary
            </Text>
          )}
          {r.restoredFrom !== null && (
            <Text
              component="span"
              size="sm"
              c="dimmed"
            >{` (restored from revision ${r.restoredFrom})`}</Text>
          )}
        </>
      ),
    },
    { header: 'Saved', card: 'meta', cell: (r) => formatDateTime(r.createdAt) },
    { header: 'By', card: 'meta', cell: (r) => r.author.name },
    { header: 'Size', card: 'meta', cell: (r) => `${numberFormat.format(r.size)} characters` },
  ];
}
