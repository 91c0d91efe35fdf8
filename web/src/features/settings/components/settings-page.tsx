/**
 * /settings (spec §2: user.view_profile): one's own settings, kept on the server so they follow
 * the person to every device (docs/settings.md). Each change is saved as it is made and applies
 * at once, everywhere (the settings applier follows the query this page edits); "Saving…" and
 * "Saved" are said in a live region, and a change the server refuses goes back, with its reason
 * and a way to try again.
 */
import {
  DATE_FORMATS,
  NOTIFICATION_KINDS,
  NOTIFICATION_KIND_INFO,
  type ColorSchemeSetting,
  type DateFormatSetting,
  type NotificationChannel,
  type NotificationKind,
  type ReducedMotionSetting,
  type StartPageChoice,
  type UserSettings,
} from '@learning-hub/core';
import {
  Alert,
  Button,
  Input,
  Paper,
  Radio,
  SegmentedControl,
  Select,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconAlertCircle, IconMailOff } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useMemo, useRef, useState, type ReactNode } from 'react';
import { DataList, type DataListColumn } from '../../../components/data-list';
import { QueryState } from '../../../components/query-state';
import { formatDateTime } from '../../../lib/format';
import { saveSettingsChange, settingsQueryOptions } from '../api/settings-api';
import { useSettingsView } from '../api/settings-view-api';

const COLOR_SCHEME_OPTIONS: { value: ColorSchemeSetting; label: string }[] = [
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
  { value: 'system', label: 'As the device' },
];

const MOTION_OPTIONS: { value: ReducedMotionSetting; label: string; description: string }[] = [
  {
    value: 'system',
    label: 'As the device',
    description: 'Less motion when your device asks for it in its accessibility settings.',
  },
  {
    value: 'reduce',
    label: 'Reduce motion',
    description: 'No sliding, fading or other animation, on any device.',
  },
  {
    value: 'allow',
    label: 'Allow motion',
    description: 'Animations even when your device asks for less.',
  },
];

export const DATE_FORMAT_LABELS: Readonly<Record<DateFormatSetting, string>> = {
  locale: 'As your browser’s language writes them',
  'day-month-year': 'Day, month, year',
  'month-day-year': 'Month, day, year',
  iso: 'Year, month, day (ISO 8601)',
};

const CHANNEL_LABELS: Readonly<Record<NotificationChannel, string>> = {
  'in-app': 'In the app',
  email: 'Email',
  none: 'None',
};

/** The value of the time-zone choice that means "the device's own". */
const DEVICE_ZONE = 'device';

export const SAVED = 'Saved';
export const SAVING = 'Saving…';
export const EMAIL_NOT_SET_UP =
  'Email is not set up on this server. What you choose to get by email is kept, and shows in the app until an administrator sets email up.';

