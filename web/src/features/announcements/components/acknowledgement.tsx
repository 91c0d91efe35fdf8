/**
 * "I have read this", or when the reader said it: on the start page, the course and department
 * pages, the dialog and the shell's banner. Light on purpose (the banner loads with the shell).
 */
import type { Announcement } from '@learning-hub/core';
import { Button, Group, Stack, Text } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { formatDateTime } from '../../../lib/format';
import { useAcknowledgeAnnouncement } from '../api/announcements-api';

export function Acknowledgement({
  announcement,
  describedBy,
}: {
  announcement: Announcement;
  /** The id of what names the announcement (its title), for a screen reader's "I have read this". */
  describedBy?: string;
}) {
  const acknowledge = useAcknowledgeAnnouncement();
  const receipt = announcement.receipt;
  if (!announcement.requiresAck || !receipt) return null;
  if (receipt.acknowledgedAt) {
    return (
      <Group gap={6} wrap="nowrap">
        <IconCircleCheck size={16} color="var(--mantine-color-green-filled)" aria-hidden />
        <Text size="sm" c="dimmed">
          {`You confirmed reading this on ${formatDateTime(receipt.acknowledgedAt)}.`}
        </Text>
      </Group>
    );
  }
  const failed = acknowledge.error;
  return (
    <Stack gap={4} align="flex-start">
      <Button
        size="compact-md"
        leftSection={<IconCircleCheck size={16} aria-hidden />}
        loading={acknowledge.isPending}
        aria-describedby={describedBy}
        onClick={() => acknowledge.mutate(announcement.id)}
      >
        I have read this
      </Button>
      {failed ? (
        <Text size="sm" c="var(--mantine-color-error)" role="alert">
          {failed instanceof Error ? failed.message : 'It could not be recorded. Try again.'}
        </Text>
      ) : null}
    </Stack>
  );
}
