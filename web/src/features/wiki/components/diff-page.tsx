/**
 * /wiki/pages/:pageId/diff?from=&to=(&mode=inline): what changed between two revisions (GET
 * …/diff), block by block with the words that changed. Side by side shows `from` on the left and
 * `to` on the right; inline shows one text with deletions and insertions in place. Deleted words
 * are struck through and inserted ones underlined, each also named for a screen reader (not by
 * colour alone). Long runs of unchanged blocks fold away. A phone shows inline only.
 */
import type { WikiDiff } from '@learning-hub/core';
import {
  Alert,
  Anchor,
  Box,
  Button,
  Group,
  Loader,
  SegmentedControl,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { Fragment, useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { AccessDeniedRedirect } from '../../../components/access-denied-redirect';
import { forbiddenReason } from '../../../lib/access-denial';
import { formatDateTime, countText } from '../../../lib/format';
import { useFilterParams } from '../../../lib/use-filter-params';
import { useWikiDiff, useWikiPage } from '../api/wiki-api';
import { PageBreadcrumbs, PageError } from './page-view';
import { usePhone } from '../../../lib/use-phone';
import './wiki.css';
import { QueryLoader, ErrorAlert } from '../../../components/query-state';
import { href } from '../../../lib/links';

type Block = WikiDiff['blocks'][number];
type Part = Block['parts'][number];

/** Unchanged blocks kept beside a change, on each side of a fold. */
const CONTEXT = 1;
/** The fewest unchanged blocks worth folding away. */
const MIN_FOLD = 2;

export type Segment =
  | { kind: 'block'; block: Block; index: number }
  | { kind: 'fold'; id: number; blocks: { block: Block; index: number }[] };

/**
 * The blocks with long runs of unchanged ones folded: a run keeps CONTEXT blocks next to each
 * change and folds the rest when that is at least MIN_FOLD blocks.
 */
export function foldUnchanged(blocks: readonly Block[]): Segment[] {
  const segments: Segment[] = [];
  let i = 0;
  while (i < blocks.length) {
    if (blocks[i]!.op !== 'equal') {
      segments.push({ kind: 'block', block: blocks[i]!, index: i });
      i += 1;
      continue;
    }
    let end = i;
    while (end < blocks.length && blocks[end]!.op === 'equal') end += 1;
    const head = i > 0 ? CONTEXT : 0;
    const tail = end < blocks.length ? CONTEXT : 0;
    const run = blocks.slice(i, end).map((block, k) => ({ block, index: i + k }));
    if (run.length - head - tail >= MIN_FOLD) {
      run.slice(0, head).forEach((b) => segments.push({ kind: 'block', ...b }));
      segments.push({ kind: 'fold', id: i, blocks: run.slice(head, run.length - tail) });
      run.slice(run.length - tail).forEach((b) => segments.push({ kind: 'block', ...b }));
    } else {
      run.forEach((b) => segments.push({ kind: 'block', ...b }));
    }
    i = end;
  }
  return segments;
}

export function WikiDiffPage() {
  const { pageId = '' } = useParams();
  const filters = useFilterParams();
  const from = Number(filters.get('from')) || 0;
  const to = Number(filters.get('to')) || 0;
  const phone = usePhone();
  const inline = phone || filters.get('mode') === 'inline';
  const page = useWikiPage(pageId);
  const diff = useWikiDiff(pageId, from, to);

  if (page.isPending) return <QueryLoader label="Loading the changes" size="page" />;
  const refused = forbiddenReason(page.error) ?? forbiddenReason(diff.error);
  if (refused) return <AccessDeniedRedirect page="this wiki page" reason={refused} to="/wiki" />;
  if (page.isError) return <PageError error={page.error} />;

  return (
    <Stack gap="lg">
      <PageBreadcrumbs page={page.data} current="Changes" />
      <Title order={1} style={{ overflowWrap: 'anywhere' }}>
        {`Changes to “${page.data.title}”`}
      </Title>
      {!(from > 0 && to > 0) && (
        <Alert color="red" role="alert">
          Choose two revisions to compare in the page’s history.
        </Alert>
      )}
      {diff.isPending && from > 0 && to > 0 && <Loader size="sm" aria-label="Comparing" />}
      {diff.isError && <ErrorAlert error={diff.error} />}
      {diff.data && (
        <>
          <Summary pageId={pageId} diff={diff.data} />
          {phone ? (
            <Text size="sm" c="dimmed">
              Changes are shown inline on a narrow screen.
            </Text>
          ) : (
            <SegmentedControl
              aria-label="Show the changes"
              value={inline ? 'inline' : 'side'}
              data={[
                { value: 'side', label: 'Side by side' },
                { value: 'inline', label: 'Inline' },
              ]}
              onChange={(value) => filters.set({ mode: value === 'inline' ? 'inline' : null })}
              style={{ alignSelf: 'flex-start' }}
            />
          )}
          {diff.data.blocks.length === 0 ? (
            <Text c="dimmed">Both revisions are empty.</Text>
          ) : inline ? (
            <InlineDiff diff={diff.data} />
          ) : (
            <SideBySide diff={diff.data} />
          )}
        </>
      )}
      <Anchor component={Link} to={href('wikiHistory', { pageId })}>
        Back to the history
      </Anchor>
    </Stack>
  );
}

function Summary({ pageId, diff }: { pageId: string; diff: WikiDiff }) {
  const side = (r: WikiDiff['from']) => (
    <>
      <Anchor component={Link} to={href('wikiRevision', { pageId, revision: r.number })}>
        {`Revision ${r.number}`}
      </Anchor>
      {` (${formatDateTime(r.createdAt)}, ${r.author.name})`}
    </>
  );
  return (
    <Stack gap={4}>
      <Text size="sm">
        {side(diff.from)}
        {' → '}
        {side(diff.to)}
      </Text>
      <Text size="sm" aria-live="polite">
        {`${countText(diff.stats.insertedWords, 'word', 'words')} added, ${countText(diff.stats.deletedWords, 'word', 'words')} deleted.`}
      </Text>
      {diff.title && (
        <Text size="sm" className="wiki-diff">
          {'Title: '}
          <Deleted>{diff.title.from}</Deleted>
          {' → '}
          <Inserted>{diff.title.to}</Inserted>
        </Text>
      )}
    </Stack>
  );
}

function Deleted({ children }: { children: ReactNode }) {
  return (
    <del>
      <VisuallyHidden>deleted: </VisuallyHidden>
      {children}
    </del>
  );
}

function Inserted({ children }: { children: ReactNode }) {
  return (
    <ins>
      <VisuallyHidden>added: </VisuallyHidden>
      {children}
    </ins>
  );
}

/** Parts as text with deletions and insertions marked; `keep` leaves out the other side's. */
function Parts({ parts, keep }: { parts: Part[]; keep: 'from' | 'to' | 'both' }) {
  return (
    <>
      {parts.map((part, i) => {
        if (part.op === 'equal') return <Fragment key={i}>{part.text}</Fragment>;
        if (part.op === 'delete')
          return keep === 'to' ? null : <Deleted key={i}>{part.text}</Deleted>;
        return keep === 'from' ? null : <Inserted key={i}>{part.text}</Inserted>;
      })}
    </>
  );
}

/** One side of a block: its text, with the changed words marked. */
function BlockText({ block, side }: { block: Block; side: 'from' | 'to' }) {
  const text = side === 'from' ? block.from : block.to;
  if (text === null) return null;
  if (block.op === 'change') return <Parts parts={block.parts} keep={side} />;
  if (block.op === 'delete') return <Deleted>{text}</Deleted>;
  if (block.op === 'insert') return <Inserted>{text}</Inserted>;
  return <>{text}</>;
}

function FoldButton({ count, onOpen }: { count: number; onOpen(): void }) {
  return (
    <Button variant="subtle" size="compact-sm" onClick={onOpen}>
      {`Show ${countText(count, 'unchanged block', 'unchanged blocks')}`}
    </Button>
  );
}

function useFolds(diff: WikiDiff) {
  const [open, setOpen] = useState<ReadonlySet<number>>(new Set());
  const segments = foldUnchanged(diff.blocks);
  return {
    segments,
    isOpen: (id: number) => open.has(id),
    openFold: (id: number) => setOpen((s) => new Set(s).add(id)),
  };
}

function SideBySide({ diff }: { diff: WikiDiff }) {
  const { segments, isOpen, openFold } = useFolds(diff);
  const row = ({ block, index }: { block: Block; index: number }) => (
    <Table.Tr key={index} data-op={block.op}>
      <Table.Td className="wiki-diff-cell" data-tag={block.from === null ? undefined : block.tag}>
        <BlockText block={block} side="from" />
      </Table.Td>
      <Table.Td className="wiki-diff-cell" data-tag={block.to === null ? undefined : block.tag}>
        <BlockText block={block} side="to" />
      </Table.Td>
    </Table.Tr>
  );
  return (
    <Table
      className="wiki-diff"
      layout="fixed"
      verticalSpacing="xs"
      aria-label="Changes side by side"
    >
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{`Revision ${diff.from.number}`}</Table.Th>
          <Table.Th>{`Revision ${diff.to.number}`}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {segments.map((segment) =>
          segment.kind === 'block' ? (
            row(segment)
          ) : isOpen(segment.id) ? (
            segment.blocks.map(row)
          ) : (
            <Table.Tr key={`fold-${segment.id}`}>
              <Table.Td colSpan={2} ta="center">
                <FoldButton count={segment.blocks.length} onOpen={() => openFold(segment.id)} />
              </Table.Td>
            </Table.Tr>
          ),
        )}
      </Table.Tbody>
    </Table>
  );
}

function InlineDiff({ diff }: { diff: WikiDiff }) {
  const { segments, isOpen, openFold } = useFolds(diff);
  const block = ({ block: b, index }: { block: Block; index: number }) => (
    <Box key={index} className="wiki-diff-cell" data-tag={b.tag} data-op={b.op}>
      {b.op === 'change' ? (
        <Parts parts={b.parts} keep="both" />
      ) : (
        <BlockText block={b} side={b.op === 'delete' ? 'from' : 'to'} />
      )}
    </Box>
  );
  return (
    <Stack gap="xs" className="wiki-diff" aria-label="Changes inline" role="region">
      {segments.map((segment) =>
        segment.kind === 'block' ? (
          block(segment)
        ) : isOpen(segment.id) ? (
          segment.blocks.map(block)
        ) : (
          <Group key={`fold-${segment.id}`} justify="center">
            <FoldButton count={segment.blocks.length} onOpen={() => openFold(segment.id)} />
          </Group>
        ),
      )}
    </Stack>
  );
}
