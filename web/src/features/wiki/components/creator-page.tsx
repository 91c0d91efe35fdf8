/**
 * The Page creator (`/wiki/create` = `/wiki-creator`; the route's guard requires wiki.create and
 * the role instructor or admin). A new page starts from a template (core's WIKI_TEMPLATES:
 * procedure, troubleshooting guide, checklist, blank) or from a copy of an existing page; then
 * its title, its space (those where the writer may create), its parent, and its text, saved as a
 * draft or published (asking first when the template's placeholders are still in the text:
 * placeholder-check.tsx). `?space=&title=&parent=` fill the form in (a link to a page not written
 * yet leads here). A title the space already has is refused by the server (409) on the title.
 */
import {
  WIKI_TEMPLATES,
  type WikiPageStatus,
  type WikiSpace,
  type WikiTemplateId,
} from '@learning-hub/core';
import {
  Alert,
  Button,
  Group,
  Loader,
  Paper,
  Radio,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconFileText } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { ConfirmModal } from '../../../components/confirm-modal';
import {
  preloadRichTextEditor,
  RichTextEditor,
} from '../../../components/rich-text/rich-text-editor';
import { errorCode } from '../../../lib/api-client';
import {
  useCreateWikiPage,
  useWikiList,
  useWikiSpaces,
  useWikiTree,
  wikiPageQuery,
} from '../api/wiki-api';
import { useLeaveGuard } from '../../../components/leave-guard';
import { useWikiPageLinks } from './page-links';
import { usePlaceholderCheck } from './placeholder-check';
import { buildTreeNodes, parentOptions } from './space-tree';
import { titleError } from './wiki-format';
import { QueryState } from '../../../components/query-state';
import { href } from '../../../lib/links';

type Start = WikiTemplateId | 'copy';
const TOP = '(top)';

export function WikiCreatorPage() {
  useEffect(() => void preloadRichTextEditor(), []);
  const [params] = useSearchParams();
  const spaces = useWikiSpaces();
  const creatable = (spaces.data ?? []).filter((s) => s.can.create);
  return (
    <Stack gap="lg">
      <Title order={1}>Wiki Page Creator</Title>
      <QueryState query={spaces} label="Loading the spaces" />
      {spaces.data &&
        (creatable.length === 0 ? (
          <Alert color="yellow" title="No space to write in">
            There is no wiki space where you may create pages.
          </Alert>
        ) : (
          <CreatorForm
            spaces={creatable}
            prefill={{
              space: params.get('space'),
              title: params.get('title') ?? '',
              parent: params.get('parent'),
            }}
          />
        ))}
    </Stack>
  );
}

interface PendingText {
  html: string;
  start: Start;
  what: string;
}

