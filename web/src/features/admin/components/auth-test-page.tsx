import {
  CONTEXT_ROLES,
  type ContextRoleId,
  type ProviderView,
  type SignInTestResult,
} from '@learning-hub/core';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Code,
  Group,
  Loader,
  Paper,
  PasswordInput,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconArrowLeft, IconExternalLink } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import {
  isPending,
  SSO_TEST_MAX_POLLS,
  useAuthSettings,
  useSignInTest,
  useSsoTestResult,
  useStartSsoTest,
} from '../api/auth-settings-api';
import { adminKeys } from '../api/keys';
import { useRoles } from '../api/roles-api';

import { PROVIDER_METHOD_LABELS } from '../utils/provider-form';
import { OutcomeBadge, TestSteps } from './test-steps';
import { QueryState, ErrorAlert } from '../../../components/query-state';

/** How the browser leaves for the identity provider (replaced in component tests). */
export const browserNavigation = {
  assign(url: string) {
    window.location.assign(url);
  },
};

interface CredentialValues {
  username: string;
  password: string;
}

/**
 * /auth-test: an admin runs a sign-in against one provider without creating a session and sees
 * every step (connect, bind, search, groups, claims, the account that would be used, the roles
 * that would be mapped) with its timing and any error. Single sign-on goes through the identity
 * provider and comes back here with `?sso_test=<id>`.
 */
export function AuthTestPage() {
  const settings = useAuthSettings();
  const [searchParams, setSearchParams] = useSearchParams();
  const ssoTestId = searchParams.get('sso_test');
  const requested = searchParams.get('provider');
  const providers = settings.data?.providers ?? [];
  const selected = providers.find((p) => p.id === requested) ?? providers[0] ?? null;

  const choose = (id: string | null) => {
    setSearchParams(id ? { provider: id } : {}, { replace: true });
  };

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
        <Title order={1}>Authentication Test</Title>
        <Anchor component={Link} to="/admin/authentication" size="sm">
          <Group gap={4} component="span" wrap="nowrap">
            <IconArrowLeft size={16} aria-hidden="true" />
            Authentication settings
          </Group>
        </Anchor>
      </Group>
      <Text size="sm" c="dimmed">
        Runs a sign-in against one provider exactly as the sign-in page would, without creating a
        session or changing any account, and shows every step with its timing.
      </Text>
      <QueryState query={settings} label="Loading providers" />
      {settings.data && providers.length === 0 && (
        <Alert color="blue" title="No providers yet">
          Add a directory, Moodle site or identity provider under{' '}
          <Anchor component={Link} to="/admin/authentication" underline="always">
            Authentication settings
          </Anchor>{' '}
          first.
        </Alert>
      )}
      {ssoTestId ? (
        <SsoTestResult testId={ssoTestId} onDone={choose} />
      ) : (
        selected && (
          <Paper withBorder p="lg">
            <Stack gap="md">
              <Select
                label="Provider"
                data={providers.map((p) => ({
                  value: p.id,
                  label: `${p.label} · ${PROVIDER_METHOD_LABELS[p.method]}${p.enabled ? '' : ' (disabled)'}`,
                }))}
                value={selected.id}
                allowDeselect={false}
                onChange={choose}
              />
              {!selected.enabled && (
                <Text size="sm" c="dimmed">
                  This provider is disabled: people cannot sign in with it, but it can be tested.
                </Text>
              )}
              {selected.method === 'sso' ? (
                <SsoTestStart key={selected.id} provider={selected} />
              ) : (
                <CredentialTest key={selected.id} provider={selected} />
              )}
            </Stack>
          </Paper>
        )
      )}
    </Stack>
  );
}

/** A directory or Moodle sign-in with a username and password, run on the server as a dry run. */
function CredentialTest({ provider }: { provider: ProviderView }) {
  const test = useSignInTest();
  const form = useForm<CredentialValues>({
    mode: 'uncontrolled',
    initialValues: { username: '', password: '' },
    validate: {
      username: (value) => (value === '' ? 'Username is required' : null),
    },
  });

  return (
    <Stack gap="md">
      <form
        noValidate
        onSubmit={form.onSubmit((values) => test.mutate({ provider: provider.id, ...values }))}
      >
        <Stack gap="sm">
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label="Username"
              autoComplete="off"
              withAsterisk
              key={form.key('username')}
              {...form.getInputProps('username')}
            />
            <PasswordInput
              label="Password"
              autoComplete="off"
              key={form.key('password')}
              {...form.getInputProps('password')}
            />
          </SimpleGrid>
          <Group>
            <Button type="submit" loading={test.isPending}>
              Run test sign-in
            </Button>
          </Group>
        </Stack>
      </form>
      {test.isError && <ErrorAlert error={test.error} title="The test could not run" />}
      {test.data && <TestResult result={test.data} />}
    </Stack>
  );
}

/** Single sign-on: the admin signs in at the identity provider, which sends them back here. */
function SsoTestStart({ provider }: { provider: ProviderView }) {
  const start = useStartSsoTest();
  const run = async () => {
    const answer = await start.mutateAsync(provider.id).catch(() => null);
    if (answer) browserNavigation.assign(answer.authorizationUrl);
  };
  return (
    <Stack gap="sm">
      <Text size="sm">
        You will sign in at {provider.label} and come back to this page with the result. Your own
        session here is not changed.
      </Text>
      <Group>
        <Button
          loading={start.isPending}
          onClick={() => void run()}
          rightSection={<IconExternalLink size={16} aria-hidden="true" />}
        >
          {`Sign in at ${provider.label}`}
        </Button>
      </Group>
      {start.isError && <ErrorAlert error={start.error} title="The test could not start" />}
    </Stack>
  );
}

