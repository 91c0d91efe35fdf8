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
