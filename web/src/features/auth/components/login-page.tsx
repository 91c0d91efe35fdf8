import {
  CredentialsSchema,
  ssoErrorMessage,
  type AuthConfig,
  type AuthMethod,
  type ProviderMethod,
} from '@learning-hub/core';
import {
  Alert,
  Button,
  Center,
  Group,
  Loader,
  Paper,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertCircle, IconCode, IconKey } from '@tabler/icons-react';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router';
import { LazySelect } from '../../../components/lazy-select';
import { PageLoader } from '../../../components/page-loader';
import { useAuth } from '../../../lib/auth/auth-context';
import { useAuthConfig } from '../../../lib/auth/auth-config';
import { AUTH_METHOD_LABELS, setAuthMethod } from '../../../lib/auth/auth-method';
import { PROVIDER_MESSAGES, reportSsoError, ssoStartUrl } from '../../../lib/auth/auth-service';
import { peekLoginHandoff, setLoginHandoff } from '../../../lib/login-handoff';
import { safeNextPath } from '../../../lib/safe-next';
import { StartPageRedirect } from '../../settings/components/start-page-redirect';
import { notifyFailedAttempts } from '../failed-attempts';
import { validateWith } from '../../../lib/form-errors';

interface LoginValues {
  username: string;
  password: string;
}

/** The query parameters the server's single sign-on callback sends the browser back with. */
export const SSO_RETURN_PARAMS = ['sso_code', 'sso_provider', 'sso_error'] as const;

/** Shown in dev mode instead of a form (spec §5's text as the title). */
export const DEV_MODE_TITLE = 'Authentication is disabled in development mode';

const PROVIDER_SELECT_LABELS: Readonly<Record<Exclude<ProviderMethod, 'sso'>, string>> = {
  ldap: 'Directory',
  moodle: 'Moodle site',
};

interface SsoReturn {
  code: string | null;
  provider: string | null;
  error: string | null;
}

/**
 * /login: the method (when the server enables more than one), then a username and password
 * (local, directory, Moodle; a provider choice when a method has several) or one button per
 * single sign-on provider. Completes single sign-on when the server's callback sends the browser
 * back with a one-time code (or an error). In dev mode there is nothing to sign in to.
 */
export function LoginPage() {
  const auth = useAuth();
  const { config, method: storedMethod, isLoading } = useAuthConfig();
  const [searchParams, setSearchParams] = useSearchParams();
  const next = safeNextPath(searchParams.get('next'));
  // Read once: the one-time code leaves the address bar at once.
  // The server sends an error code, never text: only the code's fixed text is ever shown.
  const [ssoReturn] = useState<SsoReturn>(() => {
    const errorCode = searchParams.get('sso_error');
    return {
      code: searchParams.get('sso_code'),
      provider: searchParams.get('sso_provider'),
      error: errorCode === null ? null : ssoErrorMessage(errorCode),
    };
  });
  const [chosenMethod, setChosenMethod] = useState<AuthMethod | null>(() =>
    ssoReturn.code || ssoReturn.error ? 'sso' : null,
  );
  const [error, setError] = useState<string | null>(() =>
    ssoReturn.error !== null ? PROVIDER_MESSAGES.sso.error(ssoReturn.error) : null,
  );
  const [exchanging, setExchanging] = useState(ssoReturn.code !== null);
  const handled = useRef(false);
  const { login } = auth;

  useEffect(() => {
    if (handled.current) return;
    handled.current = true;
    if (!ssoReturn.code && !ssoReturn.error) return;
    setSearchParams(
      (previous) => {
        const params = new URLSearchParams(previous);
        for (const name of SSO_RETURN_PARAMS) params.delete(name);
        return params;
      },
      { replace: true },
    );
    if (ssoReturn.error !== null) {
      reportSsoError(ssoReturn.error);
      return;
    }
    setAuthMethod('sso');
    void login('sso', ssoReturn.code ?? '', ssoReturn.provider ?? undefined).then((result) => {
      setExchanging(false);
      if (result.success) notifyFailedAttempts(result.failedAttempts);
      else setError(result.error);
    });
  }, [ssoReturn, setSearchParams, login]);

  if (isLoading) return <PageLoader label="Loading sign-in options" />;
  if (config.devMode) return <DevModeNotice next={next} />;
  // Back to the page that sent here; with none (or Home), to the person's start page.
  if (auth.isAuthenticated) {
    return next === '/' ? <StartPageRedirect /> : <Navigate to={next} replace />;
  }

  const enabled = config.methods;
  const method = chosenMethod && enabled.includes(chosenMethod) ? chosenMethod : storedMethod;
  const methodOptions = enabled.map((m) => ({ value: m, label: AUTH_METHOD_LABELS[m] }));

  return (
    <Center py="xl">
      <Paper withBorder shadow="sm" p="xl" w="100%" maw={420}>
        <Stack gap="md">
          <Title order={1} size="h2">
            Sign in
          </Title>
          {error && (
            <Alert color="red" icon={<IconAlertCircle aria-hidden="true" />}>
              {error}
            </Alert>
          )}
          {enabled.length > 1 && (
            <LazySelect
              label="Authentication method"
              data={methodOptions}
              value={method}
              allowDeselect={false}
              disabled={exchanging}
              onChange={(value) => {
                if (!value) return;
                const chosen = value as AuthMethod;
                setChosenMethod(chosen);
                setAuthMethod(chosen);
                setError(null);
              }}
            />
          )}
          {enabled.length === 0 ? (
            <Text>No sign-in method is enabled. Please contact an administrator.</Text>
          ) : method === 'sso' ? (
            <SsoButtons
              config={config}
              next={next}
              exchanging={exchanging}
              exchangingProvider={ssoReturn.provider}
            />
          ) : (
            <PasswordSignIn key={method} method={method} config={config} onResult={setError} />
          )}
        </Stack>
      </Paper>
    </Center>
  );
}

