/**
 * /wiki/go?space=&title=: where a link by title leads (GET /api/wiki/resolve). A page with that
 * title in that space opens in place of this one (the link stays out of the history); otherwise
 * the page does not exist yet (or the reader may not open it: the server answers the same 404),
 * and those who may create in the space are offered to write it.
 */
import { Alert, Anchor, Button, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { Link, Navigate, useSearchParams } from 'react-router';
import { AccessDeniedRedirect } from '../../../components/access-denied-redirect';
import { forbiddenReason } from '../../../lib/access-denial';
import { errorCode } from '../../../lib/api-client';
import { useWikiResolve, useWikiSpaces } from '../api/wiki-api';
import { useMayOpenCreator } from './wiki-format';
import { href } from '../../../lib/links';

export function WikiGoPage() {
  const [params] = useSearchParams();
  const space = params.get('space') ?? '';
  const title = (params.get('title') ?? '').trim();
  const resolved = useWikiResolve(space, title);

  if (!space || !title) {
    return (
      <Missing heading="Wiki link">
        <Text>This link does not name a page: it needs a space and a title.</Text>
      </Missing>
    );
  }
  if (resolved.data)
    return <Navigate to={href('wikiPage', { pageId: resolved.data.id })} replace />;
  if (resolved.isPending) return <Loader aria-label="Finding the page" />;
  const refused = forbiddenReason(resolved.error);
  if (refused) return <AccessDeniedRedirect page="the wiki" reason={refused} to="/wiki" />;
  if (errorCode(resolved.error) !== 'NOT_FOUND') {
    return (
      <Missing heading={title}>
        <Alert color="red" role="alert">
          {resolved.error?.message}
        </Alert>
      </Missing>
    );
  }
  return (
    <Missing heading={title}>
      <Text>{`“${title}” does not exist yet.`}</Text>
      <CreateOffer space={space} title={title} />
    </Missing>
  );
}

function Missing({ heading, children }: { heading: string; children: React.ReactNode }) {
  return (
    <Stack gap="md">
      <Title order={1} style={{ overflowWrap: 'anywhere' }}>
        {heading}
      </Title>
      {children}
      <Anchor component={Link} to="/wiki">
        Back to the wiki
      </Anchor>
    </Stack>
  );
}

function CreateOffer({ space, title }: { space: string; title: string }) {
  const spaces = useWikiSpaces();
  const mayOpenCreator = useMayOpenCreator();
  const mayCreate = spaces.data?.some((s) => s.key === space && s.can.create) ?? false;
  if (!mayOpenCreator || !mayCreate) return null;
  return (
    <Group>
      <Button
        component={Link}
        to={href('wikiCreate', { space, title })}
        leftSection={<IconPlus size={16} aria-hidden />}
      >
        Create this page
      </Button>
    </Group>
  );
}
