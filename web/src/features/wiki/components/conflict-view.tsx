/**
 * The conflict view of the wiki's editor (docs/wiki.md, "Edit conflicts"): shown when a save was
 * refused because someone else saved first. Both versions side by side (stacked, as tabs, on a
 * phone), then the server's merge: blocks only one side changed are merged already; each block
 * both changed is a conflict to settle with "Keep mine", "Keep theirs" or "Keep both". Once every
 * conflict is settled the merged version can be saved (on top of the revision that came first)
 * or taken back into the editor.
 */
import type { WikiConflict } from '@learning-hub/core';
import {
  Alert,
  Button,
  Group,
  Paper,
  Radio,
  SimpleGrid,
  Stack,
  Tabs,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useEffect, useRef, useState, type CSSProperties } from 'react';
import { RichTextView } from '../../../components/rich-text/rich-text-view';
import { formatDateTime, countText } from '../../../lib/format';
import { mergedHtml, type MergeChoice } from './merge';
import { usePhone } from '../../../lib/use-phone';

/** A part scrolled to stops below the app's fixed header, not under it. */
const BELOW_HEADER: CSSProperties = {
  scrollMarginTop: 'calc(var(--app-shell-header-offset, 60px) + var(--mantine-spacing-md))',
};

export interface MergedVersion {
  title: string;
  html: string;
  summary: string;
}

const CHOICES: { value: MergeChoice; label: string }[] = [
  { value: 'mine', label: 'Keep mine' },
  { value: 'theirs', label: 'Keep theirs' },
  { value: 'both', label: 'Keep both' },
];