/** Username and password for local, directory and Moodle sign-ins. */
function PasswordSignIn({
  method,
  config,
  onResult,
}: {
  method: AuthMethod;
  config: AuthConfig;
  onResult(error: string | null): void;
}) {
  const auth = useAuth();
  const [submitting, setSubmitting] = useState(false);
  const providers = method === 'ldap' || method === 'moodle' ? config.providers[method] : [];
  const [provider, setProvider] = useState<string | null>(providers[0]?.id ?? null);

  // What was typed into /login's static page before the app was there (src/login.ts).
  const [handoff] = useState(peekLoginHandoff);
  const formRef = useRef<HTMLFormElement>(null);
  const form = useForm<LoginValues>({
    mode: 'uncontrolled',
    initialValues: { username: handoff?.username ?? '', password: handoff?.password ?? '' },
    validate: validateWith(CredentialsSchema),
  });
  const tookOver = useRef(false);
  // Before the browser handles another key: nothing typed meanwhile goes astray.
  useLayoutEffect(() => {
    if (!handoff || tookOver.current) return;
    tookOver.current = true;
    setLoginHandoff(null);
    // Typed between this form's first render and its taking the static one's place: set in the
    // form and in the field alike (a field set through the form alone would be remounted).
    const element = formRef.current;
    const { focused, submitted } = handoff;
    for (const name of ['username', 'password'] as const) {
      const value = handoff[name];
      if (form.getValues()[name] === value) continue;
      form.setFieldValue(name, value, { forceUpdate: false });
      const input = element?.querySelector<HTMLInputElement>(`input[name="${name}"]`);
      if (input) input.value = value;
    }
    // A submit the static form took is the user's: only for the method it showed (local).
    if (submitted && method === 'local') {
      element?.requestSubmit();
      return;
    }
    if (focused) {
      const input = element?.querySelector<HTMLInputElement>(`input[name="${focused}"]`);
      input?.focus();
      input?.setSelectionRange(input.value.length, input.value.length);
    }
  }, [handoff, form, method]);

  const submit = async (values: LoginValues) => {
    setSubmitting(true);
    onResult(null);
    setAuthMethod(method);
    // Sent exactly as typed: no trimming.
    const result = await auth.login(
      method,
      { username: values.username, password: values.password },
      provider ?? undefined,
    );
    setSubmitting(false);
    if (result.success) notifyFailedAttempts(result.failedAttempts);
    else onResult(result.error);
  };

  return (
    // method="post": should the app's script ever fail to load, the browser's own submission must
    // not put the password in the address (history, logs); the script always handles it itself.
    <form
      ref={formRef}
      method="post"
      onSubmit={form.onSubmit((values) => void submit(values))}
      noValidate
    >
      <Stack gap="md">
        {(method === 'ldap' || method === 'moodle') && providers.length > 1 && (
          <LazySelect
            label={PROVIDER_SELECT_LABELS[method]}
            data={providers.map((p) => ({ value: p.id, label: p.label }))}
            value={provider}
            allowDeselect={false}
            onChange={setProvider}
          />
        )}
        <TextInput
          label="Username"
          name="username"
          autoComplete="username"
          withAsterisk
          key={form.key('username')}
          {...form.getInputProps('username')}
        />
        <PasswordInput
          label="Password"
          name="password"
          autoComplete="current-password"
          withAsterisk
          key={form.key('password')}
          {...form.getInputProps('password')}
        />
        <Button type="submit" loading={submitting} fullWidth>
          Sign in
        </Button>
      </Stack>
    </form>
  );
}

/** One link per single sign-on provider: the browser goes to the server, then the provider. */
function SsoButtons({
  config,
  next,
  exchanging,
  exchangingProvider,
}: {
  config: AuthConfig;
  next: string;
  exchanging: boolean;
  exchangingProvider: string | null;
}) {
  if (exchanging) {
    const label = config.providers.sso.find((p) => p.id === exchangingProvider)?.label;
    return (
      <Group gap="sm" role="status" aria-live="polite">
        <Loader size="sm" aria-hidden="true" />
        <Text size="sm">{label ? `Completing sign-in with ${label}…` : 'Completing sign-in…'}</Text>
      </Group>
    );
  }
  if (config.providers.sso.length === 0) {
    return <Text size="sm">No single sign-on provider is available.</Text>;
  }
  return (
    <Stack gap="sm">
      {config.providers.sso.map((provider) => (
        <Button
          key={provider.id}
          component="a"
          href={ssoStartUrl(provider.id, next)}
          variant="default"
          fullWidth
          leftSection={<IconKey size={18} aria-hidden="true" />}
          onClick={() => setAuthMethod('sso')}
        >
          {`Sign in with ${provider.label}`}
        </Button>
      ))}
    </Stack>
  );
}

/** Dev mode: no sign-in; everyone is the server's built-in developer admin (spec §4). */
function DevModeNotice({ next }: { next: string }) {
  return (
    <Center py="xl">
      <Paper withBorder shadow="sm" p="xl" w="100%" maw={480}>
        <Stack gap="md">
          <Title order={1} size="h2">
            Sign in
          </Title>
          <Alert
            color="yellow"
            title={DEV_MODE_TITLE}
            icon={<IconCode aria-hidden="true" />}
            role="status"
          >
            This server runs in development mode: there is no sign-in, and every visitor is the
            built-in developer admin.
          </Alert>
          <Button component={Link} to={next} replace>
            {next === '/' ? 'Go to Home' : 'Continue'}
          </Button>
        </Stack>
      </Paper>
    </Center>
  );
}
