import type { SessionInfo } from '@learning-hub/core';
import { Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { AUTH_METHOD_LABELS } from '../../../lib/auth/auth-method';
import { formatDateTime } from '../../../lib/format';
import { ConfirmModal, useConfirmation } from '../../../components/confirm-modal';
import { DataList, type DataListColumn } from '../../../components/data-list';
import { Pager } from '../../../components/pager';
import {
  SESSIONS_PAGE_SIZE,
  useEndOtherSessions,
  useEndSession,
  useSessions,
} from '../api/sessions-api';
import { QueryState } from '../../../components/query-state';

type Ending = { kind: 'one'; session: SessionInfo } | { kind: 'others' };

/** A table on a wide screen, a card per session on a phone (components/data-list.tsx). */
const COLUMNS: readonly DataListColumn<SessionInfo>[] = [
  { header: 'Method', cell: (s) => AUTH_METHOD_LABELS[s.method], card: 'title' },
  { header: 'Started', cell: (s) => formatDateTime(s.createdAt) },
  { header: 'Last used', cell: (s) => formatDateTime(s.lastUsedAt) },
  { header: 'Address', cell: (s) => s.ipAddress ?? '—' },
  {
    header: 'User agent',
    cell: (s) => (
      <Text size="sm" lineClamp={2} maw={280} title={s.userAgent ?? undefined}>
        {s.userAgent ?? '—'}
      </Text>
    ),
    wrapAnywhere: true,
  },
];

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : 'Something went wrong';
}

/** The signed-in user's sessions, with ending one or all others behind a confirmation. */
export function SessionsTable() {
  const [page, setPage] = useState(1);
  const sessions = useSessions(page);
  const endSession = useEndSession();
  const endOthers = useEndOtherSessions();
  // The one in use is always among them, so any more are others.
  const others = Math.max(0, (sessions.data?.total ?? 0) - 1);
  const busy = endSession.isPending || endOthers.isPending;

  // A failure is said in a notification: the dialog closes either way.
  const ending = useConfirmation(async (which: Ending) => {
    try {
      if (which.kind === 'one') {
        await endSession.mutateAsync(which.session.id);
        notifications.show({
          color: 'green',
          title: 'Session ended',
          message: 'That device has been signed out.',
        });
      } else {
        const { revoked } = await endOthers.mutateAsync();
        notifications.show({
          color: 'green',
          title: 'Other sessions ended',
          message: `${revoked} ${revoked === 1 ? 'session was' : 'sessions were'} ended.`,
        });
      }
    } catch (error) {
      notifications.show({
        color: 'red',
        title: 'Could not end the session',
        message: errorMessage(error),
      });
    }
  });

  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="sessions-heading">
      <Stack gap="md">
        <Group justify="space-between">
          <Title order={2} size="h3" id="sessions-heading">
            Active sessions
          </Title>
          <Button
            variant="light"
            color="red"
            disabled={others === 0 || busy}
            onClick={() => ending.ask({ kind: 'others' })}
          >
            End all other sessions
          </Button>
        </Group>
        <QueryState query={sessions} label="Loading sessions" />
        {sessions.data && (
          <DataList
            rows={sessions.data.items}
            rowKey={(session) => session.id}
            columns={COLUMNS}
            labelledBy="sessions-heading"
            minWidth={720}
            actions={(session) =>
              session.current ? (
                <Badge variant="light" tt="none">
                  This device
                </Badge>
              ) : (
                <Button
                  size="xs"
                  variant="default"
                  disabled={busy}
                  onClick={() => ending.ask({ kind: 'one', session })}
                >
                  End session
                </Button>
              )
            }
          />
        )}
        {sessions.data && (
          <Pager
            label="Sessions pages"
            page={page}
            total={sessions.data.total}
            pageSize={SESSIONS_PAGE_SIZE}
            onChange={setPage}
          />
        )}
      </Stack>
      <ConfirmModal
        {...ending.props}
        title={ending.thing?.kind === 'others' ? 'End all other sessions?' : 'End this session?'}
        confirmLabel={ending.thing?.kind === 'others' ? 'End all other sessions' : 'End session'}
        danger
      >
        {ending.thing?.kind === 'others'
          ? 'Every other device signed in to your account will be signed out.'
          : 'The device using this session will be signed out.'}
      </ConfirmModal>
    </Paper>
  );
}
