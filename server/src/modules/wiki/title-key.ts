/**
 * A page title folded for matching (docs/wiki.md, "Links"): compatibility forms unified (NFKC:
 * a full-width letter, a ligature or a non-breaking space is its plain form), case folded, runs
 * of whitespace one space, no space at the ends. Two titles with the same key are the same title
 * in a space (the unique index `wiki_pages_space_title`), and a link by title finds its page by it.
 */
export function titleKey(title: string): string {
  return title.normalize('NFKC').toLowerCase().normalize('NFKC').replace(/\s+/gu, ' ').trim();
}
