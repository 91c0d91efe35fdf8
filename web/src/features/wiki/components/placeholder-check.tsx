/**
 * Before a page is published (or a published page saved), the Page creator and editor look for
 * the template's placeholders still in the text (core's findWikiPlaceholders: "[Fusion splicer,
 * calibrated this year]") and, when there are any, name them and ask first (docs/wiki.md).
 */
import { findWikiPlaceholders } from '@learning-hub/core';
import { List, Stack, Text } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { ConfirmModal } from '../../../components/confirm-modal';

/** The most placeholders the dialog names; the rest are counted. */
const SHOWN = 8;

interface Pending {
  placeholders: string[];
  confirmLabel: string;
  proceed(): void;
}

/**
 * `check(html, proceed, confirmLabel)` runs `proceed` at once when the text has no placeholder;
 * otherwise `dialog` names them and runs it when the writer confirms.
 */
export function usePlaceholderCheck(): {
  check(html: string, proceed: () => void, confirmLabel: string): void;
  dialog: ReactNode;
} {
  const [pending, setPending] = useState<Pending | null>(null);
  const check = (html: string, proceed: () => void, confirmLabel: string) => {
    const placeholders = findWikiPlaceholders(html);
    if (placeholders.length === 0) proceed();
    else setPending({ placeholders, confirmLabel, proceed });
  };
  const count = pending?.placeholders.length ?? 0;
  const dialog = (
    <ConfirmModal
      opened={pending !== null}
      title="Placeholders left in the text"
      confirmLabel={pending?.confirmLabel ?? 'Publish anyway'}
      onClose={() => setPending(null)}
      onConfirm={() => {
        const proceed = pending?.proceed;
        setPending(null);
        proceed?.();
      }}
    >
      <Stack gap="xs">
        <Text size="sm">
          {count === 1
            ? 'This placeholder from the template is still in the text; readers will see it as it is:'
            : `These ${count} placeholders from the template are still in the text; readers will see them as they are:`}
        </Text>
        <List size="sm" aria-label="Placeholders left">
          {pending?.placeholders.slice(0, SHOWN).map((p) => (
            <List.Item key={p}>{p}</List.Item>
          ))}
        </List>
        {count > SHOWN && <Text size="sm">{`and ${count - SHOWN} more.`}</Text>}
        <Text size="sm">Cancel to replace them with your own words.</Text>
      </Stack>
    </ConfirmModal>
  );
  return { check, dialog };
}
