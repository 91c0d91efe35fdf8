/**
 * Admin → System, "Allowed internal link hosts": the internal hosts library links may go to
 * (docs/library.md, "Links"). One host per line; checked with the contract before it is sent,
 * stored normalised by the server (the field shows what was stored).
 */
import { SystemSettingsUpdateSchema, type SystemSettings } from '@learning-hub/core';
import { Alert, Button, Group, Loader, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import { useState } from 'react';
import { formatDateTime } from '../../../lib/format';
import { useSaveSystemSettings, useSystemSettings } from '../api/system-api';
import { errorMessage, notifySuccess } from '../utils/notify';
import { errorMessages } from '../../../lib/form-errors';
import { ErrorAlert } from '../../../components/query-state';
import { FormStack } from '../../../components/form-modal';

/** The lines of the field as the list of hosts (blank lines left out). */
export function hostsOf(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

function LinkHostsForm({ settings }: { settings: SystemSettings }) {
  const save = useSaveSystemSettings();
  const [text, setText] = useState(settings.allowedInternalLinkHosts.join('\n'));
  const [error, setError] = useState<string | undefined>();

  function submit() {
    const parsed = SystemSettingsUpdateSchema.safeParse({
      allowedInternalLinkHosts: hostsOf(text),
    });
    if (!parsed.success) {
      setError(errorMessages(parsed.error).join(' '));
      return;
    }
    setError(undefined);
    save.mutate(
      { allowedInternalLinkHosts: hostsOf(text) },
      {
        onSuccess: (saved) => {
          setText(saved.allowedInternalLinkHosts.join('\n'));
          notifySuccess('Settings saved', 'The allowed internal link hosts were saved.');
        },
      },
    );
  }

  return (
    <FormStack onSubmit={submit} gap="sm">
      <Textarea
        label="Allowed internal link hosts"
        description="Library links may not go to this server, its network or other internal addresses (loopback, private, link-local, localhost). Hosts listed here are allowed anyway: one host name or IP address per line; *.corp.example allows every name under corp.example."
        autosize
        minRows={3}
        value={text}
        onChange={(event) => setText(event.currentTarget.value)}
        error={error}
      />
      {save.isError && <ErrorAlert error={save.error} />}
      <Group justify="space-between">
        <Text size="xs" c="dimmed">
          {settings.updatedAt
            ? `Last changed ${formatDateTime(settings.updatedAt)}${settings.updatedBy ? ` by ${settings.updatedBy}` : ''}`
            : 'Never changed'}
        </Text>
        <Button type="submit" loading={save.isPending}>
          Save
        </Button>
      </Group>
    </FormStack>
  );
}

export function LinkHostsSection() {
  const settings = useSystemSettings();
  return (
    <Paper withBorder p="md" maw={640}>
      <Stack gap="sm">
        <Title order={3}>Library links</Title>
        {settings.isPending ? (
          <Loader aria-label="Loading the settings" />
        ) : settings.isError ? (
          <Alert color="red">{errorMessage(settings.error)}</Alert>
        ) : (
          <LinkHostsForm settings={settings.data} />
        )}
      </Stack>
    </Paper>
  );
}
