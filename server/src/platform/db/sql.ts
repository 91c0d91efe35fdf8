/** SQL helpers every repository uses. */

/** `%text%` for LIKE, with the wildcards of the text escaped (used with `escape '\'`). */
export function likePattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
