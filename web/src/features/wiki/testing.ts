/** Wiki API answers shaped exactly as the server sends them (core contracts), for the tests. */
import type {
  WikiConflict,
  WikiDiff,
  WikiPage,
  WikiPageSummary,
  WikiRevisionSummary,
  WikiSpace,
} from '@learning-hub/core';
import type { z } from 'zod';
import type { WikiPageListSchema, WikiTreeSchema } from '@learning-hub/core';

const INES = { id: 'user-instructor', name: 'Ines Instructor' };
const ADA = { id: 'user-admin', name: 'Ada Admin' };

export function buildSpace(overrides: Partial<WikiSpace> = {}): WikiSpace {
  return {
    key: 'company',
    type: 'company',
    name: 'Fibre Co',
    departmentId: null,
    courseId: null,
    pageCount: 3,
    can: { create: false, manage: false },
    ...overrides,
  };
}

export const NETWORK_SPACE = buildSpace({
  key: 'department:network-engineering',
  type: 'department',
  name: 'Network Engineering',
  departmentId: 'network-engineering',
  pageCount: 1,
});

export function buildRevision(overrides: Partial<WikiRevisionSummary> = {}): WikiRevisionSummary {
  return {
    id: 'rev-3',
    number: 3,
    title: 'Splicing a 144-fibre cable',
    summary: 'Added the OTDR check',
    author: ADA,
    createdAt: '2025-03-03T10:00:00.000Z',
    size: 1200,
    restoredFrom: null,
    status: 'published',
    ...overrides,
  };
}

export function buildPage(overrides: Partial<WikiPage> = {}): WikiPage {
  return {
    id: 'page-1',
    title: 'Splicing a 144-fibre cable',
    spaceKey: 'company',
    spaceName: 'Fibre Co',
    parentId: 'page-root',
    position: 0,
    status: 'published',
    revision: 3,
    viewCount: 41,
    createdBy: INES,
    updatedBy: ADA,
    createdAt: '2025-03-01T09:00:00.000Z',
    updatedAt: '2025-03-03T10:00:00.000Z',
    deletedAt: null,
    html:
      '<h2 id="tools">Tools</h2><p>A fusion splicer.</p>' +
      '<h3 id="cleaver">Cleaver</h3><p>See <a href="/wiki/pages/page-2">Reading an OTDR trace</a> and ' +
      '<a class="wiki-link-missing" href="/wiki/go?space=company&amp;title=Splice%20trays">Splice trays</a>.</p>',
    headings: [
      { id: 'tools', level: 2, text: 'Tools' },
      { id: 'cleaver', level: 3, text: 'Cleaver' },
    ],
    ancestors: [{ id: 'page-root', title: 'Procedures' }],
    children: [{ id: 'page-5', title: 'Splice closures', status: 'published' }],
    backlinks: [{ id: 'page-9', title: 'Manhole entry checklist', spaceName: 'Fibre Co' }],
    currentRevision: buildRevision(),
    following: false,
    followerCount: 2,
    can: { edit: false, delete: false, move: false, purge: false },
    ...overrides,
  };
}

/** The list's and tree's view of a page. */
export function summaryOf(page: WikiPage): WikiPageSummary {
  const {
    html: _h,
    headings: _hd,
    ancestors: _a,
    children: _c,
    backlinks: _b,
    currentRevision: _r,
    following: _f,
    followerCount: _fc,
    can: _can,
    ...summary
  } = page;
  return summary;
}

export function buildList(
  pages: WikiPage[],
  overrides: Partial<z.infer<typeof WikiPageListSchema>> = {},
): z.infer<typeof WikiPageListSchema> {
  return { items: pages.map(summaryOf), total: pages.length, page: 1, pageSize: 20, ...overrides };
}

export function buildTree(
  space: WikiSpace,
  pages: { id: string; title: string; parentId?: string | null; status?: 'draft' }[],
): z.infer<typeof WikiTreeSchema> {
  return {
    space,
    pages: pages.map((p, index) => ({
      id: p.id,
      title: p.title,
      parentId: p.parentId ?? null,
      position: index,
      status: p.status ?? 'published',
    })),
    truncated: false,
  };
}

export function buildConflict(overrides: Partial<WikiConflict> = {}): WikiConflict {
  return {
    baseRevision: 3,
    current: {
      ...buildRevision({ id: 'rev-4', number: 4, author: INES, summary: 'Safety first' }),
      html: '<p>Wear safety glasses.</p><p>Clean with alcohol.</p>',
    },
    mine: {
      title: 'Splicing a 144-fibre cable',
      html: '<p>Wear gloves.</p><p>Clean with alcohol.</p>',
    },
    merge: {
      title: 'Splicing a 144-fibre cable',
      blocks: [
        {
          kind: 'conflict',
          base: '<p>Wear PPE.</p>',
          mine: '<p>Wear gloves.</p>',
          theirs: '<p>Wear safety glasses.</p>',
        },
        { kind: 'merged', html: '<p>Clean with alcohol.</p>' },
      ],
      conflicts: 1,
    },
    ...overrides,
  };
}

export function buildDiff(overrides: Partial<WikiDiff> = {}): WikiDiff {
  return {
    from: buildRevision({ id: 'rev-1', number: 1, author: INES, title: 'Splicing' }),
    to: buildRevision(),
    title: { from: 'Splicing', to: 'Splicing a 144-fibre cable' },
    blocks: [
      {
        op: 'equal',
        tag: 'h2',
        from: 'Tools',
        to: 'Tools',
        parts: [{ text: 'Tools', op: 'equal' }],
      },
      {
        op: 'change',
        tag: 'p',
        from: 'A cheap splicer.',
        to: 'A fusion splicer.',
        parts: [
          { text: 'A ', op: 'equal' },
          { text: 'cheap', op: 'delete' },
          { text: 'fusion', op: 'insert' },
          { text: ' splicer.', op: 'equal' },
        ],
      },
      ...['One', 'Two', 'Three', 'Four', 'Five'].map((word) => ({
        op: 'equal' as const,
        tag: 'p',
        from: `${word}.`,
        to: `${word}.`,
        parts: [{ text: `${word}.`, op: 'equal' as const }],
      })),
      {
        op: 'insert',
        tag: 'p',
        from: null,
        to: 'Check with an OTDR.',
        parts: [{ text: 'Check with an OTDR.', op: 'insert' }],
      },
      {
        op: 'delete',
        tag: 'p',
        from: 'Ask a colleague.',
        to: null,
        parts: [{ text: 'Ask a colleague.', op: 'delete' }],
      },
    ],
    stats: { insertedWords: 5, deletedWords: 4 },
    ...overrides,
  };
}
