/**
 * Directory sign-in (LDAP, `ldapts`): connect (failing over to the next URL when a server cannot
 * be reached), optionally upgrade with StartTLS, bind as the service account (or anonymously),
 * search the user by the configured attribute (value escaped per RFC 4515, so `*`, `)(uid=*` or
 * NUL in a username match nothing), bind as the found entry with the password, read the groups
 * (memberOf, or a search of groupOfNames / groupOfUniqueNames entries) and the attributes.
 * An empty password is refused before any bind: LDAP treats it as an anonymous bind that
 * "succeeds".
 */
import { Client, InvalidCredentialsError, type Entry } from 'ldapts';
import type { LdapSettings } from '@learning-hub/core';
import { ProviderFailure, type Identity, type Trace } from './types';

/** RFC 4515 escaping of a value inside a search filter. */
export function escapeFilterValue(value: string): string {
  return value.replace(
    // eslint-disable-next-line no-control-regex -- NUL is one of the characters RFC 4515 escapes
    /[\\*()\u0000]/g,
    (c) => `\\${c.charCodeAt(0).toString(16).padStart(2, '0')}`,
  );
}

/** RFC 4514 escaping is not needed: DNs are only ever taken from the directory's own answers. */

/** Normalises an attribute to its string values (ldapts gives a string for one, an array for many). */
export function values(entry: Entry, attribute: string): string[] {
  const key = Object.keys(entry).find((k) => k.toLowerCase() === attribute.toLowerCase());
  if (!key) return [];
  const raw = entry[key];
  const list = Array.isArray(raw) ? raw : [raw];
  return list
    .map((v) => (Buffer.isBuffer(v) ? v.toString('utf8') : String(v)))
    .filter((v) => v.length > 0);
}

const first = (entry: Entry, attribute: string) =>
  attribute ? (values(entry, attribute)[0] ?? null) : null;

/** The value of a DN's first RDN when its attribute is `attribute` (cn=x,ou=… → x). */
export function groupName(dn: string, attribute: string): string {
  if (attribute.toLowerCase() === 'dn') return dn;
  const match = /^\s*([^=,]+)=((?:\\.|[^,])*)/.exec(dn);
  if (match && match[1]?.trim().toLowerCase() === attribute.toLowerCase()) {
    return (match[2] ?? '').replace(/\\(.)/g, '$1').trim();
  }
  return dn;
}

function withPort(url: string, port: number): string {
  const trimmed = url.replace(/\/+$/, '');
  return /:\d+$/.test(trimmed) ? trimmed : `${trimmed}:${port}`;
}

async function connect(
  settings: LdapSettings,
  serviceDn: string,
  servicePassword: string,
  trace: Trace,
) {
  const errors: string[] = [];
  for (const raw of settings.urls) {
    const url = withPort(
      settings.security === 'ldaps' && raw.startsWith('ldap://')
        ? raw.replace(/^ldap:/, 'ldaps:')
        : raw,
      settings.port,
    );
    // ldapts opens a TLS socket whenever tlsOptions are given: only pass them for ldaps://.
    const client = new Client({
      url,
      timeout: settings.timeoutMs,
      connectTimeout: settings.timeoutMs,
      ...(url.startsWith('ldaps://')
        ? { tlsOptions: { rejectUnauthorized: settings.tlsRejectUnauthorized } }
        : {}),
      strictDN: false,
    });
    try {
      await trace.step(
        `Connect to ${url}`,
        async () => {
          if (settings.security === 'starttls') {
            await client.startTLS({ rejectUnauthorized: settings.tlsRejectUnauthorized });
          }
          // A bind is what opens the connection; with no service account it is anonymous.
          await client.bind(serviceDn, servicePassword);
        },
        () => (serviceDn ? `bound as ${serviceDn}` : 'anonymous bind'),
      );
      return client;
    } catch (error) {
      await client.unbind().catch(() => undefined);
      const message = error instanceof Error ? error.message : String(error);
      if (error instanceof InvalidCredentialsError) {
        throw new ProviderFailure(
          'misconfigured',
          `The directory refused the service account: ${message}`,
        );
      }
      // Anything else at this stage (refused, unreachable, timed out, TLS): try the next server.
      errors.push(`${url}: ${message}`);
    }
  }
  const timedOut = errors.every((e) => /time(d)? ?out|ETIMEDOUT/i.test(e));
  throw new ProviderFailure(
    timedOut ? 'timeout' : 'unavailable',
    `No directory server could be reached (${errors.join('; ')})`,
  );
}

export interface LdapSecrets {
  bindPassword?: string;
}

