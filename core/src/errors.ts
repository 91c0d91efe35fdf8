/**
 * One error type across the boundary (docs/architecture.md): `AppError(code, message, details)`,
 * and the error-code catalogue with each code's HTTP status and spec §8 category and severity.
 */

export type ErrorCategory =
  | 'logo'
  | 'auth'
  | 'console'
  | 'department'
  | 'navigation'
  | 'performance'
  | 'accessibility'
  | 'browser'
  | 'ui'
  | 'data'
  | 'security'
  | 'config';

export type ErrorSeverity = 'Low' | 'Medium' | 'High';

interface ErrorCodeInfo {
  status: number;
  category: ErrorCategory;
  severity: ErrorSeverity;
}

/** Every error code the API returns, with its HTTP status, category and severity. */
export const ERROR_CODES = {
  VALIDATION_ERROR: { status: 400, category: 'data', severity: 'Low' },
  INVALID_JSON: { status: 400, category: 'data', severity: 'Low' },
  BAD_REQUEST: { status: 400, category: 'data', severity: 'Low' },
  PASSWORD_POLICY: { status: 400, category: 'auth', severity: 'Low' },
  INVALID_CURRENT_PASSWORD: { status: 400, category: 'auth', severity: 'Medium' },
  INVALID_CREDENTIALS: { status: 401, category: 'auth', severity: 'Medium' },
  ACCOUNT_DISABLED: { status: 403, category: 'auth', severity: 'Medium' },
  UNAUTHENTICATED: { status: 401, category: 'auth', severity: 'Medium' },
  SESSION_EXPIRED: { status: 401, category: 'auth', severity: 'Low' },
  PASSWORD_CHANGE_REQUIRED: { status: 403, category: 'auth', severity: 'Medium' },
  FORBIDDEN: { status: 403, category: 'security', severity: 'Medium' },
  NOT_FOUND: { status: 404, category: 'navigation', severity: 'Low' },
  METHOD_NOT_ALLOWED: { status: 405, category: 'navigation', severity: 'Low' },
  REQUEST_TIMEOUT: { status: 408, category: 'performance', severity: 'Low' },
  CONFLICT: { status: 409, category: 'data', severity: 'Low' },
  /**
   * A wiki save based on a revision that is no longer the page's latest; `details` is a
   * WikiConflict (the revision that came first and a block-level merge).
   */
  WIKI_EDIT_CONFLICT: { status: 409, category: 'data', severity: 'Low' },
  /** A request without a precondition the protocol requires (tus: no Tus-Resumable). */
  PRECONDITION_FAILED: { status: 412, category: 'data', severity: 'Low' },
  PAYLOAD_TOO_LARGE: { status: 413, category: 'data', severity: 'Low' },
  /** An uploaded file over the size limit (the upload is refused while it streams). */
  FILE_TOO_LARGE: { status: 413, category: 'data', severity: 'Low' },
  /**
   * An upload that does not fit in the uploader's storage limits (bytes not yet attached to
   * anything, or all the bytes they store); the message names the limit.
   */
  UPLOAD_QUOTA_EXCEEDED: { status: 413, category: 'data', severity: 'Low' },
  /** An uploaded file with no content (refused before anything is stored). */
  FILE_EMPTY: { status: 400, category: 'data', severity: 'Low' },
  /**
   * An uploaded file whose name's extension claims a type its content is not (`report.pdf` that
   * is plain text); the message says what the content is.
   */
  FILE_TYPE_MISMATCH: { status: 415, category: 'data', severity: 'Low' },
  URI_TOO_LONG: { status: 414, category: 'data', severity: 'Low' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, category: 'data', severity: 'Low' },
  /** A `Range` header outside the file (HTTP 416). */
  RANGE_NOT_SATISFIABLE: { status: 416, category: 'data', severity: 'Low' },
  TOO_MANY_ATTEMPTS: { status: 429, category: 'security', severity: 'High' },
  RATE_LIMITED: { status: 429, category: 'security', severity: 'Medium' },
  HEADERS_TOO_LARGE: { status: 431, category: 'data', severity: 'Low' },
  AUTH_METHOD_DISABLED: { status: 400, category: 'config', severity: 'Medium' },
  INVALID_AUTH_METHOD: { status: 400, category: 'config', severity: 'Medium' },
  SERVICE_UNAVAILABLE: { status: 503, category: 'data', severity: 'High' },
  /**
   * The server's disk (or the database's) is full: nothing of the request was kept; the person
   * may try again later or tell an administrator (HTTP 507 Insufficient Storage).
   */
  INSUFFICIENT_STORAGE: { status: 507, category: 'data', severity: 'High' },
  INTERNAL_ERROR: { status: 500, category: 'console', severity: 'High' },
  NETWORK_ERROR: { status: 0, category: 'data', severity: 'High' },
} as const satisfies Record<string, ErrorCodeInfo>;

