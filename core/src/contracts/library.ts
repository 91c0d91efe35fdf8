/**
 * The library (spec §2 `/library`: library.view; spec §6 library.view, .upload, .edit, .delete,
 * .manage): documents, videos, audio, images and links with a title, a rich-text description,
 * tags, a category and a scope (everyone, a department or a course). Files go through the shared
 * storage: the browser uploads with the tus protocol (`/api/uploads`, resumable) or
 * `POST /api/files`, then names the stored file's id here. Replacing an item's file keeps the
 * earlier versions. See docs/library.md for the rules and the readings of the spec behind them.
 */
import { z } from 'zod';
import { linkUrlSyntax } from '../link-url';
import {
  ExpectedRevisionSchema,
  IsoDateTime,
  NamedRefSchema,
  PageQuerySchema,
  pageOf,
  pageQuery,
  RevisionSchema,
  storableText,
} from './common';
import { SignedUrlQuerySchema } from './files';

// ---------------------------------------------------------------- limits

/** Longest description, in characters of HTML. */
export const LIBRARY_DESCRIPTION_MAX = 100_000;
/** Most tags on one item, and the longest tag. */
export const LIBRARY_TAGS_MAX = 20;
export const LIBRARY_TAG_MAX = 40;

const id = z.string().min(1).max(64);
const title = (label: string, max = 200) =>
  storableText(max, label)
    .trim()
    .min(1, `Enter ${label.toLowerCase()}`)
    .refine((v) => !/[\r\n\t]/.test(v), { message: `${label} must be on one line` });
const description = storableText(LIBRARY_DESCRIPTION_MAX, 'The description').describe(
  'HTML from the rich-text editor; sanitised by the server with an allow-list before it is stored',
);
/** A tag: one line of at most LIBRARY_TAG_MAX characters; stored trimmed and in lower case. */
const tag = storableText(LIBRARY_TAG_MAX, 'A tag')
  .trim()
  .min(1, 'A tag cannot be empty')
  .refine((v) => !/[\r\n\t,]/.test(v), { message: 'A tag is one word or phrase without commas' })
  .transform((v) => v.toLowerCase());
const tags = z
  .array(tag)
  .max(LIBRARY_TAGS_MAX, `At most ${LIBRARY_TAGS_MAX} tags`)
  .transform((list) => [...new Set(list)]);
/**
 * A link item's address: http or https, no user name or password (core's link rule,
 * link-url.ts; the server also refuses internal destinations).
 */
const linkUrl = z
  .string()
  .max(2000)
  .superRefine((value, ctx) => {
    const checked = linkUrlSyntax(value);
    if (!checked.ok) ctx.addIssue({ code: 'custom', message: checked.message });
  });

// ---------------------------------------------------------------- kinds and scopes

/**
 * What an item is. Decided by the server from the stored file's detected type (a link has no
 * file): `document` (PDF, Office, text), `video`, `audio`, `image`, `link`.
 */
export const LIBRARY_ITEM_KINDS = ['document', 'video', 'audio', 'image', 'link'] as const;
export const LibraryItemKindSchema = z.enum(LIBRARY_ITEM_KINDS);
export type LibraryItemKind = z.infer<typeof LibraryItemKindSchema>;

/**
 * Who sees an item: `everyone` who may use the library; the people who may view a `department`
 * (department.view there, e.g. its members); the people who may open a `course`'s content (its
 * participants and editors).
 */
export const LibraryScopeSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('everyone') }),
  z.object({ type: z.literal('department'), departmentId: id }),
  z.object({ type: z.literal('course'), courseId: id }),
]);
export type LibraryScope = z.infer<typeof LibraryScopeSchema>;

/** How far text extraction of the current file got (documents only; `none` for the rest). */
export const LIBRARY_TEXT_STATES = ['none', 'pending', 'extracted', 'failed'] as const;
export const LibraryTextStateSchema = z.enum(LIBRARY_TEXT_STATES);
export type LibraryTextState = z.infer<typeof LibraryTextStateSchema>;

