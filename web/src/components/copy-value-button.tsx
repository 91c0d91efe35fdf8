/**
 * A button that copies a value shown beside it (a one-time password, a redirect URI), with a
 * tooltip and an accessible name that say whether it has been copied.
 */
import { ActionIcon, CopyButton, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';

export function CopyValueButton({
  value,
  label,
  copiedLabel,
}: {
  value: string;
  /** Accessible name before copying, e.g. 'Copy the password'. */
  label: string;
  /** Accessible name once copied, e.g. 'Password copied'. */
  copiedLabel: string;
}) {
  return (
    <CopyButton value={value}>
      {({ copied, copy }) => (
        <Tooltip label={copied ? 'Copied' : 'Copy'} withArrow>
          <ActionIcon
            variant="default"
            size="lg"
            onClick={copy}
            aria-label={copied ? copiedLabel : label}
            mb={4}
          >
            {copied ? (
              <IconCheck size={16} aria-hidden="true" />
            ) : (
              <IconCopy size={16} aria-hidden="true" />
            )}
          </ActionIcon>
        </Tooltip>
      )}
    </CopyButton>
  );
}