export type ErrorCode = keyof typeof ERROR_CODES;

/**
 * The message of the `409 CONFLICT` that refuses a change sent with a `revision` the thing is no
 * longer at: someone else changed it first, and nothing of this change was kept
 * (docs/architecture.md, "Two people editing at once").
 */
export const STALE_REVISION_MESSAGE =
  'Someone else changed this since you opened it. Reload to see their changes.';

/** Whether an error body is the refusal of a stale revision (STALE_REVISION_MESSAGE). */
export function isStaleRevision(body: { code?: unknown; message?: unknown } | null | undefined) {
  return body?.code === 'CONFLICT' && body.message === STALE_REVISION_MESSAGE;
}

/** The body of every error response: `{ code, message, details? }`. */
export interface ErrorBody {
  code: string;
  message: string;
  details?: unknown;
}

/** The one error type. `status` comes from the catalogue. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: unknown;

  constructor(code: ErrorCode, message: string, details?: unknown) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.status = ERROR_CODES[code].status;
    this.details = details;
  }

  toBody(): ErrorBody {
    return this.details === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, details: this.details };
  }
}

/** True for a known error code. */
export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && Object.hasOwn(ERROR_CODES, code);
}

/** What the error page shows (spec §8), chosen by words in the error text. */
export interface ErrorPageKind {
  title: string;
  code: string;
  category: ErrorCategory;
  severity: ErrorSeverity;
}

const ERROR_PAGE_RULES: readonly { words: readonly string[]; kind: ErrorPageKind }[] = [
  {
    words: ['department', 'chunk'],
    kind: {
      title: 'Department Page Error',
      code: 'DEPT_001',
      category: 'department',
      severity: 'Medium',
    },
  },
  {
    words: ['navigation', 'route'],
    kind: {
      title: 'Navigation Error',
      code: 'NAV_001',
      category: 'navigation',
      severity: 'Medium',
    },
  },
  {
    words: ['network', 'fetch', 'api'],
    kind: { title: 'Connection Error', code: 'DATA_001', category: 'data', severity: 'High' },
  },
  {
    words: ['memory', 'performance'],
    kind: {
      title: 'Performance Error',
      code: 'PERF_001',
      category: 'performance',
      severity: 'Medium',
    },
  },
  {
    words: ['react', 'component'],
    kind: { title: 'Component Error', code: 'REACT_001', category: 'ui', severity: 'Medium' },
  },
];

const UNKNOWN_KIND: ErrorPageKind = {
  title: 'Something Went Wrong',
  code: 'UNKNOWN_001',
  category: 'console',
  severity: 'Medium',
};

/** The sentence every error page shows (spec §8). */
export const ERROR_PAGE_SUPPORT_TEXT =
  'If this problem persists, please refresh the page or contact support.';

/** Picks the error page's title and code from the error text, in the order of spec §8. */
export function classifyErrorForPage(text: string): ErrorPageKind {
  const lower = text.toLowerCase();
  for (const rule of ERROR_PAGE_RULES) {
    if (rule.words.some((w) => lower.includes(w))) return rule.kind;
  }
  return UNKNOWN_KIND;
}
