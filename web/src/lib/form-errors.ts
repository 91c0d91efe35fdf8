/**
 * The one way a form turns a contract's complaints into messages under its fields: zod's issues
 * when the form checks its values against a core schema before sending, and the server's 400
 * `VALIDATION_ERROR` (`details.issues`, `{ path: 'body.name', message }`) when the server refuses
 * what was sent. Each field shows the first message about it. Forms built with Mantine's
 * `useForm` pass `validateWith(schema)` as `validate` and call `showServerErrors(form, error)`
 * when the request fails; other forms keep `fieldErrors(…)` in their state.
 */
import type { z } from 'zod';

/** The first message per top-level field; `''` holds a message about the whole form. */
export type FieldErrors = Record<string, string>;

interface Issue {
  path: readonly PropertyKey[] | string;
  message: string;
}

/** Where the server says a value came from (`body.name`): not part of the field's name. */
const REQUEST_PARTS = new Set(['body', 'query', 'params', 'querystring', 'headers']);

/** An issue's path as names (`['settings', 'url']`), without the server's request part. */
function pathOf(path: Issue['path']): string[] {
  if (typeof path !== 'string') return path.map(String);
  const parts = path.split('.').filter(Boolean);
  return parts.length > 1 && REQUEST_PARTS.has(parts[0] as string) ? parts.slice(1) : parts;
}

/** By default a field is the first name of the path (`''` for the whole value). */
const topLevel = (path: readonly string[]) => path[0] ?? '';

function isIssue(value: unknown): value is Issue {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.message === 'string' && (typeof v.path === 'string' || Array.isArray(v.path));
}

/** The issues of a zod error, of an API error's `details`, or of a list of issues. */
function issuesOf(source: unknown): Issue[] {
  if (Array.isArray(source)) return source.filter(isIssue);
  if (typeof source !== 'object' || source === null) return [];
  const s = source as { issues?: unknown; details?: unknown };
  if (Array.isArray(s.issues)) return s.issues.filter(isIssue);
  if (typeof s.details === 'object' && s.details !== null) return issuesOf(s.details);
  return [];
}

/**
 * The field errors of a zod error (or its issues) or of an API error: the first message per
 * field. An API error with no issues gives none (its message is the form's to show). A form whose
 * fields are nested names its field for a path with `fieldOf` (the provider form).
 */
export function fieldErrors(
  source: unknown,
  fieldOf: (path: readonly string[]) => string = topLevel,
): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issuesOf(source)) {
    const field = fieldOf(pathOf(issue.path));
    if (!(field in errors)) errors[field] = issue.message;
  }
  return errors;
}

/** The field errors of `value` checked against a contract (none when it passes). */
export function contractErrors(schema: z.ZodType, value: unknown): FieldErrors {
  const parsed = schema.safeParse(value);
  return parsed.success ? {} : fieldErrors(parsed.error);
}

/** Every message, in order (a list field names each bad entry: the allowed link hosts). */
export function errorMessages(source: unknown): string[] {
  return issuesOf(source).map((issue) => issue.message);
}

/** The first message of a set of field errors (a form with one field shows only that). */
export function firstError(errors: FieldErrors): string | null {
  return Object.values(errors)[0] ?? null;
}

/**
 * A Mantine `validate` that checks the form's values against a contract, after `toPayload` when
 * the form's values are not the request's shape.
 */
export function validateWith<Values>(
  schema: z.ZodType,
  toPayload: (values: Values) => unknown = (values) => values,
): (values: Values) => FieldErrors {
  return (values) => contractErrors(schema, toPayload(values));
}

interface FormWithErrors {
  getValues(): object;
  setErrors(errors: FieldErrors): void;
}

/**
 * Puts the server's field errors of a failed request under the form's fields. True when it put
 * any there; false when the error names no field of the form (the caller shows its message).
 */
export function showServerErrors(form: FormWithErrors, error: unknown): boolean {
  const values = form.getValues();
  const errors = Object.fromEntries(
    Object.entries(fieldErrors(error)).filter(([field]) => field in values),
  );
  if (Object.keys(errors).length === 0) return false;
  form.setErrors(errors);
  return true;
}