/** Signs a user in against the directory; throws ProviderFailure. */
export async function authenticateLdap(
  providerId: string,
  settings: LdapSettings,
  secrets: LdapSecrets,
  username: string,
  password: string,
  trace: Trace,
): Promise<Identity> {
  if (password.length === 0) {
    trace.note('Check the password', 'an empty password never binds', false);
    throw new ProviderFailure('invalid_credentials', 'Invalid username or password');
  }
  // Control characters never belong in a username; refusing them early keeps them out of filters.
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  if (/[\u0000-\u001f\u007f]/.test(username)) {
    throw new ProviderFailure('invalid_credentials', 'Invalid username or password');
  }
  const client = await connect(settings, settings.bindDn, secrets.bindPassword ?? '', trace);
  try {
    const attribute = settings.userAttribute;
    const filter = `(&${settings.userObjectFilter || '(objectClass=*)'}(${attribute}=${escapeFilterValue(username)}))`;
    const wanted = [
      attribute,
      settings.attributes.email,
      settings.attributes.firstname,
      settings.attributes.lastname,
      settings.attributes.department,
      'cn',
      'memberOf',
    ].filter(Boolean);
    const found: Entry[] = [];
    await trace.step(
      'Search the user',
      async () => {
        for (const base of settings.userSearchBases) {
          const { searchEntries } = await client.search(base, {
            scope: 'sub',
            filter,
            attributes: wanted,
            sizeLimit: 2,
          });
          found.push(...searchEntries);
          if (found.length > 0) break;
        }
        return found;
      },
      (entries) =>
        `${filter} → ${entries.length === 0 ? 'no entry' : entries.map((e) => e.dn).join(', ')}`,
    );
    if (found.length !== 1) {
      // No such user, or an ambiguous one: the same answer as a wrong password.
      throw new ProviderFailure('invalid_credentials', 'Invalid username or password');
    }
    const entry = found[0] as Entry;

    await trace.step(
      'Bind as the user',
      async () => {
        try {
          await client.bind(entry.dn, password);
        } catch (error) {
          if (error instanceof InvalidCredentialsError) {
            throw new ProviderFailure('invalid_credentials', 'Invalid username or password');
          }
          throw error;
        }
      },
      () => entry.dn,
    );

    const groups = await trace.step(
      'Read the groups',
      async () => {
        const { mode, nameAttribute, searchBase } = settings.groups;
        if (mode === 'memberOf') {
          return values(entry, 'memberOf').map((dn) => groupName(dn, nameAttribute));
        }
        // Group entries are searched as the service account again.
        await client.bind(settings.bindDn, secrets.bindPassword ?? '');
        const objectClass = mode === 'groupOfNames' ? 'groupOfNames' : 'groupOfUniqueNames';
        const memberAttribute = mode === 'groupOfNames' ? 'member' : 'uniqueMember';
        const bases = searchBase ? [searchBase] : settings.userSearchBases;
        const names: string[] = [];
        for (const base of bases) {
          const { searchEntries } = await client.search(base, {
            scope: 'sub',
            filter: `(&(objectClass=${objectClass})(${memberAttribute}=${escapeFilterValue(entry.dn)}))`,
            attributes: [nameAttribute === 'dn' ? 'cn' : nameAttribute],
          });
          for (const group of searchEntries) {
            names.push(
              nameAttribute === 'dn' ? group.dn : (first(group, nameAttribute) ?? group.dn),
            );
          }
        }
        return names;
      },
      (names) => (names.length ? names.join(', ') : 'none'),
    );

    const attributes: Record<string, string | string[]> = {};
    for (const name of wanted) {
      const list = values(entry, name);
      if (list.length === 1) attributes[name] = list[0] as string;
      else if (list.length > 1) attributes[name] = list;
    }
    const cn = first(entry, 'cn') ?? '';
    return {
      method: 'ldap',
      providerId,
      externalId: entry.dn,
      username: first(entry, attribute) ?? username,
      email: first(entry, settings.attributes.email),
      firstname: first(entry, settings.attributes.firstname) ?? cn.split(' ')[0] ?? '',
      lastname: first(entry, settings.attributes.lastname) ?? cn.split(' ').slice(1).join(' '),
      department: first(entry, settings.attributes.department),
      groups: [...new Set(groups)],
      ldapAttributes: attributes,
    };
  } catch (error) {
    if (error instanceof ProviderFailure) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new ProviderFailure(
      /time(d)? ?out/i.test(message) ? 'timeout' : 'unavailable',
      `Directory error: ${message}`,
    );
  } finally {
    await client.unbind().catch(() => undefined);
  }
}

/** Connects and searches the bases as the service account: the admin's Test button. */
export async function testLdapConnection(
  settings: LdapSettings,
  secrets: LdapSecrets,
  trace: Trace,
): Promise<void> {
  const client = await connect(settings, settings.bindDn, secrets.bindPassword ?? '', trace);
  try {
    for (const base of settings.userSearchBases) {
      await trace.step(
        `Search ${base}`,
        async () => {
          const { searchEntries } = await client
            .search(base, {
              scope: 'sub',
              filter: settings.userObjectFilter || '(objectClass=*)',
              attributes: [settings.userAttribute],
              sizeLimit: 5,
            })
            .catch((error: unknown) => {
              // A size limit reached still proves the search works.
              if (error instanceof Error && /size limit/i.test(error.message))
                return { searchEntries: [1, 2, 3, 4, 5] };
              throw error;
            });
          return searchEntries.length;
        },
        (n) => `${n}${n >= 5 ? '+' : ''} user entr${n === 1 ? 'y' : 'ies'} visible`,
      );
    }
  } finally {
    await client.unbind().catch(() => undefined);
  }
}
