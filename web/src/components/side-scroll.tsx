/**
 * A row wider than the screen (tabs, a strip of chips) that scrolls sideways with a visible cue:
 * a faded edge with an arrow button on the side that has more (Mantine Scroller). Tables use
 * `Table.ScrollContainer`, whose scroll bar the theme keeps always visible (app/theme.ts). The
 * pattern is in docs/front-end.md (phones).
 */
import { Scroller } from '@mantine/core';
import type { ReactNode } from 'react';

export function SideScroll({ children, label }: { children: ReactNode; label: string }) {
  return (
    <Scroller
      draggable={false}
      controlSize={32}
      startControlProps={{ 'aria-label': `Scroll ${label} left` }}
      endControlProps={{ 'aria-label': `Scroll ${label} right` }}
    >
      {children}
    </Scroller>
  );
}
