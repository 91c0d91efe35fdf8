/**
 * The "next" page remembered across sign-in and the forced password change. Only a same-origin
 * relative path starting with a single '/' is accepted; anything else becomes '/'.
 */
export function safeNextPath(
  raw: string | null | undefined,
  origin = window.location.origin,
): string {
  if (!raw || !raw.startsWith('/') || raw.startsWith('//') || raw.includes('\\')) return '/';
  // Control characters (tab, newline) are stripped by URL parsers and could smuggle a host.
  if ([...raw].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f)) return '/';
  try {
    const url = new URL(raw, origin);
    if (url.origin !== origin) return '/';
    const path = `${url.pathname}${url.search}${url.hash}`;
    if (url.pathname === '/login' || url.pathname === '/learning/logout') return '/';
    return path;
  } catch {
    return '/';
  }
}

/** `/login?next=…` for a location. */
export function loginPathFor(pathname: string, search = ''): string {
  return `/login?next=${encodeURIComponent(`${pathname}${search}`)}`;
}