export function ConflictView({
  conflict,
  summary: initialSummary,
  saving,
  error,
  onSave,
  onEdit,
  onDiscard,
}: {
  conflict: WikiConflict;
  /** The summary the writer gave with the refused save. */
  summary: string;
  saving: boolean;
  /** Why the last save of the merged version failed (other than another conflict). */
  error: string | null;
  onSave(merged: MergedVersion): void;
  onEdit(merged: MergedVersion): void;
  onDiscard(): void;
}) {
  const phone = usePhone();
  // The view replaces the editor, whose Save button was far down the page: the reader starts at
  // the explanation (focused, so a screen reader reads it), not in the middle of a version.
  const explanation = useRef<HTMLDivElement>(null);
  const firstConflict = useRef<HTMLElement>(null);
  useEffect(() => {
    const element = explanation.current;
    if (!element) return;
    element.focus({ preventScroll: true });
    element.scrollIntoView({ block: 'start' });
  }, []);
  const { current, mine, merge } = conflict;
  const [choices, setChoices] = useState<ReadonlyMap<number, MergeChoice>>(new Map());
  const [title, setTitle] = useState(merge.title);
  const [summary, setSummary] = useState(initialSummary);
  const html = mergedHtml(merge.blocks, choices);
  const left = merge.conflicts - choices.size;
  const merged = html === null ? null : { title: title.trim(), html, summary: summary.trim() };
  const by = `revision ${current.number} by ${current.author.name}, ${formatDateTime(current.createdAt)}`;

  const theirs = (
    <Version heading={`Their version (revision ${current.number})`} html={current.html} />
  );
  const yours = <Version heading="Your version" html={mine.html} />;
  const ordinals = conflictOrdinals(merge.blocks);

  return (
    <Stack gap="lg">
      <Alert
        ref={explanation}
        tabIndex={-1}
        style={BELOW_HEADER}
        color="yellow"
        role="alert"
        title="Someone else saved this page while you were editing it."
      >
        <Stack gap="xs" align="flex-start">
          <Text size="sm">
            {`They saved ${by}${current.summary ? ` (“${current.summary}”)` : ''}. Your changes are not saved yet: settle each conflict below, then save the merged version.`}
          </Text>
          {merge.conflicts > 0 && (
            <Button
              size="xs"
              variant="white"
              onClick={() => {
                firstConflict.current?.scrollIntoView({ block: 'start' });
                firstConflict.current?.focus({ preventScroll: true });
              }}
            >
              Go to the first conflict
            </Button>
          )}
        </Stack>
      </Alert>

      <Stack gap="xs" component="section" aria-labelledby="conflict-versions">
        <Title order={2} size="h3" id="conflict-versions">
          Both versions
        </Title>
        {phone ? (
          <Tabs defaultValue="theirs">
            <Tabs.List grow>
              <Tabs.Tab value="theirs">Their version</Tabs.Tab>
              <Tabs.Tab value="mine">Your version</Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="theirs" pt="sm">
              {theirs}
            </Tabs.Panel>
            <Tabs.Panel value="mine" pt="sm">
              {yours}
            </Tabs.Panel>
          </Tabs>
        ) : (
          <SimpleGrid cols={2} spacing="md">
            {theirs}
            {yours}
          </SimpleGrid>
        )}
      </Stack>

      <Stack gap="sm" component="section" aria-labelledby="conflict-merge">
        <Title order={2} size="h3" id="conflict-merge">
          Merged version
        </Title>
        <Text size="sm" aria-live="polite">
          {left > 0
            ? `${countText(left, 'conflict', 'conflicts')} left to settle.`
            : 'Every conflict is settled.'}
        </Text>
        <TextInput
          label="Title"
          value={title}
          onChange={(event) => setTitle(event.currentTarget.value)}
        />
        {merge.blocks.map((block, index) => {
          if (block.kind === 'merged') {
            return (
              <Paper key={index} px="sm" py={4} bg="var(--mantine-color-default-hover)">
                <RichTextView html={block.html} />
              </Paper>
            );
          }
          const label = `Conflict ${ordinals[index]} of ${merge.conflicts}`;
          return (
            <Paper
              key={index}
              withBorder
              p="sm"
              component="section"
              aria-label={label}
              ref={ordinals[index] === 1 ? firstConflict : undefined}
              tabIndex={-1}
              style={{
                ...BELOW_HEADER,
                borderColor: 'var(--mantine-color-orange-filled)',
                borderWidth: 2,
              }}
            >
              <Stack gap="sm">
                <Title order={3} size="h5">
                  {label}
                </Title>
                <SimpleGrid cols={phone ? 1 : 2} spacing="sm">
                  <Version heading="Yours" html={block.mine} small />
                  <Version heading="Theirs" html={block.theirs} small />
                </SimpleGrid>
                <Radio.Group
                  label="Keep"
                  value={choices.get(index) ?? null}
                  onChange={(value) =>
                    setChoices((all) => new Map(all).set(index, value as MergeChoice))
                  }
                >
                  <Group gap="md" mt={4}>
                    {CHOICES.map((c) => (
                      <Radio key={c.value} value={c.value} label={c.label} />
                    ))}
                  </Group>
                </Radio.Group>
              </Stack>
            </Paper>
          );
        })}
        <TextInput
          label="Summary of your changes"
          value={summary}
          onChange={(event) => setSummary(event.currentTarget.value)}
        />
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        <Group gap="sm">
          <Button
            disabled={!merged || !merged.title}
            loading={saving}
            onClick={() => merged && onSave(merged)}
          >
            Save merged version
          </Button>
          <Button variant="default" disabled={!merged} onClick={() => merged && onEdit(merged)}>
            Edit merged version
          </Button>
          <Button variant="subtle" color="red" onClick={onDiscard}>
            Discard my changes
          </Button>
        </Group>
      </Stack>
    </Stack>
  );
}

/** Each block's number among the conflicts (1, 2, …; 0 for a merged block). */
function conflictOrdinals(blocks: WikiConflict['merge']['blocks']): number[] {
  let count = 0;
  return blocks.map((block) => (block.kind === 'conflict' ? ++count : 0));
}

function Version({ heading, html, small }: { heading: string; html: string; small?: boolean }) {
  return (
    <Paper withBorder p="sm" style={{ minWidth: 0 }}>
      <Text fw={700} size={small ? 'sm' : 'md'} mb={4}>
        {heading}
      </Text>
      {html ? (
        <RichTextView html={html} />
      ) : (
        <Text size="sm" c="dimmed">
          (nothing)
        </Text>
      )}
    </Paper>
  );
}
