import type { ProviderMethod, ProviderView } from '@learning-hub/core';
import {
  Alert,
  Badge,
  Button,
  Fieldset,
  Group,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { FormActions, FormModal, FormStack } from '../../../components/form-modal';
import { useForm, type UseFormReturnType } from '@mantine/form';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useState } from 'react';
import { CopyValueButton } from '../../../components/copy-value-button';
import { useSaveProvider } from '../api/auth-settings-api';
import { useRoles } from '../api/roles-api';
import { errorMessage, notifySuccess } from '../utils/notify';
import {
  initialProviderValues,
  PROVIDER_METHOD_LABELS,
  SECRET_FIELDS,
  validateProvider,
  type ProviderFormValues,
} from '../utils/provider-form';
import { MappingFields } from './mapping-fields';

type Form = UseFormReturnType<ProviderFormValues>;

export interface ProviderFormModalProps {
  /** Open for a new provider of `method`, or to edit `provider`. */
  opened: boolean;
  method: ProviderMethod;
  provider: ProviderView | null;
  /** The callback address the server gives identity providers (from its PUBLIC_URL). */
  ssoRedirectUri: string;
  onClose(): void;
}

/** Create or edit a sign-in provider (its id and method never change). */
export function ProviderFormModal(props: ProviderFormModalProps) {
  const key = props.opened ? (props.provider?.id ?? `new-${props.method}`) : 'closed';
  return (
    <FormModal
      opened={props.opened}
      onClose={props.onClose}
      title={
        props.provider
          ? `Edit provider: ${props.provider.label}`
          : `Add a ${PROVIDER_METHOD_LABELS[props.method]} provider`
      }
      size="xl"
      centered
    >
      {<ProviderForm key={key} {...props} />}
    </FormModal>
  );
}

function ProviderForm({ method, provider, ssoRedirectUri, onClose }: ProviderFormModalProps) {
  const save = useSaveProvider();
  const [serverError, setServerError] = useState<string | null>(null);
  const editing = provider !== null;
  const form = useForm<ProviderFormValues>({
    initialValues: initialProviderValues(method, provider),
    validate: (values) => {
      const result = validateProvider(values, editing);
      return result.success ? {} : result.errors;
    },
  });

  const submit = async (values: ProviderFormValues) => {
    setServerError(null);
    const result = validateProvider(values, editing);
    if (!result.success) return;
    try {
      const saved = await save.mutateAsync({
        input: result.input,
        existingId: provider?.id ?? null,
      });
      notifySuccess(
        editing ? 'Provider saved' : 'Provider created',
        editing ? `${saved.label} was updated.` : `${saved.label} (${saved.id}) was created.`,
      );
      onClose();
    } catch (error) {
      setServerError(errorMessage(error));
    }
  };

  return (
    <FormStack onSubmit={form.onSubmit((v) => void submit(v))}>
      <GeneralFields form={form} editing={editing} />
      {method === 'ldap' && <LdapFields form={form} />}
      {method === 'moodle' && <MoodleFields form={form} />}
      {method === 'sso' && <SsoFields form={form} redirectUri={ssoRedirectUri} />}
      {SECRET_FIELDS[method] && <SecretField form={form} provider={provider} method={method} />}
      {(method === 'ldap' || method === 'sso') && <MappingFields form={form} method={method} />}
      {serverError && (
        <Alert color="red" role="alert" title="Not saved">
          {serverError}
        </Alert>
      )}
      {Object.keys(form.errors).length > 0 && (
        <Text size="sm" c="var(--mantine-color-error)" role="status">
          Some fields need attention: see the messages above.
        </Text>
      )}
      <FormActions
        submitLabel={editing ? 'Save provider' : 'Create provider'}
        busy={save.isPending}
        onCancel={onClose}
      />
    </FormStack>
  );
}

function GeneralFields({ form, editing }: { form: Form; editing: boolean }) {
  return (
    <Fieldset legend="Provider">
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label="Provider id"
            description={
              editing
                ? 'The id never changes.'
                : 'Lower-case letters, digits and hyphens, e.g. corp-ldap. Sign-ins name it.'
            }
            withAsterisk={!editing}
            readOnly={editing}
            variant={editing ? 'filled' : 'default'}
            {...form.getInputProps('id')}
          />
          <TextInput
            label="Label"
            description="Shown on the sign-in page."
            withAsterisk
            {...form.getInputProps('label')}
          />
        </SimpleGrid>
        <Switch
          label="Enabled"
          description="Only enabled providers are offered on the sign-in page."
          {...form.getInputProps('enabled', { type: 'checkbox' })}
        />
      </Stack>
    </Fieldset>
  );
}

const SECURITY_OPTIONS = [
  { value: 'none', label: 'None (plain LDAP)' },
  { value: 'ldaps', label: 'LDAPS (TLS from the start)' },
  { value: 'starttls', label: 'StartTLS' },
];

