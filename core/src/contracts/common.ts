import { z } from 'zod';

/** The body of every error response. */
export const ErrorBodySchema = z.object({
  /** Machine-readable code from the error catalogue, UPPER_SNAKE. */
  code: z.string(),
  /** Human-readable message, safe to show. */
  message: z.string(),
  /** Extra data, e.g. validation issues with field paths. */
  details: z.unknown().optional(),
});

// ---------------------------------------------------------------- paged lists

/** Highest page number a list accepts (a guard against absurd offsets, not a real limit). */
export const PAGE_MAX = 100_000;

/**
 * The query of every list: `page` (1-based) and `pageSize`, with the list's default and cap.
 * Every list of the API pages this way (docs/architecture.md, "Lists").
 */
export function pageQuery(options: { defaultSize?: number; maxSize?: number } = {}) {
  const { defaultSize = 25, maxSize = 100 } = options;
  return z.object({
    page: z.coerce.number().int().min(1).max(PAGE_MAX).default(1),
    pageSize: z.coerce.number().int().min(1).max(maxSize).default(defaultSize),
  });
}

/** The usual list query: 25 a page by default, 100 at most. */
export const PageQuerySchema = pageQuery();
export type PageQuery = z.infer<typeof PageQuerySchema>;

/** The body of every list: one page of `items`, how many there are in all, and the page asked for. */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    total: z.number().int().nonnegative(),
    page: z.number().int(),
    pageSize: z.number().int(),
  });
}

/** One page of a list (the shape `pageOf` describes). */
export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
}

/** Something by its id and the name to show: a person, a category. */
export const NamedRefSchema = z.object({ id: z.string(), name: z.string() });
export type NamedRef = z.infer<typeof NamedRefSchema>;

/** An ISO 8601 instant, always UTC with milliseconds as produced by Date#toISOString. */
export const IsoDateTime = z.iso.datetime({ offset: true });

// ---------------------------------------------------------------- revisions

/**
 * A thing's revision in an answer: 1 when it is made, one more with every change to it. Two people
 * editing at once: docs/architecture.md, "Two people editing at once".
 */
export const RevisionSchema = z
  .number()
  .int()
  .describe('1 when made, one more with every change; send it back with a change');

/**
 * The revision a change is based on (the one the client read): the change applies only while the
 * thing is still at it, else `409 CONFLICT` (STALE_REVISION_MESSAGE) and nothing is changed.
 */
export const ExpectedRevisionSchema = z
  .number()
  .int()
  .nonnegative()
  // The column is a 32-bit integer on PostgreSQL: a larger number could never match, and
  // comparing with one is an error there, not a 409.
  .max(2_147_483_647)
  .describe('The revision the change is based on; 409 when the thing has changed since');

// ---------------------------------------------------------------- characters refused in text

/**
 * C0 and C1 control characters and DEL. Nobody types them; PostgreSQL cannot store NUL in text.
 * Tab, line feed and carriage return are left to each field: long free text may hold them.
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL_EXCEPT_LINE_BREAKS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

/** Every control character, line breaks and tabs included, and the Unicode line/paragraph separators. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL_OR_LINE_BREAK = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/**
 * Characters that reorder how the text around them is displayed: the bidirectional embedding,
 * override and isolate controls (U+202A–U+202E, U+2066–U+2069). `"\u202egnp.exe"` displays as
 * "exe.png", and an unclosed override can spill into the text that follows it on the page.
 */
const BIDI_REORDERING = /[\u202a-\u202e\u2066-\u2069]/;

/**
 * The reordering controls plus the invisible direction marks (LRM U+200E, RLM U+200F, ALM
 * U+061C). A one-line name or label in any script displays correctly without them, so in such a
 * field an invisible direction character can only be a disguise. Longer free text keeps the marks
 * (they reorder nothing beyond themselves); see `storableText`.
 */
const BIDI_CONTROL = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/**
 * A UTF-16 surrogate without its partner: not a character at all. It cannot be encoded as UTF-8,
 * so the database would silently store U+FFFD instead (or refuse the row).
 */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Whether `value` contains a surrogate code unit that is not half of a pair. */
export function hasLoneSurrogate(value: string): boolean {
  return LONE_SURROGATE.test(value);
}

/** Whether `value` contains a bidirectional control or direction mark (see BIDI_CONTROL). */
export function hasBidiControl(value: string): boolean {
  return BIDI_CONTROL.test(value);
}

