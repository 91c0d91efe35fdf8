/**
 * Signed download URLs: an `<img>`, `<video>` or plain link cannot send the bearer token, so the
 * server hands out file URLs that carry a short-lived signature instead (docs/classroom.md,
 * "Media in rich text"). A signature names the path, the viewer's session and an expiry; the
 * request is then treated as that session's (still live, user still active), and the file's
 * owner permission is checked as on every download. Signing out, or losing access to the thing
 * the file belongs to, ends it at once; a leaked URL dies within two hours at most.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../db';
import { mapFileReferences } from '../rich-text/sanitize';

/** A signature is valid until the end of the hour after the next one: 1–2 hours, stable per hour so the browser's cache works. */
const WINDOW_MS = 3_600_000;

/** The query parameters of a signed URL. */
export interface SignedQuery {
  exp?: string;
  sid?: string;
  sig?: string;
}

export class UrlSigner {
  private key: Buffer | null;
  private loading: Promise<void> | null = null;

  /** `key`: the key itself, or how to load it (from the database, on the first request). */
  constructor(
    key: Buffer | (() => Promise<Buffer>),
    private readonly now: () => number,
  ) {
    if (Buffer.isBuffer(key)) this.key = key;
    else {
      this.key = null;
      this.load = key;
    }
  }

  private load: (() => Promise<Buffer>) | null = null;

  /** Whether the key is loaded (then `ready()` has nothing to wait for). */
  get isReady(): boolean {
    return this.key !== null;
  }

  /** Loads the key once; the access plugin awaits it before any route runs. */
  async ready(): Promise<void> {
    if (this.key) return;
    this.loading ??= (this.load as () => Promise<Buffer>)().then(
      (key) => {
        this.key = key;
      },
      (error: unknown) => {
        this.loading = null;
        throw error;
      },
    );
    await this.loading;
  }

  private mac(path: string, sessionId: string, exp: number): string {
    if (!this.key) throw new Error('The URL-signing key is not loaded yet (await ready()).');
    return createHmac('sha256', this.key)
      .update(`${path}\n${sessionId}\n${exp}`)
      .digest('base64url');
  }

  /** `path` (e.g. `/api/files/abc`) with exp, sid and sig for the session. */
  sign(path: string, sessionId: string): string {
    const exp = (Math.floor(this.now() / WINDOW_MS) + 2) * WINDOW_MS;
    const sig = this.mac(path, sessionId, exp);
    return `${path}?exp=${exp}&sid=${encodeURIComponent(sessionId)}&sig=${sig}`;
  }

  /** The session a signed request speaks for, or null when the signature is absent, wrong or expired. */
  verify(path: string, query: SignedQuery): string | null {
    const { exp, sid, sig } = query;
    if (!exp || !sid || !sig || !/^\d{1,16}$/.test(exp) || sid.length > 128) return null;
    const expiry = Number(exp);
    if (expiry <= this.now()) return null;
    const expected = Buffer.from(this.mac(path, sid, expiry));
    const given = Buffer.from(sig);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    return sid;
  }

  /**
   * Signs every reference to a stored file (`/api/files/<id>` and its `/thumbnail`) in HTML that
   * the sanitiser produced, for one viewer's session. Stored HTML never holds a signature.
   */
  signHtml(html: string, sessionId: string): string {
    return mapFileReferences(html, (path) => this.sign(path, sessionId).replace(/&/g, '&amp;'));
  }
}

/** The deployment's URL-signing key: made once (migration 0006), shared by every instance. */
export async function loadUrlSigningKey(db: Db): Promise<Buffer> {
  const row = await db
    .selectFrom('app_secrets')
    .select('value')
    .where('id', '=', 'url-signing')
    .executeTakeFirst();
  if (row) return Buffer.from(row.value, 'hex');
  // A database migrated before the row existed: make one; of two instances, one insert wins.
  const { randomBytes } = await import('node:crypto');
  await sql`insert into app_secrets (id, value) values ('url-signing', ${randomBytes(32).toString('hex')}) on conflict (id) do nothing`.execute(
    db,
  );
  return loadUrlSigningKey(db);
}