const GROUP_MODES = [
  { value: 'memberOf', label: "The user's memberOf attribute" },
  { value: 'groupOfNames', label: 'Search groupOfNames entries (member)' },
  { value: 'groupOfUniqueNames', label: 'Search groupOfUniqueNames entries (uniqueMember)' },
];

function LdapFields({ form }: { form: Form }) {
  const values = form.getValues().ldap;
  return (
    <>
      <Fieldset legend="Directory servers">
        <Stack gap="sm">
          <Textarea
            label="Server addresses"
            description="One per line, tried in order: ldap://host[:port] or ldaps://host[:port]."
            withAsterisk
            autosize
            minRows={2}
            spellCheck={false}
            {...form.getInputProps('ldap.urls')}
          />
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <NumberInput
              label="Port"
              description="For addresses without a port."
              min={1}
              max={65535}
              allowDecimal={false}
              {...form.getInputProps('ldap.port')}
            />
            <Select
              label="Security"
              data={SECURITY_OPTIONS}
              allowDeselect={false}
              {...form.getInputProps('ldap.security')}
            />
            <NumberInput
              label="Time-out (ms)"
              min={500}
              max={60000}
              step={500}
              allowDecimal={false}
              {...form.getInputProps('ldap.timeoutMs')}
            />
          </SimpleGrid>
          <Switch
            label="Verify the server's TLS certificate"
            description="Applies to LDAPS and StartTLS. Turn off only for test servers."
            disabled={values.security === 'none'}
            {...form.getInputProps('ldap.tlsRejectUnauthorized', { type: 'checkbox' })}
          />
        </Stack>
      </Fieldset>
      <Fieldset legend="Finding users">
        <Stack gap="sm">
          <TextInput
            label="Service account (bind DN)"
            description="Searches for users. Leave empty for an anonymous search."
            spellCheck={false}
            {...form.getInputProps('ldap.bindDn')}
          />
          <Textarea
            label="User search bases"
            description="One per line, e.g. ou=people,dc=example,dc=com."
            withAsterisk
            autosize
            minRows={1}
            spellCheck={false}
            {...form.getInputProps('ldap.userSearchBases')}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label="User object filter"
              spellCheck={false}
              {...form.getInputProps('ldap.userObjectFilter')}
            />
            <TextInput
              label="User attribute"
              description="Matched against the username typed (default uid)."
              spellCheck={false}
              {...form.getInputProps('ldap.userAttribute')}
            />
          </SimpleGrid>
        </Stack>
      </Fieldset>
      <Fieldset legend="Attributes">
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput label="Email attribute" {...form.getInputProps('ldap.attributes.email')} />
          <TextInput
            label="First name attribute"
            {...form.getInputProps('ldap.attributes.firstname')}
          />
          <TextInput
            label="Last name attribute"
            {...form.getInputProps('ldap.attributes.lastname')}
          />
          <TextInput
            label="Department attribute"
            description="Empty: the department is not read. A new department is created."
            {...form.getInputProps('ldap.attributes.department')}
          />
        </SimpleGrid>
      </Fieldset>
      <Fieldset legend="Groups">
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <Select
            label="Groups from"
            data={GROUP_MODES}
            allowDeselect={false}
            {...form.getInputProps('ldap.groups.mode')}
          />
          <TextInput
            label="Group search base"
            description="For group searches; empty: the user search bases."
            disabled={values.groups.mode === 'memberOf'}
            spellCheck={false}
            {...form.getInputProps('ldap.groups.searchBase')}
          />
          <TextInput
            label="Group name attribute"
            description="What the mapping rules name a group by (cn, or dn)."
            {...form.getInputProps('ldap.groups.nameAttribute')}
          />
        </SimpleGrid>
      </Fieldset>
    </>
  );
}

function useRoleOptions() {
  const roles = useRoles();
  return (roles.data ?? []).map((r) => ({ value: r.id, label: r.displayName }));
}

function MoodleFields({ form }: { form: Form }) {
  const roleOptions = useRoleOptions();
  return (
    <Fieldset legend="Moodle site">
      <Stack gap="sm">
        <TextInput
          label="Site address"
          description="The Moodle site's address, e.g. https://moodle.example.com."
          withAsterisk
          spellCheck={false}
          {...form.getInputProps('moodle.siteUrl')}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label="Web service"
            description="The service's short name (default moodle_mobile_app)."
            withAsterisk
            {...form.getInputProps('moodle.service')}
          />
          <NumberInput
            label="Time-out (ms)"
            min={500}
            max={60000}
            step={500}
            allowDecimal={false}
            {...form.getInputProps('moodle.timeoutMs')}
          />
          <Select
            label="Default role"
            description="The role of every Moodle user here."
            data={roleOptions}
            withAsterisk
            allowDeselect={false}
            {...form.getInputProps('moodle.defaultRole')}
          />
          <Select
            label="Role for Moodle site administrators"
            description="Empty: site administrators get the default role."
            data={roleOptions}
            clearable
            placeholder="No special role"
            {...form.getInputProps('moodle.siteAdminRole')}
          />
        </SimpleGrid>
      </Stack>
    </Fieldset>
  );
}

