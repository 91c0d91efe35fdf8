/**
 * The address of a link (a library item's `url`), the part of the rule that needs no settings:
 * shared by the contract (so the web form says it before sending) and the server, which adds the
 * part about where the address goes (server/src/modules/library/link-address.ts: no loopback, private,
 * link-local or otherwise non-public destination unless an admin allows the host). See
 * docs/library.md, "Links".
 *
 * Addresses are read the way a browser reads them (WHATWG URL parsing), so what is checked is the
 * host the browser would go to: `http://127.1`, `http://0x7f000001` and `http://2130706433` all
 * are `127.0.0.1`.
 */

export const LINK_URL_MESSAGES = {
  invalid: 'Enter a web address starting with http:// or https://',
  credentials: 'A web address cannot carry a user name or password (user:password@…).',
  notPublic: (host: string) =>
    `“${host}” is not a public address: links may not go to this server, its network or other internal addresses. An admin can allow internal hosts under Admin → System.`,
  badHost: (entry: string) =>
    `“${entry}” is not a host name or IP address (no scheme, port, path or user name).`,
} as const;

/** A link's address as the browser reads it, or why it is refused. */
export type LinkUrlSyntax = { ok: true; url: URL; host: string } | { ok: false; message: string };

/**
 * The syntax half of the rule: parses as a URL, `http:` or `https:`, no user name or password,
 * a host. `host` is the normalised host name (IPv6 without brackets, no trailing dot, lower case).
 */
export function linkUrlSyntax(text: string): LinkUrlSyntax {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, message: LINK_URL_MESSAGES.invalid };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, message: LINK_URL_MESSAGES.invalid };
  }
  if (url.username !== '' || url.password !== '') {
    return { ok: false, message: LINK_URL_MESSAGES.credentials };
  }
  const host = normaliseHost(url.hostname);
  if (host === '') return { ok: false, message: LINK_URL_MESSAGES.invalid };
  return { ok: true, url, host };
}

/** A URL's hostname without IPv6 brackets or a trailing dot (`localhost.` is `localhost`). */
function normaliseHost(hostname: string): string {
  const bare = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  return bare.replace(/\.$/, '').toLowerCase();
}

/**
 * An entry of the admin's list of allowed internal hosts, normalised as a link's host is (so
 * `127.1` is `127.0.0.1`, `[::1]` is `::1`); `*.corp.example` stands for every name under
 * `corp.example`. Null when it is not a bare host name or IP address.
 */
export function normaliseAllowedHost(entry: string): string | null {
  const trimmed = entry.trim().toLowerCase();
  const wildcard = trimmed.startsWith('*.');
  const name = wildcard ? trimmed.slice(2) : trimmed;
  if (name === '' || /[/?#@\s\\]/.test(name)) return null;
  let url: URL;
  try {
    url = new URL(`http://${name.includes(':') && !name.startsWith('[') ? `[${name}]` : name}/`);
  } catch {
    return null;
  }
  if (url.port !== '' || url.username !== '' || url.password !== '') return null;
  const host = normaliseHost(url.hostname);
  if (host === '' || (wildcard && (host.includes(':') || /^[\d.]+$/.test(host)))) return null;
  return wildcard ? `*.${host}` : host;
}

/** Whether a link's (normalised) host is on a list of normalised allowed hosts. */
export function hostAllowed(host: string, allowed: readonly string[]): boolean {
  return allowed.some((entry) =>
    entry.startsWith('*.') ? host.endsWith(entry.slice(1)) : host === entry,
  );
}

/**
 * Host names that name this machine or a local network, never a public site: `localhost` and
 * every name under it, a name of one label (`intranet`: completed by the local resolver), and the
 * special-use local domains `.local` (mDNS), `.internal`, `.home.arpa` and `.localdomain`.
 */
export function isLocalHostName(host: string): boolean {
  if (host.includes(':') || /^[\d.]+$/.test(host)) return false; // an IP address
  if (!host.includes('.')) return true;
  return /(?:^|\.)(?:localhost|local|internal|home\.arpa|localdomain)$/.test(host);
}
