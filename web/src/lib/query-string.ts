/**
 * The one query-string builder of the web app, for API calls and in-app links alike:
 * `?a=1&b=x` from the values that say something (undefined, null, '' and false are left out),
 * or '' when none does. Values are encoded as a form is (`URLSearchParams`: a space is `+`), but
 * a colon stays as written, so a wiki space reads `?space=department:network-engineering`.
 */
export type QueryParams = Readonly<Record<string, string | number | boolean | null | undefined>>;

export function queryString(params: QueryParams): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '' || value === false) continue;
    search.set(key, String(value));
  }
  const text = search.toString().replaceAll('%3A', ':');
  return text ? `?${text}` : '';
}
