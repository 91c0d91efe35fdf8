/**
 * /notification-demo (spec §2: system.admin and role admin): the live connection as this tab has
 * it (state, transport, round trip, the reconnect policy of spec §9), a test notification to
 * oneself (with the time it took to arrive) or to a chosen person, and controls that cut the
 * connection to watch the policy work: a drop it recovers from, and an outage that exhausts the
 * attempts and ends in "offline — retry".
 */
import {
  LIVE_UPDATE_RECONNECT_ATTEMPTS,
  LIVE_UPDATE_TIMEOUT_MS,
  type Notification,
  type NotificationPriority,
} from '@learning-hub/core';
import {
  Badge,
  Button,
  Card,
  Group,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useRef, useState } from 'react';
import { PersonPicker } from '../../../components/person-picker';
import { displayName } from '../../../lib/format';
import { liveClient, useLiveEvent, useLiveState } from '../../../lib/live/use-live';
import type { LiveStatus } from '../../../lib/live/live-client';
import { useUserList } from '../../admin/api/users-api';
import { useSendTestNotification } from '../api/notifications-api';

const STATUS_COLOUR: Record<LiveStatus, string> = {
  idle: 'gray',
  connecting: 'blue',
  connected: 'green',
  reconnecting: 'yellow',
  offline: 'red',
};

/** How often the round trip is measured while the page is open. */
const ROUND_TRIP_EVERY_MS = 2_000;

interface LogEntry {
  at: number;
  text: string;
}

function useEventLog(): LogEntry[] {
  const [log, setLog] = useState<LogEntry[]>([]);
  const state = useLiveState();
  const previous = useRef(state);
  const add = (text: string) => setLog((list) => [{ at: Date.now(), text }, ...list].slice(0, 30));
  useEffect(() => {
    const was = previous.current;
    previous.current = state;
    if (was.lastDisconnectReason !== state.lastDisconnectReason && state.lastDisconnectReason) {
      add(`disconnected: ${state.lastDisconnectReason}`);
    }
    if (state.status === 'reconnecting' && state.attempt > 0 && was.attempt !== state.attempt) {
      add(`reconnecting (attempt ${state.attempt} of ${LIVE_UPDATE_RECONNECT_ATTEMPTS})`);
    } else if (was.status !== state.status && state.status !== 'reconnecting') {
      add(
        state.status === 'connected' && state.transport
          ? `connected over ${state.transport}`
          : state.status,
      );
    }
  });
  useLiveEvent<Notification>('notification', (n) => add(`notification: ${n.title}`));
  return log;
}

