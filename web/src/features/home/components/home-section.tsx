/** The building blocks of the start page's sections. */
import { Box, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

export interface HomeSectionProps {
  /** The id of the section's heading (unique in the page). */
  id: string;
  title: string;
  /** A link beside the heading (e.g. to the page with everything). */
  action?: ReactNode;
  /** In a bordered box (lists), or plain (cards that have borders of their own). */
  framed?: boolean;
  children: ReactNode;
}

/** A region named by its heading (level 2). */
export function HomeSection({ id, title, action, framed = false, children }: HomeSectionProps) {
  const body = (
    <Stack gap="sm">
      <Group justify="space-between" align="baseline" wrap="wrap" gap="xs">
        <Title order={2} size="h3" id={id}>
          {title}
        </Title>
        {action}
      </Group>
      {children}
    </Stack>
  );
  return framed ? (
    <Paper withBorder p="md" component="section" aria-labelledby={id}>
      {body}
    </Paper>
  ) : (
    <Box component="section" aria-labelledby={id}>
      {body}
    </Box>
  );
}

/** A list without bullets, its items spaced. */
export function PlainList({ children, gap = 'sm' }: { children: ReactNode; gap?: 'xs' | 'sm' }) {
  return (
    <Stack component="ul" gap={gap} style={{ listStyle: 'none', padding: 0, margin: 0 }}>
      {children}
    </Stack>
  );
}

/** What a section says when it has nothing to list. */
export function EmptyText({ children }: { children: ReactNode }) {
  return (
    <Text size="sm" c="dimmed">
      {children}
    </Text>
  );
}

export { countText as count } from '../../../lib/format';
