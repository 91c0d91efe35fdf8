import { ERROR_PAGE_SUPPORT_TEXT, classifyErrorForPage } from '@learning-hub/core';
import { Button, Center, Code, Group, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useState } from 'react';
import { isRouteErrorResponse, useLocation, useNavigate, useRouteError } from 'react-router';
import { useAuth } from '../lib/auth/auth-context';

/** The text the error page classifies (spec §8: by words in the error text). */
export function errorText(error: unknown): string {
  if (isRouteErrorResponse(error)) {
    const data = typeof error.data === 'string' ? error.data : '';
    return `${error.status} ${error.statusText} ${data}`.trim();
  }
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  return 'Unknown error';
}

/** A lazy page whose chunk could not be loaded (the wording differs per browser). */
export function isChunkLoadError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return (
    error.name === 'ChunkLoadError' ||
    /dynamically imported module|importing a module script failed|error loading dynamically/i.test(
      error.message,
    )
  );
}

/** ERR-<base36 time>-<random>: quoted to support to find the occurrence. */
export function generateErrorId(now = Date.now()): string {
  const random = Math.random().toString(36).slice(2, 8).toUpperCase().padEnd(6, '0');
  return `ERR-${now.toString(36).toUpperCase()}-${random}`;
}

/** The message shown under the title: API messages are written for people, others are not. */
function visibleMessage(error: unknown): string | null {
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`;
  if (error instanceof Error && (error.name === 'AppError' || error.name === 'ApiError')) {
    return error.message;
  }
  return null;
}

/** The error page of spec §8, the errorElement around every route. */
export function ErrorPage() {
  const error = useRouteError();
  const navigate = useNavigate();
  const location = useLocation();
  const auth = useAuth();
  const [errorId] = useState(generateErrorId);
  const kind = classifyErrorForPage(errorText(error));
  const message = visibleMessage(error);

  const [retrying, setRetrying] = useState(false);

  const tryAgain = async () => {
    // A failed chunk stays failed in the module map until the document is reloaded.
    if (isChunkLoadError(error)) {
      window.location.reload();
      return;
    }
    setRetrying(true);
    // The user's permissions could not be loaded: ask again before rendering the page again.
    if (auth.loadError) await auth.refresh();
    setRetrying(false);
    // Navigating to the same location resets the route's error boundary and renders it afresh.
    await navigate(`${location.pathname}${location.search}${location.hash}`, { replace: true });
  };

  return (
    <Center mih="60vh" p="md">
      <title>{`${kind.title} · Learning Hub`}</title>
      <Stack align="center" gap="md" maw={560} ta="center">
        <IconAlertTriangle size={48} stroke={1.5} aria-hidden="true" />
        <Title order={1}>{kind.title}</Title>
        {message && <Text>{message}</Text>}
        <Text size="sm">
          Error code: <Code>{kind.code}</Code>
        </Text>
        <Text size="sm">
          Error ID: <Code>{errorId}</Code>
        </Text>
        <Text c="dimmed">{ERROR_PAGE_SUPPORT_TEXT}</Text>
        <Group justify="center">
          <Button onClick={() => void tryAgain()} loading={retrying}>
            Try Again
          </Button>
          <Button variant="default" onClick={() => void navigate('/')}>
            Go to Home
          </Button>
        </Group>
      </Stack>
    </Center>
  );
}