function SsoFields({ form, redirectUri }: { form: Form; redirectUri: string }) {
  const values = form.getValues().sso;
  return (
    <>
      <Fieldset legend="Identity provider">
        <Stack gap="sm">
          <TextInput
            label="Issuer"
            description="The OpenID Connect issuer; its discovery document is read from there."
            withAsterisk
            spellCheck={false}
            {...form.getInputProps('sso.issuer')}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label="Client id"
              withAsterisk
              spellCheck={false}
              {...form.getInputProps('sso.clientId')}
            />
            <TextInput
              label="Scopes"
              description="Separated by spaces."
              spellCheck={false}
              {...form.getInputProps('sso.scopes')}
            />
          </SimpleGrid>
          <Group gap="xs" align="flex-end" wrap="nowrap">
            <TextInput
              label="Redirect URI"
              description="Register this address at the identity provider."
              value={redirectUri}
              readOnly
              variant="filled"
              style={{ flex: 1 }}
            />
            <CopyValueButton
              value={redirectUri}
              label="Copy the redirect URI"
              copiedLabel="Redirect URI copied"
            />
          </Group>
          <Switch
            label="Allow an http:// issuer"
            description="For development and tests only: never for a real identity provider."
            {...form.getInputProps('sso.allowInsecureHttp', { type: 'checkbox' })}
          />
          {values.allowInsecureHttp && (
            <Alert
              color="yellow"
              icon={<IconAlertTriangle aria-hidden="true" />}
              title="For development only"
            >
              Without https, tokens and codes travel unencrypted. Use this only with a local test
              identity provider.
            </Alert>
          )}
        </Stack>
      </Fieldset>
      <Fieldset legend="Claims">
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <TextInput label="Username claim" {...form.getInputProps('sso.usernameClaim')} />
          <TextInput
            label="Groups claim"
            description="Its groups are mapped like directory groups."
            {...form.getInputProps('sso.groupsClaim')}
          />
          <TextInput
            label="Department claim"
            description="Empty: the department is not read."
            {...form.getInputProps('sso.departmentClaim')}
          />
        </SimpleGrid>
      </Fieldset>
    </>
  );
}

const SECRET_TEXT: Readonly<
  Record<'ldap' | 'sso', { label: string; createHint: string; removeHint: string }>
> = {
  ldap: {
    label: 'Service account password',
    createHint: 'The bind DN’s password. Empty for an anonymous search.',
    removeHint: 'The directory will be searched without a password.',
  },
  sso: {
    label: 'Client secret',
    createHint: 'Empty: a public client (PKCE only).',
    removeHint: 'The client becomes a public client (PKCE only).',
  },
};

/** A write-only secret: "set" or "not set", then Replace or Remove; its value is never shown. */
function SecretField({
  form,
  provider,
  method,
}: {
  form: Form;
  provider: ProviderView | null;
  method: ProviderMethod;
}) {
  const field = SECRET_FIELDS[method];
  if (!field || method === 'moodle') return null;
  const text = SECRET_TEXT[method];
  const secret = form.getValues().secret;
  const setMode = (mode: ProviderFormValues['secret']['mode']) => {
    form.setFieldValue('secret', { mode, value: '' });
    form.clearFieldError('secret.value');
  };
  const input = (
    <TextInput
      type="password"
      label={provider ? `New ${text.label.toLowerCase()}` : text.label}
      description={provider ? 'Write-only: it is never shown again.' : text.createHint}
      autoComplete="new-password"
      {...form.getInputProps('secret.value')}
    />
  );
  if (!provider) return <Fieldset legend="Secret">{input}</Fieldset>;

  const isSet = provider.secretsSet[field];
  return (
    <Fieldset legend="Secret">
      <Stack gap="sm">
        <Group gap="sm">
          <Text size="sm" fw={600}>
            {text.label}
          </Text>
          <Badge color={isSet ? 'green' : 'gray'} variant="light" tt="none">
            {isSet ? 'set' : 'not set'}
          </Badge>
          {secret.mode === 'keep' && (
            <>
              <Button size="xs" variant="default" onClick={() => setMode('replace')}>
                {isSet ? 'Replace' : 'Set'}
              </Button>
              {isSet && (
                <Button size="xs" variant="default" color="red" onClick={() => setMode('remove')}>
                  Remove
                </Button>
              )}
            </>
          )}
          {secret.mode !== 'keep' && (
            <Button size="xs" variant="subtle" onClick={() => setMode('keep')}>
              {isSet ? 'Keep the stored one' : 'Cancel'}
            </Button>
          )}
        </Group>
        {secret.mode === 'replace' && input}
        {secret.mode === 'remove' && (
          <Text size="sm" role="status">
            {`It will be removed when you save. ${text.removeHint}`}
          </Text>
        )}
      </Stack>
    </Fieldset>
  );
}