// ---------------------------------------------------------------- items

/** The file of an item's version: the stored file (download with GET /api/files/{fileId}). */
export const LibraryFileSchema = z.object({
  fileId: z.string(),
  name: z.string(),
  /** Detected from the content. */
  mime: z.string(),
  size: z.number().int().nonnegative(),
  /** `GET /api/files/{fileId}/thumbnail` has a preview picture (images, and PDFs' first page). */
  hasThumbnail: z.boolean(),
  /**
   * The file's download route signed for the viewer's session (`/api/files/{fileId}?exp&sid&sig`),
   * usable in `<img>`, `<video>`, `<audio>` and links, which cannot send the bearer token; video
   * and audio seek through it with HTTP Range. Optional: without it the web app fetches the file
   * with the token (the whole file, as a blob).
   */
  url: z.string().optional(),
  /** The thumbnail's route signed the same way; absent or null when there is none. */
  thumbnailUrl: z.string().nullable().optional(),
});
export type LibraryFile = z.infer<typeof LibraryFileSchema>;

export const LibraryCategorySchema = z.object({
  id: z.string(),
  name: z.string(),
  /** Items in it that are not in the trash (all of them, whoever may see them). */
  itemCount: z.number().int().nonnegative(),
});
export type LibraryCategory = z.infer<typeof LibraryCategorySchema>;
/** The categories: all of them at the default size. */
export const LibraryCategoryListQuerySchema = pageQuery({ defaultSize: 200, maxSize: 200 });
export const LibraryCategoryListSchema = pageOf(LibraryCategorySchema);
export const LibraryCategoryInputSchema = z.strictObject({
  name: title('The name', 80),
});

/** What the viewer may do with an item (decided by the server). */
export const LibraryItemAbilitiesSchema = z.object({
  edit: z.boolean(),
  delete: z.boolean(),
  /** Restore from the trash (the same people who may delete it). */
  restore: z.boolean(),
  /** Delete for good (library.manage; only from the trash). */
  purge: z.boolean(),
});

/** An item as the list shows it. */
export const LibraryItemSummarySchema = z.object({
  id: z.string(),
  kind: LibraryItemKindSchema,
  title: z.string(),
  tags: z.array(z.string()),
  category: NamedRefSchema.nullable(),
  scope: LibraryScopeSchema,
  /** The department's name or the course's title of a scoped item, for display. */
  scopeLabel: z.string().nullable(),
  /** The current file (null for a link). */
  file: LibraryFileSchema.nullable(),
  /** A link's address (null for a file). */
  url: z.string().nullable(),
  /** The current version's number, from 1. */
  version: z.number().int().positive(),
  textState: LibraryTextStateSchema,
  viewCount: z.number().int().nonnegative(),
  downloadCount: z.number().int().nonnegative(),
  createdBy: NamedRefSchema,
  createdAt: IsoDateTime,
  updatedAt: IsoDateTime,
  /** When it went to the trash (null when it is not there). */
  deletedAt: IsoDateTime.nullable(),
});
export type LibraryItemSummary = z.infer<typeof LibraryItemSummarySchema>;

/** One item with everything its page shows. */
export const LibraryItemSchema = LibraryItemSummarySchema.extend({
  /** Sanitised HTML. */
  descriptionHtml: z.string(),
  /** Why the text of the current document could not be extracted (`failed`), in words. */
  textError: z.string().nullable(),
  deletedBy: NamedRefSchema.nullable(),
  /** Changes with every PATCH (a new version included); PATCH sends it back. */
  revision: RevisionSchema,
  can: LibraryItemAbilitiesSchema,
  /**
   * The current file's download route (`/api/library/items/{itemId}/download`, which counts the
   * download) signed for the viewer's session, for a plain link; null for an item in the trash.
   */
  downloadUrl: z.string().nullable().optional(),
});
export type LibraryItem = z.infer<typeof LibraryItemSchema>;

