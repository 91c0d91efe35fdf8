import type { ProviderView } from '@learning-hub/core';
import { Anchor, Button, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { useConnectionTest } from '../api/auth-settings-api';

import { OutcomeBadge, TestSteps } from './test-steps';
import { href } from '../../../lib/links';
import { ErrorAlert } from '../../../components/query-state';

export interface ConnectionTestModalProps {
  provider: ProviderView | null;
  onClose(): void;
}

/** Runs a provider's connection test as soon as it opens and shows every step. */
export function ConnectionTestModal({ provider, onClose }: ConnectionTestModalProps) {
  return (
    <Modal
      opened={provider !== null}
      onClose={onClose}
      title={provider ? `Connection test: ${provider.label}` : 'Connection test'}
      size="lg"
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {provider && <ConnectionTest key={provider.id} provider={provider} onClose={onClose} />}
    </Modal>
  );
}

function ConnectionTest({ provider, onClose }: { provider: ProviderView; onClose(): void }) {
  const test = useConnectionTest();
  const { mutate } = test;
  // Once per opening (StrictMode runs effects twice in development).
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    mutate(provider.id);
  }, [mutate, provider.id]);

  return (
    <Stack gap="md">
      {test.isPending && (
        <Group gap="sm" role="status" aria-live="polite">
          <Loader size="sm" aria-hidden="true" />
          <Text size="sm">Testing the connection…</Text>
        </Group>
      )}
      {test.isError && <ErrorAlert error={test.error} title="The test could not run" />}
      {test.data && (
        <Stack gap="sm" aria-live="polite">
          <Group gap="sm">
            <OutcomeBadge ok={test.data.ok} />
            <Text size="sm">
              {test.data.ok
                ? 'The server reached the provider and everything answered as configured.'
                : 'A step failed: see its error below.'}
            </Text>
          </Group>
          <TestSteps steps={test.data.steps} label="Connection test steps" />
        </Stack>
      )}
      <Text size="sm" c="dimmed">
        This checks the connection only. To see which account, role and context roles a person would
        get,{' '}
        <Anchor
          component={Link}
          to={href('authTest', { provider: provider.id })}
          underline="always"
        >
          try a test sign-in
        </Anchor>
        .
      </Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          Close
        </Button>
        <Button loading={test.isPending} onClick={() => test.mutate(provider.id)}>
          Run again
        </Button>
      </Group>
    </Stack>
  );
}
