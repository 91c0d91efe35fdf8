/**
 * The one loading, error and empty state of the web app. `<QueryState query={…} label="Loading
 * the roles">` shows a loader with that accessible name while the query has nothing to show, an
 * error alert (the API's message, and its code) when it failed, `empty` when its data is empty,
 * and otherwise `children(data)`. Without children it shows only those states, for a page that
 * returns early:
 *
 *     if (roles.isPending || roles.isError) return <QueryState query={roles} label="Loading roles" />;
 *
 * `ErrorAlert` is the same alert for an error that is not a query's (a failed mutation).
 */
import { Alert, Anchor, Center, Loader, Stack, Text, Title, type LoaderProps } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { forbiddenReason } from '../lib/access-denial';
import { isClientError } from '../lib/api-client';
import { AccessDeniedRedirect } from './access-denied-redirect';

/** What QueryState reads of a TanStack query result. */
export interface QueryLike<T> {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  data: T | undefined;
  /** `idle` with nothing loaded: a query that is not enabled, which shows nothing. */
  fetchStatus?: string;
}

export interface QueryStateProps<T> {
  query: QueryLike<T>;
  /** The loader's accessible name: what is loading ("Loading the revisions"). */
  label: string;
  /** `page`: the loader of a whole page, centred; `section` (default): a small one in place. */
  size?: 'page' | 'section';
  /** Shown instead of children when the data is empty (an empty list by default). */
  empty?: ReactNode;
  isEmpty?: (data: T) => boolean;
  /** A title above the error's message. */
  errorTitle?: string;
  /**
   * A page's own query: on an error the page's heading, the alert and a link back (`back`), and
   * on a refusal (403) the redirect with the notice of what was refused (`denied`).
   */
  heading?: string;
  back?: { to: string; label: string };
  denied?: { page: string; to?: string };
  children?: (data: T) => ReactNode;
}

function emptyByDefault(data: unknown): boolean {
  return Array.isArray(data) && data.length === 0;
}

export function QueryState<T>({
  query,
  label,
  size = 'section',
  empty,
  isEmpty = emptyByDefault,
  errorTitle,
  heading,
  back,
  denied,
  children,
}: QueryStateProps<T>) {
  if (query.isError) {
    const refused = denied ? forbiddenReason(query.error) : null;
    if (denied && refused) {
      return <AccessDeniedRedirect page={denied.page} reason={refused} to={denied.to} />;
    }
    const alert = <ErrorAlert error={query.error} title={errorTitle} />;
    if (!heading && !back) return alert;
    return (
      <Stack gap="md">
        {heading && <Title order={1}>{heading}</Title>}
        {alert}
        {back && (
          <Anchor component={Link} to={back.to}>
            {back.label}
          </Anchor>
        )}
      </Stack>
    );
  }
  if (query.isPending && query.fetchStatus === 'idle') return null;
  if (query.isPending || query.data === undefined) return <QueryLoader label={label} size={size} />;
  if (empty !== undefined && isEmpty(query.data)) return <>{empty}</>;
  return <>{children?.(query.data) ?? null}</>;
}

/** A loader with an accessible name (a `progressbar`: app/theme.ts); a page's is centred. */
export function QueryLoader({
  label,
  size = 'section',
  ...props
}: { label: string; size?: 'page' | 'section' } & Omit<LoaderProps, 'size'>) {
  const loader = <Loader size={size === 'page' ? 'md' : 'sm'} aria-label={label} {...props} />;
  return size === 'page' ? (
    <Center py="xl" role="status" aria-live="polite">
      {loader}
    </Center>
  ) : (
    loader
  );
}

/** The message to show for an error: the server's message, or a fallback. */
export function errorText(error: unknown): string {
  return error instanceof Error && error.message ? error.message : 'Something went wrong';
}

/** An error as an alert: its message, and the API's code (for a report to the help desk). */
export function ErrorAlert({ error, title }: { error: unknown; title?: string | undefined }) {
  const code = isClientError(error) ? error.code : null;
  return (
    <Alert color="red" role="alert" title={title}>
      <Text size="sm">{errorText(error)}</Text>
      {code && (
        <Text size="xs" c="dimmed" mt={4}>
          Code: {code}
        </Text>
      )}
    </Alert>
  );
}