function CreatorForm({
  spaces,
  prefill,
}: {
  spaces: WikiSpace[];
  prefill: { space: string | null; title: string; parent: string | null };
}) {
  const navigate = useNavigate();
  const create = useCreateWikiPage();
  const prefilledSpace = spaces.some((s) => s.key === prefill.space) ? prefill.space : null;
  const [space, setSpace] = useState(prefilledSpace ?? spaces[0]!.key);
  const [parent, setParent] = useState(prefilledSpace ? (prefill.parent ?? TOP) : TOP);
  const [title, setTitle] = useState(prefill.title);
  const [start, setStart] = useState<Start>('blank');
  const [html, setHtml] = useState('');
  const [edited, setEdited] = useState(false);
  const [pending, setPending] = useState<PendingText | null>(null);
  const [showErrors, setShowErrors] = useState(false);
  const [status, setStatus] = useState<WikiPageStatus>('published');
  const tree = useWikiTree(space);
  const nodes = useMemo(() => buildTreeNodes(tree.data?.pages ?? []), [tree.data]);
  const pageLinks = useWikiPageLinks(space);
  const guard = useLeaveGuard(edited || title !== prefill.title);
  const placeholders = usePlaceholderCheck();

  const failure = create.isError ? create.error : null;
  const duplicate = failure && errorCode(failure) === 'CONFLICT' ? failure.message : null;
  const ownError = showErrors ? titleError(title) : null;

  /** Replaces the text, asking first when the writer has changed it. */
  const offerText = (next: PendingText) => {
    if (edited && html !== '') {
      setPending(next);
      return;
    }
    setStart(next.start);
    setHtml(next.html);
    setEdited(false);
  };

  function submit(wanted: WikiPageStatus) {
    setShowErrors(true);
    if (titleError(title)) return;
    if (wanted === 'published') placeholders.check(html, () => send(wanted), 'Publish anyway');
    else send(wanted);
  }

  function send(wanted: WikiPageStatus) {
    setStatus(wanted);
    create.mutate(
      {
        title: title.trim(),
        space,
        parentId: parent === TOP ? null : parent,
        html,
        status: wanted,
      },
      {
        onSuccess: (page) => {
          guard.release();
          notifications.show({
            color: 'green',
            message:
              wanted === 'draft'
                ? `“${page.title}” was saved as a draft.`
                : `“${page.title}” was published.`,
          });
          void navigate(href('wikiPage', { pageId: page.id }));
        },
      },
    );
  }

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        submit('published');
      }}
    >
      <Stack gap="lg">
        <Radio.Group
          label="Start from"
          description="A template gives the page its sections; you can change everything."
          value={start}
          onChange={(value) => {
            const template = WIKI_TEMPLATES.find((t) => t.id === value);
            if (template)
              offerText({ html: template.html, start: template.id, what: template.name });
            else setStart('copy');
          }}
        >
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm" mt="xs">
            {WIKI_TEMPLATES.map((t) => (
              <Radio.Card key={t.id} value={t.id} p="sm" radius="md">
                <Group wrap="nowrap" align="flex-start" gap="sm">
                  <Radio.Indicator />
                  <div>
                    <Text fw={600}>{t.name}</Text>
                    <Text size="sm" c="dimmed">
                      {t.description}
                    </Text>
                  </div>
                </Group>
              </Radio.Card>
            ))}
            <Radio.Card value="copy" p="sm" radius="md">
              <Group wrap="nowrap" align="flex-start" gap="sm">
                <Radio.Indicator />
                <div>
                  <Text fw={600}>A copy of a page</Text>
                  <Text size="sm" c="dimmed">
                    Starts from the text of a page you can read.
                  </Text>
                </div>
              </Group>
            </Radio.Card>
          </SimpleGrid>
        </Radio.Group>
        {start === 'copy' && (
          <CopySource
            onPick={(copied) => offerText({ html: copied.html, start: 'copy', what: copied.title })}
          />
        )}

        <Paper withBorder p="md">
          <Stack gap="md">
            <TextInput
              label="Title"
              required
              value={title}
              error={ownError ?? duplicate}
              onChange={(event) => setTitle(event.currentTarget.value)}
            />
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
              <Select
                label="Space"
                data={spaces.map((s) => ({ value: s.key, label: s.name }))}
                value={space}
                allowDeselect={false}
                onChange={(value) => {
                  if (!value) return;
                  setSpace(value);
                  setParent(TOP);
                }}
              />
              <Select
                label="Parent page (optional)"
                searchable
                data={[{ value: TOP, label: 'None (top level)' }, ...parentOptions(nodes, null)]}
                value={parent}
                allowDeselect={false}
                onChange={(value) => setParent(value ?? TOP)}
              />
            </SimpleGrid>
          </Stack>
        </Paper>

        <RichTextEditor
          label="Page text"
          value={html}
          minHeight="20rem"
          checklists
          callouts
          pageLinks={pageLinks}
          onChange={(next) => {
            setHtml(next);
            setEdited(true);
          }}
        />
        {failure && !duplicate && (
          <Alert color="red" role="alert">
            {failure.message}
          </Alert>
        )}
        <Group gap="sm">
          <Button
            variant="default"
            loading={create.isPending && status === 'draft'}
            onClick={() => submit('draft')}
          >
            Save as draft
          </Button>
          <Button type="submit" loading={create.isPending && status === 'published'}>
            Publish
          </Button>
        </Group>
      </Stack>
      <ConfirmModal
        opened={pending !== null}
        title="Replace the page text?"
        confirmLabel="Replace the text"
        onClose={() => setPending(null)}
        onConfirm={() => {
          if (pending) {
            setStart(pending.start);
            setHtml(pending.html);
            setEdited(false);
          }
          setPending(null);
        }}
      >
        {`What you wrote so far is replaced by “${pending?.what ?? ''}”.`}
      </ConfirmModal>
      {placeholders.dialog}
      {guard.dialog}
    </form>
  );
}

/** Finds a page by title and hands over its text. */
function CopySource({ onPick }: { onPick(page: { title: string; html: string }): void }) {
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const [query] = useDebouncedValue(search.trim(), 250);
  const found = useWikiList({ search: query, pageSize: 10 }, query !== '');
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const options = (query ? (found.data?.items ?? []) : []).map((p) => ({
    value: p.id,
    label: `${p.title} · ${p.spaceName}`,
  }));

  return (
    <Stack gap="xs">
      <Select
        label="Page to copy"
        placeholder="Type part of its title"
        searchable
        searchValue={search}
        onSearchChange={setSearch}
        data={options}
        filter={({ options: all }) => all}
        nothingFoundMessage={query && !found.isFetching ? 'No page has a title like this.' : null}
        leftSection={<IconFileText size={16} aria-hidden />}
        rightSection={loading || found.isFetching ? <Loader size="xs" aria-hidden /> : null}
        onChange={(id) => {
          if (!id) return;
          setLoading(true);
          setError(null);
          queryClient
            .fetchQuery(wikiPageQuery(id))
            .then(
              (page) => onPick({ title: page.title, html: page.html }),
              (failed: unknown) =>
                setError(failed instanceof Error ? failed.message : 'The page could not be loaded'),
            )
            .finally(() => setLoading(false));
        }}
      />
      {error && (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
    </Stack>
  );
}
