/**
 * /wiki/pages/:pageId/edit: the page's title, body and a summary of the change. A save names the
 * revision the editor started from (`baseRevision`); when someone else saved first the server
 * refuses it (409 WIKI_EDIT_CONFLICT) and the conflict view takes over (conflict-view.tsx). A
 * draft is saved as a draft or published. Publishing, or saving a published page, with the
 * template's placeholders still in the text asks first (placeholder-check.tsx); so does leaving
 * with unsaved changes.
 */
import type { WikiConflict, WikiPage, WikiPageStatus } from '@learning-hub/core';
import { Alert, Button, Group, Stack, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { AccessDeniedRedirect } from '../../../components/access-denied-redirect';
import {
  preloadRichTextEditor,
  RichTextEditor,
} from '../../../components/rich-text/rich-text-editor';

import { errorCode } from '../../../lib/api-client';
import { useSaveWikiPage, useWikiPage } from '../api/wiki-api';
import { ConflictView, type MergedVersion } from './conflict-view';
import { EditingNow } from './editing-now';
import { useLeaveGuard } from '../../../components/leave-guard';
import { conflictOf } from './merge';
import { useWikiPageLinks } from './page-links';
import { PageBreadcrumbs } from './page-view';
import { usePlaceholderCheck } from './placeholder-check';
import { StatusBadge, titleError } from './wiki-format';
import { QueryState } from '../../../components/query-state';
import { href } from '../../../lib/links';

/** What a refusal of a page the reader may not edit says (the server's words for a PUT). */
const NOT_AN_EDITOR = 'Missing required permission: wiki.edit';

export function WikiEditorPage() {
  useEffect(() => void preloadRichTextEditor(), []);
  const { pageId = '' } = useParams();
  const page = useWikiPage(pageId);
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
  if (!page.data.can.edit || page.data.deletedAt) {
    return (
      <AccessDeniedRedirect
        page="the editor of this page"
        reason={NOT_AN_EDITOR}
        to={href('wikiPage', { pageId })}
      />
    );
  }
  return <PageEditor key={pageId} page={page.data} />;
}

function PageEditor({ page }: { page: WikiPage }) {
  const navigate = useNavigate();
  const save = useSaveWikiPage(page.id);
  const pageLinks = useWikiPageLinks(page.spaceKey);
  const [base, setBase] = useState(page.revision);
  const [title, setTitle] = useState(page.title);
  const [html, setHtml] = useState(page.html);
  const [summary, setSummary] = useState('');
  const [edited, setEdited] = useState(false);
  const [showErrors, setShowErrors] = useState(false);
  const [status, setStatus] = useState<WikiPageStatus | undefined>(undefined);
  // The conflict to settle, and how many there have been (a new one starts the view afresh).
  const [conflict, setConflict] = useState<WikiConflict | null>(null);
  const [round, setRound] = useState(0);
  const guard = useLeaveGuard(edited);
  const placeholders = usePlaceholderCheck();
  const draft = page.status === 'draft';

  const failure = save.isError && !conflictOf(save.error) ? save.error : null;
  // A title another page of the space has (409 CONFLICT) belongs to the title field.
  const duplicate = failure && errorCode(failure) === 'CONFLICT' ? failure.message : null;
  const ownError = showErrors ? titleError(title) : null;

  function send(
    body: { title: string; html: string; summary: string; baseRevision: number },
    wanted: WikiPageStatus | undefined,
  ) {
    setStatus(wanted);
    save.mutate(
      { ...body, ...(wanted ? { status: wanted } : {}) },
      {
        onSuccess: (saved) => {
          guard.release();
          notifications.show({
            color: 'green',
            message:
              wanted === 'published' && draft
                ? `“${saved.title}” was published.`
                : `Saved revision ${saved.revision}.`,
          });
          void navigate(href('wikiPage', { pageId: saved.id }));
        },
        onError: (error) => {
          const found = conflictOf(error);
          if (!found) return;
          setConflict(found);
          setRound((n) => n + 1);
        },
      },
    );
  }

  function submit(wanted: WikiPageStatus | undefined) {
    setShowErrors(true);
    if (titleError(title)) return;
    const body = { baseRevision: base, title: title.trim(), html, summary: summary.trim() };
    // Readers see what is published: the template's placeholders left in it are asked about.
    if (wanted === 'published' || !draft) {
      placeholders.check(
        html,
        () => send(body, wanted),
        wanted === 'published' ? 'Publish anyway' : 'Save anyway',
      );
    } else send(body, wanted);
  }

  const takeMerged = (merged: MergedVersion, into: 'save' | 'edit') => {
    if (!conflict) return;
    const next = conflict.current.number;
    if (into === 'save') {
      send({ baseRevision: next, ...merged }, status);
      return;
    }
    setBase(next);
    setTitle(merged.title);
    setHtml(merged.html);
    setSummary(merged.summary);
    setConflict(null);
    save.reset();
  };

  return (
    <Stack gap="lg">
      <PageBreadcrumbs page={page} current="Edit" />
      <Group gap="sm">
        <Title order={1} style={{ overflowWrap: 'anywhere' }}>
          {`Edit “${page.title}”`}
        </Title>
        <StatusBadge status={page.status} />
      </Group>
      <EditingNow pageId={page.id} />
      {conflict ? (
        <ConflictView
          key={round}
          conflict={conflict}
          summary={summary}
          saving={save.isPending}
          error={failure?.message ?? null}
          onSave={(merged) => takeMerged(merged, 'save')}
          onEdit={(merged) => takeMerged(merged, 'edit')}
          onDiscard={() => {
            guard.release();
            void navigate(href('wikiPage', { pageId: page.id }));
          }}
        />
      ) : (
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            submit(undefined);
          }}
        >
          <Stack gap="md">
            <TextInput
              label="Title"
              required
              value={title}
              error={ownError ?? duplicate}
              onChange={(event) => {
                setTitle(event.currentTarget.value);
                setEdited(true);
              }}
            />
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
            <TextInput
              label="Summary of your changes"
              description="Optional: a few words for the page's history."
              value={summary}
              onChange={(event) => {
                setSummary(event.currentTarget.value);
                setEdited(true);
              }}
            />
            {failure && !duplicate && (
              <Alert color="red" role="alert">
                {failure.message}
              </Alert>
            )}
            <Group gap="sm">
              {draft ? (
                <>
                  <Button type="submit" variant="default" loading={save.isPending && !status}>
                    Save draft
                  </Button>
                  <Button
                    loading={save.isPending && status === 'published'}
                    onClick={() => submit('published')}
                  >
                    Publish
                  </Button>
                </>
              ) : (
                <Button type="submit" loading={save.isPending}>
                  Save
                </Button>
              )}
              <Button
                variant="subtle"
                onClick={() => void navigate(href('wikiPage', { pageId: page.id }))}
              >
                Cancel
              </Button>
            </Group>
          </Stack>
        </form>
      )}
      {placeholders.dialog}
      {guard.dialog}
    </Stack>
  );
}