function ConnectionCard() {
  const state = useLiveState();
  useEffect(() => {
    if (state.status !== 'connected') return;
    void liveClient.measureRoundTrip();
    const timer = setInterval(() => void liveClient.measureRoundTrip(), ROUND_TRIP_EVERY_MS);
    return () => clearInterval(timer);
  }, [state.status]);

  const rows: [string, string][] = [
    ['Transport', state.transport ?? '—'],
    [
      'Round trip',
      state.status !== 'connected' || state.roundTripMs === null ? '—' : `${state.roundTripMs} ms`,
    ],
    ['Server instance', state.instance ?? '—'],
    ['Connection time-out', `${LIVE_UPDATE_TIMEOUT_MS} ms`],
    [
      'Reconnect attempts',
      state.status === 'reconnecting'
        ? `${state.attempt || 1} of ${LIVE_UPDATE_RECONNECT_ATTEMPTS}`
        : `up to ${LIVE_UPDATE_RECONNECT_ATTEMPTS}`,
    ],
  ];
  return (
    <Card withBorder padding="lg">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h3">
            Live connection
          </Title>
          <Badge color={STATUS_COLOUR[state.status]} variant="light" size="lg" role="status">
            {state.status}
          </Badge>
        </Group>
        <Table>
          <Table.Tbody>
            {rows.map(([label, value]) => (
              <Table.Tr key={label}>
                <Table.Th scope="row" w="50%">
                  {label}
                </Table.Th>
                <Table.Td>{value}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <Group gap="xs">
          <Button
            variant="light"
            disabled={state.status !== 'connected'}
            onClick={() => liveClient.drop()}
          >
            Drop connection
          </Button>
          <Button
            variant="light"
            color="orange"
            disabled={state.status !== 'connected'}
            onClick={() => liveClient.drop({ offline: true })}
          >
            Simulate outage
          </Button>
          <Button
            disabled={state.status === 'connected' || state.status === 'connecting'}
            onClick={() => liveClient.retry()}
          >
            Restore
          </Button>
        </Group>
        <Text size="xs" c="dimmed">
          Drop connection cuts it as a network would: it comes back at once. Simulate outage makes
          every reconnect attempt fail, so the {LIVE_UPDATE_RECONNECT_ATTEMPTS} attempts run out and
          the header offers “Offline — retry”.
        </Text>
      </Stack>
    </Card>
  );
}

interface Person {
  id: string;
  username: string;
  firstname: string;
  lastname: string;
}

function SendCard() {
  const [to, setTo] = useState<'me' | 'someone'>('me');
  const [priority, setPriority] = useState<NotificationPriority>('info');
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const [chosen, setChosen] = useState<Person | null>(null);
  const people = useUserList(
    { search: debounced, page: 1, pageSize: 8 },
    to === 'someone' && debounced.length > 0,
  );
  const send = useSendTestNotification();
  const [result, setResult] = useState<string | null>(null);
  // When each test notification reached this tab (it may arrive before the POST's answer does).
  const arrivals = useRef(new Map<string, number>());
  const waiting = useRef<{ id: string; started: number } | null>(null);
  const delivered = (started: number, at: number) =>
    setResult(`Delivered to this tab in ${Math.round(at - started)} ms.`);

  useLiveEvent<Notification>('notification', (n) => {
    if (n.kind !== 'test') return;
    const at = performance.now();
    arrivals.current.set(n.id, at);
    if (waiting.current?.id === n.id) {
      delivered(waiting.current.started, at);
      waiting.current = null;
    }
  });

  const submit = () => {
    const started = performance.now();
    setResult(null);
    waiting.current = null;
    send.mutate(
      { priority, ...(to === 'someone' && chosen ? { userId: chosen.id } : {}) },
      {
        onSuccess: (sent) => {
          if (to === 'me') {
            const at = arrivals.current.get(sent.id);
            if (at !== undefined) delivered(started, at);
            else {
              waiting.current = { id: sent.id, started };
              setResult('Sent; waiting for it to arrive…');
            }
          } else {
            setResult(
              `Sent to ${sent.recipient.name}: it reaches every tab they have open at once.`,
            );
          }
        },
      },
    );
  };

  return (
    <Card withBorder padding="lg">
      <Stack gap="sm">
        <Title order={2} size="h3">
          Send a test notification
        </Title>
        <SegmentedControl
          aria-label="To"
          value={to}
          onChange={(v) => setTo(v as 'me' | 'someone')}
          data={[
            { value: 'me', label: 'To myself' },
            { value: 'someone', label: 'To someone else' },
          ]}
        />
        {to === 'someone' && (
          <PersonPicker
            search={search}
            onSearch={setSearch}
            chosen={chosen}
            onChoose={setChosen}
            results={{
              searching: people.isFetching,
              error: people.error,
              people: people.data?.items,
            }}
            nameOf={displayName}
            nobody="Nobody found by that name."
          />
        )}
        <SegmentedControl
          aria-label="Priority"
          value={priority}
          onChange={(v) => setPriority(v as NotificationPriority)}
          data={[
            { value: 'info', label: 'Info' },
            { value: 'important', label: 'Important' },
            { value: 'urgent', label: 'Urgent' },
          ]}
        />
        <Group>
          <Button onClick={submit} loading={send.isPending} disabled={to === 'someone' && !chosen}>
            Send
          </Button>
        </Group>
        {send.isError && (
          <Text c="red" size="sm" role="alert">
            Not sent: {send.error.message}
          </Text>
        )}
        {result && (
          <Text size="sm" role="status">
            {result}
          </Text>
        )}
      </Stack>
    </Card>
  );
}

export function NotificationDemoPage() {
  const log = useEventLog();
  return (
    <Stack gap="lg">
      <Title order={1}>Notification Demo</Title>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <ConnectionCard />
        <SendCard />
      </SimpleGrid>
      <Card withBorder padding="lg">
        <Title order={2} size="h3" mb="sm">
          What happened
        </Title>
        {log.length === 0 ? (
          <Text size="sm" c="dimmed">
            Nothing yet on this page.
          </Text>
        ) : (
          <Stack gap={4} component="ol" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {log.map((entry, i) => (
              <Text key={`${entry.at}-${i}`} size="sm" component="li">
                <Text span c="dimmed" size="xs">
                  {new Date(entry.at).toLocaleTimeString()}
                </Text>{' '}
                {entry.text}
              </Text>
            ))}
          </Stack>
        )}
      </Card>
    </Stack>
  );
}