/** The zone this device is in, by its IANA name. */
function deviceTimeZone(): string {
  return new Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** Every zone this browser knows, and the chosen one even when it does not know it. */
function timeZoneOptions(chosen: string | null): { value: string; label: string }[] {
  const zones: string[] =
    typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  const all = chosen && !zones.includes(chosen) ? [chosen, ...zones] : zones;
  return [
    { value: DEVICE_ZONE, label: `This device’s time zone (${deviceTimeZone()})` },
    ...all.map((zone) => ({ value: zone, label: zone.replaceAll('_', ' ') })),
  ];
}

type SaveState =
  | { state: 'idle' }
  | { state: 'saving' }
  | { state: 'saved' }
  | { state: 'failed'; message: string; settings: UserSettings };

/** Saves each change as it is made; says where the saving is. */
function useAutosave() {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<SaveState>({ state: 'idle' });
  const latest = useRef(0);
  const save = (settings: UserSettings) => {
    const id = ++latest.current;
    setStatus({ state: 'saving' });
    saveSettingsChange(queryClient, settings).then(
      () => {
        if (id === latest.current) setStatus({ state: 'saved' });
      },
      (error: unknown) => {
        if (id !== latest.current) return;
        const message = error instanceof Error ? error.message : 'Something went wrong';
        setStatus({ state: 'failed', message, settings });
      },
    );
  };
  return { status, save };
}

function Section({
  title,
  description,
  children,
}: {
  title: string;
  description?: string;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby={id}>
      <Stack gap="md">
        <div>
          <Title order={2} size="h3" id={id}>
            {title}
          </Title>
          {description && (
            <Text size="sm" c="dimmed">
              {description}
            </Text>
          )}
        </div>
        {children}
      </Stack>
    </Paper>
  );
}

function ColorSchemeField({
  value,
  onChange,
}: {
  value: ColorSchemeSetting;
  onChange(value: ColorSchemeSetting): void;
}) {
  const id = useId();
  return (
    <Stack gap={4}>
      <Input.Label id={id} component="span">
        Colour scheme
      </Input.Label>
      <SegmentedControl
        aria-labelledby={id}
        data={COLOR_SCHEME_OPTIONS}
        value={value}
        onChange={(next) => onChange(next as ColorSchemeSetting)}
        style={{ alignSelf: 'flex-start' }}
      />
    </Stack>
  );
}

function ChannelChoice({
  kind,
  value,
  onChange,
}: {
  kind: NotificationKind;
  value: NotificationChannel;
  onChange(value: NotificationChannel): void;
}) {
  const info = NOTIFICATION_KIND_INFO[kind];
  return (
    <Stack gap={2} align="flex-start">
      <SegmentedControl
        size="xs"
        aria-label={`${info.label}: how it reaches you`}
        data={(['in-app', 'email', 'none'] as const).map((channel) => ({
          value: channel,
          label: CHANNEL_LABELS[channel],
          disabled: channel === 'none' && info.required,
        }))}
        value={value}
        onChange={(next) => onChange(next as NotificationChannel)}
      />
      {info.required && (
        <Text size="xs" c="dimmed">
          A security notice: it cannot be turned off.
        </Text>
      )}
    </Stack>
  );
}

/** A table of the kinds on a wide screen, a card per kind on a phone (DataList). */
function NotificationChoices({
  settings,
  emailAvailable,
  onChange,
}: {
  settings: UserSettings;
  emailAvailable: boolean;
  onChange(kind: NotificationKind, channel: NotificationChannel): void;
}) {
  const columns: DataListColumn<NotificationKind>[] = [
    {
      header: 'Notification',
      card: 'title',
      cell: (kind) => (
        <div>
          <Text fw={500} size="sm">
            {NOTIFICATION_KIND_INFO[kind].label}
          </Text>
          <Text size="xs" c="dimmed">
            {NOTIFICATION_KIND_INFO[kind].description}
          </Text>
        </div>
      ),
    },
    {
      header: 'Delivery',
      cell: (kind) => (
        <ChannelChoice
          kind={kind}
          value={settings.notifications[kind]}
          onChange={(channel) => onChange(kind, channel)}
        />
      ),
    },
  ];
  return (
    <Stack gap="sm">
      {!emailAvailable && (
        <Alert color="yellow" icon={<IconMailOff aria-hidden="true" />}>
          {EMAIL_NOT_SET_UP}
        </Alert>
      )}
      <DataList
        label="Notifications"
        rows={NOTIFICATION_KINDS}
        rowKey={(kind) => kind}
        columns={columns}
      />
    </Stack>
  );
}

function StatusLine({ status, onRetry }: { status: SaveState; onRetry(): void }) {
  return (
    <>
      <Text size="sm" c="dimmed" role="status" aria-live="polite" mih="1.5em">
        {status.state === 'saving' ? SAVING : status.state === 'saved' ? SAVED : ''}
      </Text>
      {status.state === 'failed' && (
        <Alert
          color="red"
          title="Your change was not saved"
          icon={<IconAlertCircle aria-hidden="true" />}
          role="alert"
        >
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{status.message}</Text>
            <Button size="xs" variant="light" color="red" onClick={onRetry}>
              Try again
            </Button>
          </Stack>
        </Alert>
      )}
    </>
  );
}

export function SettingsPage() {
  const view = useSettingsView();
  const settingsQuery = useQuery(settingsQueryOptions());
  const { status, save } = useAutosave();
  const zones = useMemo(
    () => timeZoneOptions(settingsQuery.data?.timeZone ?? null),
    [settingsQuery.data?.timeZone],
  );

  if (view.isPending || view.isError) {
    return <QueryState query={view} label="Loading your settings" size="page" heading="Settings" />;
  }
  const settings = settingsQuery.data ?? view.data.settings;
  const change = (patch: Partial<UserSettings>) => save({ ...settings, ...patch });
  const example = new Date().toISOString();
  const startPages: StartPageChoice[] = view.data.startPages;

  return (
    <Stack gap="xl" maw={960}>
      <Stack gap={4}>
        <Title order={1}>Settings</Title>
        <Text c="dimmed">
          Each change is saved as you make it and applies at once, on every device you sign in on.
        </Text>
        <StatusLine
          status={status}
          onRetry={() => status.state === 'failed' && save(status.settings)}
        />
      </Stack>

      <Section title="Appearance">
        <ColorSchemeField
          value={settings.colorScheme}
          onChange={(v) => change({ colorScheme: v })}
        />
        <Radio.Group
          label="Motion"
          value={settings.reducedMotion}
          onChange={(v) => change({ reducedMotion: v as ReducedMotionSetting })}
        >
          <Stack gap="sm" mt="xs">
            {MOTION_OPTIONS.map((option) => (
              <Radio
                key={option.value}
                value={option.value}
                label={option.label}
                description={option.description}
              />
            ))}
          </Stack>
        </Radio.Group>
      </Section>

      <Section title="Dates and times">
        <Select
          label="Time zone"
          description="Dates and times are shown in this zone."
          searchable
          allowDeselect={false}
          nothingFoundMessage="No time zone of that name"
          data={zones}
          value={settings.timeZone ?? DEVICE_ZONE}
          onChange={(v) => v && change({ timeZone: v === DEVICE_ZONE ? null : v })}
          maw={420}
          limit={100}
        />
        <Radio.Group
          label="Date format"
          value={settings.dateFormat}
          onChange={(v) => change({ dateFormat: v as DateFormatSetting })}
        >
          <Stack gap="sm" mt="xs">
            {DATE_FORMATS.map((format) => (
              <Radio
                key={format}
                value={format}
                label={DATE_FORMAT_LABELS[format]}
                description={`Now: ${formatDateTime(example, {
                  dateFormat: format,
                  timeZone: settings.timeZone,
                })}`}
              />
            ))}
          </Stack>
        </Radio.Group>
      </Section>

      <Section
        title="Start page"
        description="Where the app opens after you sign in, unless you were on your way to another page."
      >
        <Select
          label="Start page"
          data={startPages.map((p) => ({ value: p.path, label: p.label }))}
          value={settings.startPage}
          allowDeselect={false}
          onChange={(v) => v && change({ startPage: v })}
          maw={420}
        />
      </Section>

      <Section
        title="Notifications"
        description="How each kind of notification reaches you. By email, it also shows in the app."
      >
        <NotificationChoices
          settings={settings}
          emailAvailable={view.data.emailAvailable}
          onChange={(kind, channel) =>
            change({ notifications: { ...settings.notifications, [kind]: channel } })
          }
        />
      </Section>
    </Stack>
  );
}
