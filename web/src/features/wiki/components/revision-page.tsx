/**
 * /wiki/pages/:pageId/revisions/:revision: one old revision, read-only, under a banner saying
 * which one it is. Those who may edit the page may restore it, which saves its title and text as
 * a new revision (nothing in between is lost: it stays in the history).
 */
import { Alert, Anchor, Button, Group, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconRestore } from '@tabler/icons-react';
import { Link, useNavigate, useParams } from 'react-router';
import { AccessDeniedRedirect } from '../../../components/access-denied-redirect';
import { forbiddenReason } from '../../../lib/access-denial';
import { formatDateTime } from '../../../lib/format';
import { useRestoreWikiRevision, useWikiPage, useWikiRevision } from '../api/wiki-api';
import { PageBreadcrumbs, PageError } from './page-view';
import { WikiContent } from './wiki-content';
import { StatusBadge } from './wiki-format';
import { QueryLoader } from '../../../components/query-state';
import { href } from '../../../lib/links';

export function WikiRevisionPage() {
  const { pageId = '', revision: param = '' } = useParams();
  const n = /^\d{1,7}$/.test(param) ? Number(param) : 0;
  const navigate = useNavigate();
  const page = useWikiPage(pageId);
  const revision = useWikiRevision(pageId, n);
  const restore = useRestoreWikiRevision(pageId);

  if (page.isPending || (n > 0 && revision.isPending)) {
    return <QueryLoader label="Loading the revision" size="page" />;
  }
  const refused = forbiddenReason(page.error) ?? forbiddenReason(revision.error);
  if (refused) return <AccessDeniedRedirect page="this wiki page" reason={refused} to="/wiki" />;
  if (page.isError) return <PageError error={page.error} />;
  if (n === 0 || revision.isError || !revision.data) {
    return <PageError error={revision.error ?? new Error('There is no such revision.')} />;
  }
  const data = revision.data;
  const latest = page.data.revision;
  const mayRestore = page.data.can.edit && !page.data.deletedAt && n !== latest;

  return (
    <Stack gap="lg">
      <PageBreadcrumbs page={page.data} current={`Revision ${n}`} />
      <Alert color="blue" role="status" title={`You are reading revision ${n} of ${latest}.`}>
        <Stack gap="xs">
          <Text size="sm">
            {`Saved ${formatDateTime(data.createdAt)} by ${data.author.name}${data.summary ? `: “${data.summary}”` : '.'}`}
          </Text>
          <Group gap="md" wrap="wrap">
            <Anchor component={Link} to={href('wikiPage', { pageId })} size="sm">
              Read the current version
            </Anchor>
            {n !== latest && (
              <Anchor
                component={Link}
                to={href('wikiDiff', { pageId, from: n, to: latest })}
                size="sm"
              >
                Compare with the current version
              </Anchor>
            )}
            <Anchor component={Link} to={href('wikiHistory', { pageId })} size="sm">
              History
            </Anchor>
          </Group>
          {mayRestore && (
            <Group>
              <Button
                leftSection={<IconRestore size={16} aria-hidden />}
                loading={restore.isPending}
                onClick={() =>
                  restore.mutate(n, {
                    onSuccess: (saved) => {
                      notifications.show({
                        color: 'green',
                        message: `Revision ${n} was restored as revision ${saved.revision}.`,
                      });
                      void navigate(href('wikiPage', { pageId }));
                    },
                  })
                }
              >
                Restore this revision
              </Button>
            </Group>
          )}
          {restore.isError && (
            <Text size="sm" c="red" role="alert">
              {restore.error.message}
            </Text>
          )}
        </Stack>
      </Alert>
      <Group gap="sm">
        <Title order={1} style={{ overflowWrap: 'anywhere' }}>
          {data.title}
        </Title>
        <StatusBadge status={data.status} />
      </Group>
      {data.html ? (
        <WikiContent html={data.html} />
      ) : (
        <Text c="dimmed">This revision is empty.</Text>
      )}
    </Stack>
  );
}