/**
 * Free text that will be stored: no NUL or other control characters (tab and line breaks
 * allowed), no text-reordering bidirectional controls and no broken surrogates, `max`
 * characters at most. For names and labels use `identityText`, which is stricter.
 */
export function storableText(max: number, label = 'This field') {
  return z
    .string()
    .max(max)
    .refine((v) => !CONTROL_EXCEPT_LINE_BREAKS.test(v), { message: controlMessage(label) })
    .refine((v) => !BIDI_REORDERING.test(v), { message: bidiMessage(label) })
    .refine((v) => !LONE_SURROGATE.test(v), { message: surrogateMessage(label) });
}

/** The same words as storableText's, for the same kind of refusal (control characters). */
const controlMessage = (label: string) => `${label} contains characters that are not allowed`;
const bidiMessage = (label: string) =>
  `${label} must not contain invisible characters that change the text direction (such as U+202E).`;
const surrogateMessage = (label: string) =>
  `${label} contains a broken character (an unpaired UTF-16 surrogate).`;

/**
 * Why `value` is refused as a name, label or other one-line identity text, or null. The checks
 * of `identityText`, for code that receives such text from elsewhere than a request body.
 */
export function identityTextProblem(value: string, label: string): string | null {
  if (CONTROL_OR_LINE_BREAK.test(value)) return controlMessage(label);
  if (BIDI_CONTROL.test(value)) return bidiMessage(label);
  if (LONE_SURROGATE.test(value)) return surrogateMessage(label);
  return null;
}

/**
 * Cleans identity text that arrives from a directory, Moodle or an identity provider, whose
 * values we do not choose: drops control characters, bidirectional controls and broken
 * surrogates, normalises to NFC, collapses runs of white space, trims, and cuts to `max`
 * characters (never inside a surrogate pair). The result passes `identityText` unless it is empty.
 */
export function sanitiseIdentityText(value: string, max = 100): string {
  const cleaned = value
    .replace(new RegExp(LONE_SURROGATE.source, 'g'), '')
    .replace(new RegExp(CONTROL_OR_LINE_BREAK.source, 'g'), ' ')
    .replace(new RegExp(BIDI_CONTROL.source, 'g'), '')
    .normalize('NFC')
    .replace(/\s+/g, ' ')
    .trim();
  if (cleaned.length <= max) return cleaned;
  let cut = cleaned.slice(0, max);
  if (/[\ud800-\udbff]$/.test(cut)) cut = cut.slice(0, -1);
  return cut.normalize('NFC').trim();
}

export interface IdentityTextOptions {
  /** Most characters (UTF-16 code units) after normalisation; default 100. */
  max?: number;
  /** Fewest characters after trimming; default 1 (required). */
  min?: number;
}

/**
 * Text with none of the characters `identityTextProblem` refuses, kept exactly as given (no
 * trimming, no normalisation): for identifiers that are looked up as typed, such as the username
 * of a sign-in.
 */
export function identityCharacters(label: string) {
  return z.string().superRefine((value, ctx) => {
    const problem = identityTextProblem(value, label);
    if (problem) ctx.addIssue({ code: 'custom', message: problem, abort: true });
  });
}

/**
 * A one-line free-text identity field — a person's first or last name, a department, a role's
 * display name, a provider's label. Refused with a 400 whose message names the field: control
 * characters (tabs and line breaks too), bidirectional controls and direction marks
 * (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C) and unpaired surrogates. Accepted text
 * is normalised to NFC and trimmed, so what is stored is what is shown and compared. Every other
 * Unicode character (any script, emoji, joiners) is welcome.
 */
export function identityText(label: string, options: IdentityTextOptions = {}) {
  const { max = 100, min = 1 } = options;
  return z
    .string({
      error: (issue) =>
        issue.input === undefined ? `${label} is required` : `${label} must be text`,
    })
    .pipe(identityCharacters(label))
    .transform((value) => value.normalize('NFC').trim())
    .pipe(
      z
        .string()
        .min(min, min <= 1 ? `${label} is required` : `${label} must be at least ${min} characters`)
        .max(max, `${label} must be at most ${max} characters`),
    );
}

/** A person's first or last name: identity text of 1 to 100 characters. */
export function personName(label: string) {
  return identityText(label, { max: 100 });
}

/** Longest department name (department names come from admins, the command line and directories). */
export const DEPARTMENT_NAME_MAX = 200;

/** A department's name: identity text of 1 to 200 characters. */
export function departmentName(label = 'Department') {
  return identityText(label, { max: DEPARTMENT_NAME_MAX });
}
