import type { AuthSettings, ProviderMethod, ProviderView } from '@learning-hub/core';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Menu,
  Paper,
  Stack,
  Switch,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { IconChevronDown, IconCode, IconFlask, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { formatDateTime } from '../../../lib/format';
import {
  useAuthSettings,
  useDeleteProvider,
  useToggleMethod,
  type SwitchableMethod,
} from '../api/auth-settings-api';
import { notifyError, notifySuccess } from '../utils/notify';
import { PROVIDER_METHOD_LABELS } from '../utils/provider-form';
import { ConfirmModal, useConfirmation } from '../../../components/confirm-modal';
import { ConnectionTestModal } from './connection-test-modal';
import { ProviderFormModal } from './provider-form-modal';
import { QueryState } from '../../../components/query-state';

const METHOD_ROWS: readonly { method: SwitchableMethod; label: string; description: string }[] = [
  {
    method: 'local',
    label: 'Local accounts',
    description: 'Usernames and passwords kept by Learning Hub.',
  },
  {
    method: 'ldap',
    label: 'Company directory (LDAP)',
    description: 'People sign in with their directory account.',
  },
  { method: 'moodle', label: 'Moodle', description: 'People sign in with their Moodle account.' },
  {
    method: 'sso',
    label: 'Single sign-on',
    description: 'People sign in at an OpenID Connect identity provider.',
  },
];

const ADD_OPTIONS: readonly ProviderMethod[] = ['ldap', 'moodle', 'sso'];

/** What a method's switch says about its providers. */
function providerNote(settings: AuthSettings, method: SwitchableMethod): string | null {
  if (method === 'local') return null;
  const providers = settings.providers.filter((p) => p.method === method);
  const enabled = providers.filter((p) => p.enabled).length;
  if (providers.length === 0) return 'No provider yet: not offered on the sign-in page.';
  if (enabled === 0) return 'No enabled provider: not offered on the sign-in page.';
  return `${enabled} of ${providers.length} provider${providers.length === 1 ? '' : 's'} enabled.`;
}

function MethodsSection({ settings }: { settings: AuthSettings }) {
  const toggle = useToggleMethod();
  const pendingMethod = toggle.isPending ? toggle.variables.method : null;

  const change = async (method: SwitchableMethod, enabled: boolean) => {
    try {
      await toggle.mutateAsync({ method, enabled });
      const label = METHOD_ROWS.find((r) => r.method === method)?.label ?? method;
      notifySuccess('Sign-in methods saved', `${label} ${enabled ? 'is on' : 'is off'}.`);
    } catch (error) {
      notifyError('Not changed', error);
    }
  };

  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="auth-methods-heading">
      <Stack gap="md">
        <Title order={2} size="h3" id="auth-methods-heading">
          Sign-in methods
        </Title>
        {settings.devMode && (
          <Alert
            color="yellow"
            icon={<IconCode aria-hidden="true" />}
            title="Development mode is on"
          >
            This server was started in development mode (DEV_MODE): nobody signs in and every
            visitor is the built-in developer admin. Dev mode is a start-up setting, never allowed
            in production, and cannot be changed here. The methods below take effect once the server
            runs without it.
          </Alert>
        )}
        <Stack gap="sm">
          <Switch
            checked={settings.devMode}
            readOnly
            disabled
            label="Development mode"
            description="Read only: set when the server starts."
          />
          {METHOD_ROWS.map((row) => {
            const note = providerNote(settings, row.method);
            return (
              <Switch
                key={row.method}
                checked={settings.methods[row.method]}
                disabled={pendingMethod !== null}
                onChange={(event) => void change(row.method, event.currentTarget.checked)}
                label={row.label}
                description={note ? `${row.description} ${note}` : row.description}
              />
            );
          })}
        </Stack>
      </Stack>
    </Paper>
  );
}

type Editing = { method: ProviderMethod; provider: ProviderView | null } | null;

