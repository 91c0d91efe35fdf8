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

/** An ISO 8601 instant, always UTC with milliseconds as produced by Date#toISOString. */
export const IsoDateTime = z.iso.datetime({ offset: true });

/**
 * Free text that will be stored: no NUL or other control characters (PostgreSQL cannot store
 * NUL in text at all, and nobody types them), `max` characters at most.
 */
export function storableText(max: number, label = 'This field') {
  return (
    z
      .string()
      .max(max)
      // eslint-disable-next-line no-control-regex -- finding control characters is the point
      .refine((v) => !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(v), {
        message: `${label} contains characters that are not allowed`,
      })
  );
}