export const LIBRARY_SORTS = ['updated', 'title', 'created', 'views', 'downloads'] as const;
export const LibrarySortSchema = z.enum(LIBRARY_SORTS);
export type LibrarySort = z.infer<typeof LibrarySortSchema>;

export const LibraryListQuerySchema = PageQuerySchema.extend({
  kind: LibraryItemKindSchema.optional(),
  categoryId: id.optional(),
  tag: z.string().trim().max(LIBRARY_TAG_MAX).optional(),
  /** `everyone`, `department` or `course`: only items of that kind of scope. */
  scope: z.enum(['everyone', 'department', 'course']).optional(),
  departmentId: id.optional(),
  courseId: id.optional(),
  /** Only items the caller added. */
  mine: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional(),
  /** The trash instead of the library (what the caller may restore). */
  trash: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional(),
  /** Words in the title, description, tags or the document's text (the search index). */
  search: z.string().trim().max(200).optional(),
  sort: LibrarySortSchema.default('updated'),
  order: z.enum(['asc', 'desc']).optional(),
});
export type LibraryListQuery = z.infer<typeof LibraryListQuerySchema>;

export const LibraryListSchema = pageOf(LibraryItemSummarySchema).extend({
  /** Whether the caller may add items (library.upload) and manage categories and the trash. */
  canUpload: z.boolean(),
  canManage: z.boolean(),
});
export type LibraryList = z.infer<typeof LibraryListSchema>;

/** A new item: a stored file the caller uploaded (`fileId`), or a link (`url`). */
export const LibraryItemCreateSchema = z
  .strictObject({
    title: title('The title'),
    descriptionHtml: description.optional(),
    tags: tags.optional(),
    categoryId: id.nullable().optional(),
    scope: LibraryScopeSchema,
    /** The caller's own unattached upload (POST /api/files or /api/uploads). */
    fileId: id.optional(),
    url: linkUrl.optional(),
  })
  .refine((v) => (v.fileId === undefined) !== (v.url === undefined), {
    message: 'Give either a file or a web address',
    path: ['fileId'],
  });
export type LibraryItemCreate = z.input<typeof LibraryItemCreateSchema>;

/**
 * Changes to an item. `fileId` replaces its file with the caller's own upload and makes a new
 * version; the earlier versions are kept.
 */
export const LibraryItemUpdateSchema = z.strictObject({
  title: title('The title').optional(),
  descriptionHtml: description.optional(),
  tags: tags.optional(),
  categoryId: id.nullable().optional(),
  scope: LibraryScopeSchema.optional(),
  fileId: id.optional(),
  url: linkUrl.optional(),
  /** The revision the change is based on: 409 when someone else changed the item since. */
  revision: ExpectedRevisionSchema,
});
export type LibraryItemUpdate = z.input<typeof LibraryItemUpdateSchema>;

export const LibraryItemParamsSchema = z.object({ itemId: id });
export const LibraryCategoryParamsSchema = z.object({ categoryId: id });

/** One version of an item's file, newest first in the list. */
export const LibraryVersionSchema = z.object({
  id: z.string(),
  version: z.number().int().positive(),
  file: LibraryFileSchema,
  createdBy: NamedRefSchema,
  createdAt: IsoDateTime,
  textState: LibraryTextStateSchema,
  textError: z.string().nullable(),
  /** The version the item shows now. */
  current: z.boolean(),
  /** This version's download route signed for the viewer's session (as the item's). */
  downloadUrl: z.string().nullable().optional(),
});
export type LibraryVersion = z.infer<typeof LibraryVersionSchema>;
/** An item's versions, newest first: all of them at the default size. */
export const LibraryVersionListQuerySchema = pageQuery({ defaultSize: 100, maxSize: 100 });
export const LibraryVersionListSchema = pageOf(LibraryVersionSchema);

/** `GET /api/library/items/{itemId}/download?version=`: that version's file (the current one by default). */
export const LibraryDownloadQuerySchema = SignedUrlQuerySchema.extend({
  version: z.coerce.number().int().positive().max(1_000_000).optional(),
});
