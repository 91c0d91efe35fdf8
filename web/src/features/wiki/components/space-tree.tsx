/**
 * A space's pages as a collapsible tree (GET /api/wiki/tree): nested lists of links, each page
 * with children behind a button that shows or hides them (a disclosure: Tab moves between links
 * and buttons, Enter or Space opens). The current page is marked (`aria-current="page"`) and the
 * branches leading to it start open.
 */
import type { WikiTreeSchema } from '@learning-hub/core';
import { ActionIcon, Anchor, Box, Group, Text } from '@mantine/core';
import { IconChevronDown, IconChevronRight } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import type { z } from 'zod';

import { StatusBadge } from './wiki-format';
import { href } from '../../../lib/links';

type TreePage = z.infer<typeof WikiTreeSchema>['pages'][number];

export interface TreeNode {
  page: TreePage;
  children: TreeNode[];
}

/** Nests the flat pages by parent, in their order; a page whose parent is not there is a root. */
export function buildTreeNodes(pages: readonly TreePage[]): TreeNode[] {
  const nodes = new Map(pages.map((page) => [page.id, { page, children: [] as TreeNode[] }]));
  const roots: TreeNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.page.parentId ? nodes.get(node.page.parentId) : undefined;
    (parent && parent !== node ? parent.children : roots).push(node);
  }
  const sort = (list: TreeNode[]) => {
    list.sort((a, b) => a.page.position - b.page.position);
    for (const node of list) sort(node.children);
  };
  sort(roots);
  return roots;
}

/** The ids of a page's ancestors within the tree (its parent first). */
export function ancestorIds(pages: readonly TreePage[], pageId: string | null): Set<string> {
  const byId = new Map(pages.map((p) => [p.id, p]));
  const ids = new Set<string>();
  let parent = pageId ? byId.get(pageId)?.parentId : null;
  while (parent && !ids.has(parent)) {
    ids.add(parent);
    parent = byId.get(parent)?.parentId ?? null;
  }
  return ids;
}

/** The tree as Select options, indented by depth, without `skip` and the pages under it. */
export function parentOptions(
  nodes: TreeNode[],
  skip: string | null,
  depth = 0,
): { value: string; label: string }[] {
  return nodes.flatMap((node) =>
    node.page.id === skip
      ? []
      : [
          { value: node.page.id, label: `${'– '.repeat(depth)}${node.page.title}` },
          ...parentOptions(node.children, skip, depth + 1),
        ],
  );
}

export function SpaceTree({
  pages,
  currentPageId = null,
  label,
}: {
  pages: readonly TreePage[];
  currentPageId?: string | null;
  /** The navigation landmark's name ("Pages of Fibre Co"). */
  label: string;
}) {
  const roots = useMemo(() => buildTreeNodes(pages), [pages]);
  const onPath = useMemo(() => ancestorIds(pages, currentPageId), [pages, currentPageId]);
  // What the reader opened or closed; everything else follows the path to the current page.
  const [toggled, setToggled] = useState<Record<string, boolean>>({});
  const isOpen = (id: string) => toggled[id] ?? onPath.has(id);

  if (roots.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No pages in this space yet.
      </Text>
    );
  }
  return (
    <Box component="nav" aria-label={label}>
      <Branch
        nodes={roots}
        depth={0}
        currentPageId={currentPageId}
        isOpen={isOpen}
        onToggle={(id) => setToggled((t) => ({ ...t, [id]: !isOpen(id) }))}
      />
    </Box>
  );
}

function Branch({
  nodes,
  depth,
  currentPageId,
  isOpen,
  onToggle,
}: {
  nodes: TreeNode[];
  depth: number;
  currentPageId: string | null;
  isOpen(id: string): boolean;
  onToggle(id: string): void;
}) {
  return (
    <Box component="ul" m={0} p={0} pl={depth === 0 ? 0 : 'md'} style={{ listStyle: 'none' }}>
      {nodes.map(({ page, children }) => {
        const open = isOpen(page.id);
        const current = page.id === currentPageId;
        return (
          <li key={page.id}>
            <Group gap={2} wrap="nowrap" align="flex-start">
              {children.length > 0 ? (
                <ActionIcon
                  variant="subtle"
                  color="gray"
                  size="sm"
                  mt={2}
                  aria-label={`${open ? 'Collapse' : 'Expand'} ${page.title}`}
                  aria-expanded={open}
                  onClick={() => onToggle(page.id)}
                >
                  {open ? (
                    <IconChevronDown size={14} aria-hidden />
                  ) : (
                    <IconChevronRight size={14} aria-hidden />
                  )}
                </ActionIcon>
              ) : (
                <Box w={22} style={{ flexShrink: 0 }} aria-hidden />
              )}
              <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }} py={2}>
                <Anchor
                  component={Link}
                  to={href('wikiPage', { pageId: page.id })}
                  size="sm"
                  aria-current={current ? 'page' : undefined}
                  fw={current ? 700 : undefined}
                  px={current ? 4 : 0}
                  style={{
                    overflowWrap: 'anywhere',
                    borderRadius: 'var(--mantine-radius-sm)',
                    background: current ? 'var(--mantine-primary-color-light)' : undefined,
                  }}
                >
                  {page.title}
                </Anchor>
                <StatusBadge status={page.status} />
              </Group>
            </Group>
            {open && children.length > 0 && (
              <Branch
                nodes={children}
                depth={depth + 1}
                currentPageId={currentPageId}
                isOpen={isOpen}
                onToggle={onToggle}
              />
            )}
          </li>
        );
      })}
    </Box>
  );
}
