/**
 * Recognising the database's own refusals, the same on SQLite and PostgreSQL, so a domain can
 * turn a lost race into a clear answer (e.g. a unique key → 409) instead of a 500.
 */

/** A unique constraint refused the write (SQLite SQLITE_CONSTRAINT_UNIQUE / PostgreSQL 23505). */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  return (
    code === '23505' ||
    code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
  );
}

/**
 * The primary key of `table` refused the write: a row with that id is already there (SQLite
 * SQLITE_CONSTRAINT_PRIMARYKEY; PostgreSQL 23505 on `<table>_pkey`, the name it gives a primary
 * key made with the table). Tells a lost race for an id from a clash on another unique column.
 */
export function isPrimaryKeyViolation(error: unknown, table: string): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, constraint, message } = error as {
    code?: unknown;
    constraint?: unknown;
    message?: unknown;
  };
  if (code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
    // 'UNIQUE constraint failed: courses.id'
    return typeof message === 'string' && message.includes(` ${table}.`);
  }
  return code === '23505' && constraint === `${table}_pkey`;
}

/** What a request is told while the database is away (with 503 and Retry-After). */
export const DATABASE_UNAVAILABLE_MESSAGE =
  'The database is not reachable right now. Try again in a few seconds.';

/** Node's socket errors that mean the database server cannot be reached or went away. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/**
 * PostgreSQL's refusals of a connection it is about to end or cannot take yet: 57P01 (ended by an
 * administrator: a fast shutdown or restart), 57P02 (crash shutdown), 57P03 (starting up or shutting
 * down), 53300 (too many connections).
 */
const POSTGRES_UNAVAILABLE = new Set(['57P01', '57P02', '57P03', '53300']);

/** node-postgres's own words for a connection that broke, was ended, or could not be made in time. */
const POSTGRES_CONNECTION_MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect/,
  /^Client has encountered a connection error and is not queryable/,
  /^Client was closed and is not queryable/,
];

/**
 * The database cannot be used right now, whatever the query: the server is down, restarting,
 * unreachable or its connection broke (PostgreSQL: socket errors, SQLSTATE class 08, 57P01–57P03,
 * node-postgres's "Connection terminated" and its connect timeout), or SQLite stayed locked past
 * its busy timeout or failed to read or write its file (SQLITE_BUSY, SQLITE_IOERR). Such a failure
 * says nothing about the request: the same request may well succeed a few seconds later, so it is
 * answered 503 with Retry-After (plugins/errors.ts), and background work waits it out.
 * Looks through `cause` and an AggregateError's `errors` (a refused connection to each address of
 * a host name).
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 4) return false;
  const { code, message, cause, errors } = error as {
    code?: unknown;
    message?: unknown;
    cause?: unknown;
    errors?: unknown;
  };
  if (typeof code === 'string') {
    if (SOCKET_CODES.has(code) || POSTGRES_UNAVAILABLE.has(code)) return true;
    if (/^08[0-9A-Z]{3}$/.test(code)) return true;
    if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_IOERR')) return true;
  }
  if (typeof message === 'string' && POSTGRES_CONNECTION_MESSAGES.some((re) => re.test(message))) {
    return true;
  }
  if (Array.isArray(errors) && errors.some((e) => isDatabaseUnavailable(e, depth + 1))) return true;
  return cause !== undefined && isDatabaseUnavailable(cause, depth + 1);
}
