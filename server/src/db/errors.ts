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