function ProvidersSection({ settings }: { settings: AuthSettings }) {
  const remove = useDeleteProvider();
  const [editing, setEditing] = useState<Editing>(null);
  const [testing, setTesting] = useState<ProviderView | null>(null);
  const deleting = useConfirmation(async (provider: ProviderView) => {
    await remove.mutateAsync(provider.id);
    notifySuccess('Provider deleted', `${provider.label} was deleted.`);
  });
  const providers = settings.providers;

  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="auth-providers-heading">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h3" id="auth-providers-heading">
            Providers
          </Title>
          <Group gap="sm">
            <Button
              component={Link}
              to="/auth-test"
              variant="default"
              leftSection={<IconFlask size={16} aria-hidden="true" />}
            >
              Test a sign-in
            </Button>
            <Menu position="bottom-end" withInitialFocusPlaceholder={false}>
              <Menu.Target>
                <Button
                  leftSection={<IconPlus size={16} aria-hidden="true" />}
                  rightSection={<IconChevronDown size={14} aria-hidden="true" />}
                >
                  Add provider
                </Button>
              </Menu.Target>
              <Menu.Dropdown>
                {ADD_OPTIONS.map((method) => (
                  <Menu.Item key={method} onClick={() => setEditing({ method, provider: null })}>
                    {PROVIDER_METHOD_LABELS[method]}
                  </Menu.Item>
                ))}
              </Menu.Dropdown>
            </Menu>
          </Group>
        </Group>
        <Text size="sm" c="dimmed">
          The directories, Moodle sites and identity providers people sign in with. Secrets are
          write-only: this page only says whether one is set.
        </Text>
        {providers.length === 0 ? (
          <Text size="sm">No providers yet.</Text>
        ) : (
          <Table.ScrollContainer minWidth={760}>
            <Table verticalSpacing="sm" aria-labelledby="auth-providers-heading">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">Provider</Table.Th>
                  <Table.Th scope="col">Method</Table.Th>
                  <Table.Th scope="col">Status</Table.Th>
                  <Table.Th scope="col">Updated</Table.Th>
                  <Table.Th scope="col">
                    <VisuallyHidden>Actions</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {providers.map((provider) => (
                  <Table.Tr key={provider.id}>
                    <Table.Td>
                      <Text size="sm" fw={600}>
                        {provider.label}
                      </Text>
                      <Text size="xs" c="dimmed" ff="monospace">
                        {provider.id}
                      </Text>
                    </Table.Td>
                    <Table.Td>{PROVIDER_METHOD_LABELS[provider.method]}</Table.Td>
                    <Table.Td>
                      <Group gap={4}>
                        <Badge color={provider.enabled ? 'green' : 'gray'} variant="dot" tt="none">
                          {provider.enabled ? 'Enabled' : 'Disabled'}
                        </Badge>
                        {!settings.methods[provider.method] && (
                          <Badge color="yellow" variant="dot" tt="none">
                            Method off
                          </Badge>
                        )}
                      </Group>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{formatDateTime(provider.updatedAt)}</Text>
                    </Table.Td>
                    <Table.Td>
                      <Group gap="xs" wrap="nowrap" justify="flex-end">
                        <Button
                          size="xs"
                          variant="default"
                          aria-label={`Test ${provider.label}`}
                          onClick={() => setTesting(provider)}
                        >
                          Test
                        </Button>
                        <Button
                          size="xs"
                          variant="default"
                          aria-label={`Edit ${provider.label}`}
                          onClick={() => setEditing({ method: provider.method, provider })}
                        >
                          Edit
                        </Button>
                        <Button
                          size="xs"
                          variant="default"
                          aria-label={`Delete ${provider.label}`}
                          onClick={() => deleting.ask(provider)}
                        >
                          Delete
                        </Button>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
      <ProviderFormModal
        opened={editing !== null}
        method={editing?.method ?? 'ldap'}
        provider={editing?.provider ?? null}
        ssoRedirectUri={settings.ssoRedirectUri}
        onClose={() => setEditing(null)}
      />
      <ConnectionTestModal provider={testing} onClose={() => setTesting(null)} />
      <ConfirmModal
        {...deleting.props}
        title={`Delete ${deleting.thing?.label ?? 'provider'}?`}
        confirmLabel="Delete provider"
        danger
      >
        {`The provider ${deleting.thing?.id ?? ''} and its stored secrets will be deleted. People who signed in with it keep their accounts but cannot sign in with it any more.`}
      </ConfirmModal>
    </Paper>
  );
}

/** /admin/authentication: sign-in methods on and off, and the sign-in providers. */
export function AuthenticationPage() {
  const settings = useAuthSettings();
  if (settings.isPending || settings.isError) {
    return <QueryState query={settings} label="Loading sign-in settings" />;
  }
  return (
    <Stack gap="lg">
      <MethodsSection settings={settings.data} />
      <ProvidersSection settings={settings.data} />
      <Text size="sm" c="dimmed">
        Changes are recorded in{' '}
        <Anchor component={Link} to="/admin/audit" underline="always">
          Access changes
        </Anchor>
        .
      </Text>
    </Stack>
  );
}
