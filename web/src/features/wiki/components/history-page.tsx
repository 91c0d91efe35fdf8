/**
 * /wiki/pages/:pageId/history: the page's revisions, newest first and paged — number, when, who,
 * what they said changed, size, and which revision a restore brought back. Two radio columns
 * choose any two revisions to compare (as MediaWiki's history does); each revision can be read
 * on its own.
 */
import type { WikiRevisionSummary } from '@learning-hub/core';
import { Anchor, Badge, Button, Group, Radio, Stack, Table, Text, Title } from '@mantine/core';
import { IconArrowsDiff } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';

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

  const list = revisions.data?.revisions ?? [];
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
            <Table.ScrollContainer minWidth={720}>
              <Table verticalSpacing="xs" aria-label="Revisions">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th w={56}>From</Table.Th>
                    <Table.Th w={56}>To</Table.Th>
                    <Table.Th>Revision</Table.Th>
                    <Table.Th>Summary</Table.Th>
                    <Table.Th>Saved</Table.Th>
                    <Table.Th>By</Table.Th>
                    <Table.Th>Size</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {list.map((r) => (
                    <RevisionRow
                      key={r.id}
                      pageId={pageId}
                      revision={r}
                      current={r.number === page.data.revision}
                      from={from}
                      to={to}
                      onFrom={() => setChosen((c) => ({ ...c, from: r.number, to }))}
                      onTo={() => setChosen((c) => ({ ...c, to: r.number, from }))}
                    />
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
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

function RevisionRow({
  pageId,
  revision: r,
  current,
  from,
  to,
  onFrom,
  onTo,
}: {
  pageId: string;
  revision: WikiRevisionSummary;
  current: boolean;
  from: number | null;
  to: number | null;
  onFrom(): void;
  onTo(): void;
}) {
  return (
    <Table.Tr>
      <Table.Td>
        <Radio
          name="from"
          aria-label={`Compare from revision ${r.number}`}
          checked={from === r.number}
          onChange={onFrom}
        />
      </Table.Td>
      <Table.Td>
        <Radio
          name="to"
          aria-label={`Compare to revision ${r.number}`}
          checked={to === r.number}
          onChange={onTo}
        />
      </Table.Td>
      <Table.Td>
        <Group gap={6} wrap="nowrap">
          <Anchor
            component={Link}
            to={href('wikiRevision', { pageId, revision: r.number })}
            style={{ whiteSpace: 'nowrap' }}
          >
            {`Revision ${r.number}`}
          </Anchor>
          {current && (
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
      </Table.Td>
      <Table.Td style={{ overflowWrap: 'anywhere' }}>
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
      </Table.Td>
      <Table.Td>{formatDateTime(r.createdAt)}</Table.Td>
      <Table.Td>{r.author.name}</Table.Td>
      <Table.Td>{`${numberFormat.format(r.size)} characters`}</Table.Td>
    </Table.Tr>
  );
}