function SsoTestResult({
  testId,
  onDone,
}: {
  testId: string;
  /** Back to the form, on the provider just tested. */
  onDone(provider: string | null): void;
}) {
  const result = useSsoTestResult(testId);
  const queryClient = useQueryClient();
  const pending = isPending(result.data);
  // Reading dataUpdatedAt re-renders on every poll, even when the answer is the same.
  const polls =
    result.dataUpdatedAt > 0
      ? (queryClient.getQueryState(adminKeys.ssoTest(testId))?.dataUpdateCount ?? 0)
      : 0;
  const gaveUp = pending && polls >= SSO_TEST_MAX_POLLS;

  return (
    <Paper withBorder p="lg">
      <Stack gap="md">
        <Title order={2} size="h3">
          Single sign-on test
        </Title>
        {(result.isPending || (pending && !gaveUp)) && (
          <Group gap="sm" role="status" aria-live="polite">
            <Loader size="sm" aria-hidden="true" />
            <Text size="sm">Waiting for the identity provider's answer…</Text>
          </Group>
        )}
        {pending && gaveUp && (
          <Alert color="yellow" title="No answer yet">
            {`The identity provider has not answered after ${SSO_TEST_MAX_POLLS} tries.`}
          </Alert>
        )}
        {result.isError && <ErrorAlert error={result.error} title="No result" />}
        {result.data && !isPending(result.data) && <TestResult result={result.data} />}
        <Group>
          <Button
            variant="default"
            onClick={() =>
              onDone(result.data && !isPending(result.data) ? result.data.provider : null)
            }
          >
            Run another test
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

const USER_FIELDS: readonly { key: string; label: string }[] = [
  { key: 'username', label: 'Username' },
  { key: 'firstname', label: 'First name' },
  { key: 'lastname', label: 'Last name' },
  { key: 'email', label: 'Email' },
  { key: 'department', label: 'Department' },
  { key: 'authMethod', label: 'Sign-in method' },
  { key: 'moodleId', label: 'Moodle id' },
  { key: 'ssoProvider', label: 'SSO provider' },
];

function show(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** The whole outcome of a dry-run sign-in: steps, the account, its role and context roles. */
export function TestResult({ result }: { result: SignInTestResult }) {
  const roles = useRoles();
  const roleName = (id: string) => roles.data?.find((r) => r.id === id)?.displayName ?? id;
  const user = result.user as Record<string, unknown> | null;
  const attributes = user?.ldapAttributes;

  return (
    <Stack gap="md" aria-live="polite">
      <Group gap="sm">
        <OutcomeBadge ok={result.ok} />
        <Text size="sm">
          {result.ok
            ? 'The sign-in would succeed with the account and access below.'
            : 'The sign-in would fail: see the step that failed.'}
        </Text>
      </Group>
      <TestSteps steps={result.steps} label="Sign-in steps" />
      {user && (
        <section aria-labelledby="auth-test-user">
          <Title order={3} size="h4" id="auth-test-user" mb="xs">
            Account that would be used
          </Title>
          <Table withTableBorder variant="vertical" layout="fixed">
            <Table.Tbody>
              {USER_FIELDS.filter((f) => user[f.key] !== undefined).map((field) => (
                <Table.Tr key={field.key}>
                  <Table.Th w={180} scope="row">
                    {field.label}
                  </Table.Th>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{show(user[field.key])}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </section>
      )}
      {result.ok && (
        <section aria-labelledby="auth-test-access">
          <Title order={3} size="h4" id="auth-test-access" mb="xs">
            Access that would be mapped
          </Title>
          <Stack gap="xs">
            <Group gap="xs">
              <Text size="sm" fw={600}>
                Role:
              </Text>
              <Badge variant="light" tt="none">
                {result.role ? roleName(result.role) : '—'}
              </Badge>
            </Group>
            {result.assignments.length === 0 ? (
              <Text size="sm">No context roles.</Text>
            ) : (
              <Stack component="ul" gap={4} style={{ margin: 0, paddingLeft: '1.25rem' }}>
                {result.assignments.map((a) => (
                  <li key={a.context}>
                    <Text size="sm">
                      {`${a.label ?? a.context}: ${a.roles
                        .map((r) => CONTEXT_ROLES[r as ContextRoleId]?.displayName ?? r)
                        .join(', ')}`}
                    </Text>
                  </li>
                ))}
              </Stack>
            )}
          </Stack>
        </section>
      )}
      {result.groups.length > 0 && (
        <section aria-labelledby="auth-test-groups">
          <Title order={3} size="h4" id="auth-test-groups" mb="xs">
            Groups found
          </Title>
          <Group gap={6}>
            {result.groups.map((g) => (
              <Badge key={g} variant="outline" tt="none">
                {g}
              </Badge>
            ))}
          </Group>
        </section>
      )}
      {attributes !== undefined && attributes !== null && Object.keys(attributes).length > 0 && (
        <section aria-labelledby="auth-test-attributes">
          <Title order={3} size="h4" id="auth-test-attributes" mb="xs">
            Directory attributes
          </Title>
          <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {JSON.stringify(attributes, null, 2)}
          </Code>
        </section>
      )}
      {result.claims && (
        <section aria-labelledby="auth-test-claims">
          <Title order={3} size="h4" id="auth-test-claims" mb="xs">
            Claims received
          </Title>
          <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {JSON.stringify(result.claims, null, 2)}
          </Code>
        </section>
      )}
    </Stack>
  );
}
