/**
 * The wiki (spec §2 `/wiki`: library.view; `/wiki/create` = `/wiki-creator`: wiki.create and the
 * role instructor or admin; spec §6 wiki.view, .create, .edit, .delete, .manage): pages in spaces
 * (the company's, one per department, one per course), as a tree, with every save kept as a
 * numbered revision. Pages link to each other by title; a save names the revision it was based on
 * and a stale one is refused with a merge. See docs/wiki.md for the rules and readings.
 */
import { z } from 'zod';
import {
  IsoDateTime,
  NamedRefSchema,
  PageQuerySchema,
  pageOf,
  pageQuery,
  storableText,
} from './common';

// ---------------------------------------------------------------- limits

/** Longest page body, in characters of HTML (a long procedure with tables stays far below). */
export const WIKI_PAGE_HTML_MAX = 500_000;
/** Longest page title. */
export const WIKI_TITLE_MAX = 150;
/** Longest revision summary ("what changed"). */
export const WIKI_SUMMARY_MAX = 300;
/** Most pages one tree answer carries (a space larger than this is paged by its list). */
export const WIKI_TREE_MAX = 2_000;

const id = z.string().min(1).max(64);
const pageTitle = storableText(WIKI_TITLE_MAX, 'The title')
  .trim()
  .min(1, 'Enter a title')
  .refine((v) => !/[\r\n\t]/.test(v), { message: 'The title must be on one line' })
  .refine((v) => !/[[\]|#/\\]/.test(v), {
    message: 'A title cannot contain [ ] | # / or \\',
  });
const pageHtml = storableText(WIKI_PAGE_HTML_MAX, 'The page').describe(
  'HTML from the rich-text editor; sanitised by the server with an allow-list before it is stored',
);
const summary = storableText(WIKI_SUMMARY_MAX, 'The summary')
  .trim()
  .refine((v) => !/[\r\n\t]/.test(v), { message: 'The summary must be on one line' });
/** A revision's number within its page, from 1 (path and query parameters). */
const revisionNumber = z.coerce
  .number({ message: 'A revision is a whole number' })
  .int('A revision is a whole number')
  .min(1, 'Revisions are numbered from 1')
  .max(1_000_000);

// ---------------------------------------------------------------- spaces

/**
 * A space's key: `company`, `department:<departmentId>` or `course:<courseId>`. Pages of a
 * department space are seen by whoever may view that department (department.view there); of a
 * course space by whoever may open the course's content; of the company space by everyone who
 * holds wiki.view.
 */
export const WikiSpaceKeySchema = z
  .string()
  .max(80)
  .regex(/^(company|department:[\w.-]{1,64}|course:[\w.-]{1,64})$/, {
    message: 'Choose a space',
  });
export type WikiSpaceKey = z.infer<typeof WikiSpaceKeySchema>;

export const WIKI_SPACE_TYPES = ['company', 'department', 'course'] as const;
export const WikiSpaceTypeSchema = z.enum(WIKI_SPACE_TYPES);

export const WikiSpaceSchema = z.object({
  key: WikiSpaceKeySchema,
  type: WikiSpaceTypeSchema,
  /** The company's name for the company space, the department's name or the course's title. */
  name: z.string(),
  departmentId: z.string().nullable(),
  courseId: z.string().nullable(),
  /** Published pages in it (not in the trash). */
  pageCount: z.number().int().nonnegative(),
  /** What the viewer may do in it (decided by the server). */
  can: z.object({ create: z.boolean(), manage: z.boolean() }),
});
export type WikiSpace = z.infer<typeof WikiSpaceSchema>;
/** `GET /api/wiki/spaces`: the spaces the viewer may read, the company space first. */
/** The spaces the caller may see: all of them at the default size. */
export const WikiSpaceListQuerySchema = pageQuery({ defaultSize: 200, maxSize: 200 });
export const WikiSpaceListSchema = pageOf(WikiSpaceSchema);

// ---------------------------------------------------------------- pages

/** `draft`: seen only by its author and by those holding wiki.manage; `published`: by the space's readers. */
export const WIKI_PAGE_STATUSES = ['draft', 'published'] as const;
export const WikiPageStatusSchema = z.enum(WIKI_PAGE_STATUSES);
export type WikiPageStatus = z.infer<typeof WikiPageStatusSchema>;

export const WikiPersonSchema = NamedRefSchema;

/** A page as a reference: its id and title. */
export const WikiPageRefSchema = z.object({ id: z.string(), title: z.string() });

/** A page as lists, trees, search and links show it. */
export const WikiPageSummarySchema = z.object({
  id: z.string(),
  title: z.string(),
  spaceKey: WikiSpaceKeySchema,
  spaceName: z.string(),
  parentId: z.string().nullable(),
  /** Order among its siblings, from 0. */
  position: z.number().int().nonnegative(),
  status: WikiPageStatusSchema,
  /** The current revision's number. */
  revision: z.number().int().positive(),
  viewCount: z.number().int().nonnegative(),
  createdBy: WikiPersonSchema,
  updatedBy: WikiPersonSchema,
  createdAt: IsoDateTime,
  updatedAt: IsoDateTime,
  /** When it went to the trash (null when it is not there). */
  deletedAt: IsoDateTime.nullable(),
});
export type WikiPageSummary = z.infer<typeof WikiPageSummarySchema>;

