/**
 * CSV for exports (RFC 4180), one way for every area: the gradebook, an announcement's
 * recipients. UTF-8 with a byte-order mark (`CSV_BOM`) so spreadsheets read names right.
 */

/** Starts a CSV file: spreadsheets read the rest as UTF-8. */
export const CSV_BOM = '\ufeff';

/**
 * A CSV cell. Text is always quoted, quotes doubled, and a character a spreadsheet would start a
 * formula with (= + - @, a tab or CR) gets a `'` before it wherever a cell could begin: at the
 * start, and after `;`, `,`, a tab or a line break (a spreadsheet in a locale that splits on `;`
 * reads `Ann;=1+1` as two cells). A number is written as it is; null is empty.
 */
export function csvCell(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const safe = value.replace(/(^|[;,\t\r\n])([=+\-@\t\r])/g, "$1'$2");
  return `"${safe.replace(/"/g, '""')}"`;
}

/** One line of cells, ended by CRLF. */
export const csvLine = (cells: readonly (string | number | null)[]) =>
  `${cells.map(csvCell).join(',')}\r\n`;
