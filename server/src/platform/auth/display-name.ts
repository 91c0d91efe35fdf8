/**
 * A person's name as every part of the app shows it (docs/architecture.md, "Glossary"): first and
 * last name, else the username (an account a directory gave no names).
 */
export function displayName(person: {
  firstname: string | null;
  lastname: string | null;
  username: string | null;
}): string {
  return `${person.firstname ?? ''} ${person.lastname ?? ''}`.trim() || (person.username ?? '');
}