/** A heading of a page, for its table of contents (the server gives every h2–h4 an `id`). */
export const WikiHeadingSchema = z.object({
  /** The heading's anchor: `#<id>` scrolls to it. */
  id: z.string(),
  level: z.number().int().min(2).max(4),
  text: z.string(),
});

/** What the viewer may do with a page (decided by the server). */
export const WikiPageAbilitiesSchema = z.object({
  edit: z.boolean(),
  /** Move to the trash (wiki.delete), and restore from it. */
  delete: z.boolean(),
  /** Move it in the tree, to another parent or space (wiki.manage). */
  move: z.boolean(),
  /** Delete for good from the trash (wiki.manage). */
  purge: z.boolean(),
});

/** A revision as the history lists it. */
export const WikiRevisionSummarySchema = z.object({
  id: z.string(),
  /** From 1, per page. */
  number: z.number().int().positive(),
  title: z.string(),
  /** What the author said changed ("" when they said nothing). */
  summary: z.string(),
  author: WikiPersonSchema,
  createdAt: IsoDateTime,
  /** Characters of HTML. */
  size: z.number().int().nonnegative(),
  /** Set when this revision restored an earlier one: that one's number. */
  restoredFrom: z.number().int().positive().nullable(),
  status: WikiPageStatusSchema,
});
export type WikiRevisionSummary = z.infer<typeof WikiRevisionSummarySchema>;

/** One page with everything its view shows. */
export const WikiPageSchema = WikiPageSummarySchema.extend({
  /**
   * Sanitised HTML of the current revision. Headings carry ids; links to pages that do not exist
   * (or that the viewer cannot open) carry the class `wiki-link-missing`.
   */
  html: z.string(),
  headings: z.array(WikiHeadingSchema),
  /** From the space's root to the parent. */
  ancestors: z.array(WikiPageRefSchema),
  /** Its children the viewer may open, in order. */
  children: z.array(z.object({ id: z.string(), title: z.string(), status: WikiPageStatusSchema })),
  /** Pages the viewer may open that link to this one. */
  backlinks: z.array(z.object({ id: z.string(), title: z.string(), spaceName: z.string() })),
  currentRevision: WikiRevisionSummarySchema,
  following: z.boolean(),
  followerCount: z.number().int().nonnegative(),
  can: WikiPageAbilitiesSchema,
});
export type WikiPage = z.infer<typeof WikiPageSchema>;

export const WIKI_SORTS = ['updated', 'title', 'views', 'created'] as const;
export const WikiListQuerySchema = PageQuerySchema.extend({
  /** Only pages of this space. */
  space: WikiSpaceKeySchema.optional(),
  /** Words of the title or body (the search index); a title match ranks first. */
  search: z.string().trim().max(200).optional(),
  /** `draft`: the caller's drafts (all drafts with wiki.manage). */
  status: WikiPageStatusSchema.optional(),
  /** Only pages the caller follows. */
  following: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional(),
  /** The trash instead of the wiki (what the caller may restore). */
  trash: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional(),
  sort: z.enum(WIKI_SORTS).default('updated'),
  order: z.enum(['asc', 'desc']).optional(),
});
export type WikiListQuery = z.infer<typeof WikiListQuerySchema>;
export const WikiPageListSchema = pageOf(WikiPageSummarySchema);

/** `GET /api/wiki/tree?space=`: every page of a space the viewer may open, for the tree. */
export const WikiTreeQuerySchema = z.object({ space: WikiSpaceKeySchema });
export const WikiTreeSchema = z.object({
  space: WikiSpaceSchema,
  pages: z.array(
    z.object({
      id: z.string(),
      title: z.string(),
      parentId: z.string().nullable(),
      position: z.number().int().nonnegative(),
      status: WikiPageStatusSchema,
    }),
  ),
  /** More than WIKI_TREE_MAX pages: the rest are reached through the list. */
  truncated: z.boolean(),
});

/**
 * `GET /api/wiki/resolve?space=&title=`: the page a title link names (case-insensitive, within
 * the space). A link to a page that does not exist, or that the viewer cannot open, answers 404,
 * and the web app offers to create it.
 */
export const WikiResolveQuerySchema = z.object({
  space: WikiSpaceKeySchema,
  title: z.string().trim().min(1).max(WIKI_TITLE_MAX),
});
export const WikiResolveSchema = WikiPageRefSchema;

/** A new page (`POST /api/wiki/pages`, wiki.create in its space). Answers 201 with the page. */
export const WikiPageCreateSchema = z.strictObject({
  title: pageTitle,
  space: WikiSpaceKeySchema,
  /** A page of the same space, or null for a top-level page. */
  parentId: id.nullable().default(null),
  html: pageHtml,
  summary: summary.default(''),
  status: WikiPageStatusSchema.default('published'),
});
export type WikiPageCreate = z.input<typeof WikiPageCreateSchema>;

