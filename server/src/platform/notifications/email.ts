/**
 * Email (docs/notifications.md, "Email"): when SMTP_URL is set, the copies of people who chose
 * email for a kind (the settings page) are marked `email = 'pending'` by `notify`, and go out
 * through nodemailer: an urgent one at once (a job sent after it, and a sweep every minute for any
 * that job missed), the rest once a day in one digest per person (at MAIL_DIGEST_HOUR UTC). A copy
 * is taken for sending by a conditional update (`pending` → `sending`), so of several instances
 * one sends it; a failed send puts it back to `pending` for the next run. A person without an
 * email address gets none (`skipped`). Without SMTP_URL nothing is marked and nothing runs.
 */
import type { FastifyInstance } from 'fastify';
import { createTransport, type Transporter } from 'nodemailer';
import type { Db } from '../db';
import { defineRecurringJob, registerRecurring } from '../jobs';
import { claimEmails, markEmails, takeMark, type EmailCopy } from './notification-repository';

export const UrgentEmails = defineRecurringJob('notifications.email-urgent');
export const DigestEmails = defineRecurringJob('notifications.email-digest');

/** How often urgent emails are looked for, besides right after each urgent notification. */
const URGENT_EVERY_MS = 60_000;
const DIGEST_EVERY_MS = 3_600_000;

export interface MailSettings {
  url: string;
  from: string;
  /** The hour (UTC) of the daily digest. */
  digestHour: number;
  /** The app's address, for links in the email. */
  publicUrl: string;
}

function lines(copies: readonly EmailCopy[], publicUrl: string): string {
  return copies
    .map((c) => {
      const link = c.link ? `\n${publicUrl}${c.link}` : '';
      return `${c.title}\n${c.body}${link}`;
    })
    .join('\n\n');
}

/** Sends what is due now: the urgent copies, one email each. Returns how many were sent. */
export async function sendUrgentEmails(
  db: Db,
  transport: Transporter,
  mail: MailSettings,
): Promise<number> {
  const copies = await claimEmails(db, { urgentOnly: true, limit: 200 });
  let sent = 0;
  for (const copy of copies) {
    if (!copy.email) {
      await markEmails(db, [copy], 'skipped');
      continue;
    }
    try {
      await transport.sendMail({
        from: mail.from,
        to: copy.email,
        subject: `Urgent: ${copy.title}`,
        text: `${lines([copy], mail.publicUrl)}\n\n— Learning Hub. Choose what reaches you by email in Settings: ${mail.publicUrl}/settings`,
      });
      await markEmails(db, [copy], 'sent');
      sent += 1;
    } catch {
      await markEmails(db, [copy], 'pending');
    }
  }
  return sent;
}

/** The daily digest: every person's other copies waiting for email, one email each. */
export async function sendDigests(
  db: Db,
  transport: Transporter,
  mail: MailSettings,
  now: number,
  options: { force?: boolean } = {},
): Promise<number> {
  const at = new Date(now);
  if (!options.force) {
    if (at.getUTCHours() !== mail.digestHour) return 0;
    if (!(await takeMark(db, `digest:${at.toISOString().slice(0, 10)}`, at.toISOString())))
      return 0;
  }
  const copies = await claimEmails(db, { urgentOnly: false, limit: 5_000 });
  const byPerson = new Map<string, EmailCopy[]>();
  for (const copy of copies) {
    const list = byPerson.get(copy.userId) ?? [];
    list.push(copy);
    byPerson.set(copy.userId, list);
  }
  let sent = 0;
  for (const list of byPerson.values()) {
    const address = list[0]?.email;
    if (!address) {
      await markEmails(db, list, 'skipped');
      continue;
    }
    try {
      await transport.sendMail({
        from: mail.from,
        to: address,
        subject: `Learning Hub: ${list.length} ${list.length === 1 ? 'notification' : 'notifications'} since yesterday`,
        text: `${lines(list, mail.publicUrl)}\n\n— Learning Hub. Choose what reaches you by email in Settings: ${mail.publicUrl}/settings`,
      });
      await markEmails(db, list, 'sent');
      sent += 1;
    } catch {
      await markEmails(db, list, 'pending');
    }
  }
  return sent;
}

/** The transport of SMTP_URL (nodemailer parses the URL: user, password, host, port, TLS). */
export function createMailTransport(url: string): Transporter {
  return createTransport(url);
}

/** Registers the email jobs when email is set up; returns the kick for urgent ones. */
export function registerEmail(
  app: FastifyInstance,
  db: Db,
  now: () => number,
  mail: MailSettings,
): () => void {
  const transport = createMailTransport(mail.url);
  app.addHook('onClose', async () => transport.close());
  registerRecurring(
    app,
    UrgentEmails,
    () => sendUrgentEmails(db, transport, mail).then(() => undefined),
    {
      everyMs: URGENT_EVERY_MS,
      now,
      retryLimit: 0,
    },
  );
  registerRecurring(
    app,
    DigestEmails,
    () => sendDigests(db, transport, mail, now()).then(() => undefined),
    {
      everyMs: DIGEST_EVERY_MS,
      now,
      retryLimit: 0,
    },
  );
  // Right after an urgent notification: at once, not at the next minute's sweep.
  let sending: Promise<unknown> = Promise.resolve();
  return () => {
    sending = sending.then(() =>
      sendUrgentEmails(db, transport, mail).catch((error: unknown) =>
        app.log.warn({ err: error }, 'sending urgent email failed; the next sweep tries again'),
      ),
    );
  };
}
