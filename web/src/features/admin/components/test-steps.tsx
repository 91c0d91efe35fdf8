import type { TestStep } from '@learning-hub/core';
import { Badge, Code, Group, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconCheck, IconX } from '@tabler/icons-react';

/** The milliseconds a step took, for people. */
export function formatMs(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`;
}

/** The outcome of a whole test: a badge. */
export function OutcomeBadge({ ok }: { ok: boolean }) {
  return (
    // Shade 9: white text at AA contrast (Mantine's default green and red are below 4.5:1).
    <Badge color={ok ? 'teal.9' : 'red.9'} variant="filled" size="lg" tt="none">
      {ok ? 'Passed' : 'Failed'}
    </Badge>
  );
}

/** The steps of a provider test, in order: name, ok or failed, time, and detail or error. */
export function TestSteps({ steps, label }: { steps: readonly TestStep[]; label: string }) {
  if (steps.length === 0) return <Text size="sm">No steps were run.</Text>;
  return (
    <Stack
      component="ol"
      gap="xs"
      aria-label={label}
      style={{ listStyle: 'none', padding: 0, margin: 0 }}
    >
      {steps.map((step, index) => (
        <li key={`${index}-${step.name}`}>
          <Group gap="sm" wrap="nowrap" align="flex-start">
            <ThemeIcon
              color={step.ok ? 'green' : 'red'}
              variant="light"
              radius="xl"
              size="md"
              aria-hidden="true"
            >
              {step.ok ? <IconCheck size={16} /> : <IconX size={16} />}
            </ThemeIcon>
            <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
              <Group gap="xs" wrap="wrap">
                <Text size="sm" fw={600}>
                  {`${index + 1}. ${step.name}`}
                </Text>
                <Badge color={step.ok ? 'green' : 'red'} variant="dot" tt="none" size="sm">
                  {step.ok ? 'OK' : 'Failed'}
                </Badge>
                <Text size="xs" c="dimmed">
                  {formatMs(step.ms)}
                </Text>
              </Group>
              {step.error && (
                <Text size="sm" c="var(--mantine-color-error)" style={{ overflowWrap: 'anywhere' }}>
                  {step.error}
                </Text>
              )}
              {step.detail && (
                <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                  {step.detail}
                </Code>
              )}
            </Stack>
          </Group>
        </li>
      ))}
    </Stack>
  );
}