/**
 * A save (`PUT /api/wiki/pages/{pageId}`, wiki.edit). `baseRevision` is the revision the editor
 * started from: when another save came first the answer is 409 `WIKI_EDIT_CONFLICT` whose
 * `details` is a WikiConflict, and nothing is saved. Publishing a draft is a save with
 * `status: 'published'`; a published page does not go back to draft.
 */
export const WikiPageUpdateSchema = z.strictObject({
  baseRevision: revisionNumber,
  title: pageTitle,
  html: pageHtml,
  summary: summary.default(''),
  status: WikiPageStatusSchema.optional(),
});
export type WikiPageUpdate = z.input<typeof WikiPageUpdateSchema>;

/** Moving a page in its space's tree or to another space (`POST …/move`, wiki.manage). */
export const WikiPageMoveSchema = z.strictObject({
  space: WikiSpaceKeySchema,
  parentId: id.nullable(),
  /** Its place among the new siblings, from 0; past the end puts it last. */
  position: z.number().int().min(0).max(100_000),
});

// ---------------------------------------------------------------- conflicts

/**
 * The details of a 409 `WIKI_EDIT_CONFLICT`: the revision that came first and a three-way merge
 * of the base, the caller's text and that revision, block by block (paragraphs, headings, list
 * items, table rows…). Blocks only one side changed are merged on their own; a block both
 * changed differently is a conflict for the person to settle.
 */
export const WikiConflictSchema = z.object({
  baseRevision: z.number().int().positive(),
  current: WikiRevisionSummarySchema.extend({ html: z.string() }),
  /** The caller's HTML as the server would store it (sanitised). */
  mine: z.object({ title: z.string(), html: z.string() }),
  merge: z.object({
    /** Proposed title: the one changed from the base, or theirs when both changed it. */
    title: z.string(),
    blocks: z.array(
      z.discriminatedUnion('kind', [
        z.object({ kind: z.literal('merged'), html: z.string() }),
        z.object({
          kind: z.literal('conflict'),
          /** The block(s) as they were in the base revision (may be ""). */
          base: z.string(),
          mine: z.string(),
          theirs: z.string(),
        }),
      ]),
    ),
    conflicts: z.number().int().nonnegative(),
  }),
});
export type WikiConflict = z.infer<typeof WikiConflictSchema>;

// ---------------------------------------------------------------- revisions and diffs

export const WikiRevisionListSchema = pageOf(WikiRevisionSummarySchema);
/** One old revision (`GET …/revisions/{revisionId}`, by its number), to read or copy. */
export const WikiRevisionSchema = WikiRevisionSummarySchema.extend({ html: z.string() });
export type WikiRevision = z.infer<typeof WikiRevisionSchema>;

export const WikiRevisionParamsSchema = z.object({ pageId: id, revisionId: revisionNumber });

/** `GET /api/wiki/pages/{pageId}/diff?from=&to=` (revision numbers; from may be after to). */
export const WikiDiffQuerySchema = z.object({ from: revisionNumber, to: revisionNumber });

/** A run of words within a changed block. */
export const WikiDiffPartSchema = z.object({
  text: z.string(),
  op: z.enum(['equal', 'insert', 'delete']),
});
/**
 * One block of the compared revisions, as plain text. `equal`: the same in both; `insert`: only
 * in `to`; `delete`: only in `from`; `change`: a block in both whose words differ, with the
 * word-level `parts` (the `diff` package's diffWords). Side by side shows `from` on the left and
 * `to` on the right; inline shows the parts.
 */
export const WikiDiffBlockSchema = z.object({
  op: z.enum(['equal', 'insert', 'delete', 'change']),
  /** The block's tag (`p`, `h2`, `li`, `tr`, `pre`…), to style it. */
  tag: z.string(),
  from: z.string().nullable(),
  to: z.string().nullable(),
  parts: z.array(WikiDiffPartSchema),
});
export const WikiDiffSchema = z.object({
  from: WikiRevisionSummarySchema,
  to: WikiRevisionSummarySchema,
  /** Set when the title differs. */
  title: z.object({ from: z.string(), to: z.string() }).nullable(),
  blocks: z.array(WikiDiffBlockSchema),
  stats: z.object({
    insertedWords: z.number().int().nonnegative(),
    deletedWords: z.number().int().nonnegative(),
  }),
});
export type WikiDiff = z.infer<typeof WikiDiffSchema>;

/** Restoring a revision makes a new revision with its title and text (`POST …/restore`). */
export const WikiRestoreRevisionSchema = z.strictObject({
  summary: summary.optional(),
});

// ---------------------------------------------------------------- following

export const WikiFollowSchema = z.object({
  following: z.boolean(),
  followerCount: z.number().int().nonnegative(),
});
