/**
 * Email through a real SMTP server the test starts (the smtp-server package): an urgent
 * notification at once, the rest in one daily digest per person, each copy sent once.
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  bearer,
  createTestApp,
  createTestUser,
  signIn,
  type TestContext,
} from '../../test/helpers';
import { createMailTransport, sendDigests } from './email';

interface Mail {
  to: string[];
  raw: string;
}

let smtp: SMTPServer;
let mails: Mail[];
let ctx: TestContext;

beforeEach(async () => {
  mails = [];
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
      stream.on('end', () => {
        // Quoted-printable soft line breaks joined, so the text reads as it was written.
        mails.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: raw.replace(/=\r?\n/g, '').replace(/=3D/g, '='),
        });
        callback();
      });
    },
  });
  smtp.listen(0, '127.0.0.1');
  await once(smtp.server, 'listening');
  const { port } = smtp.server.address() as AddressInfo;
  ctx = await createTestApp({
    env: { SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: 'Learning Hub <hub@fiberco.example>' },
  });
});

afterEach(async () => {
  await ctx.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

async function personChoosingEmail(email: string | null) {
  const { user, password } = await createTestUser(ctx, { email });
  const token = await signIn(ctx.app, user.username, password);
  const current = await ctx.app.inject({
    method: 'GET',
    url: '/api/settings',
    headers: bearer(token),
  });
  const { settings } = current.json<{ settings: { notifications: Record<string, string> } }>();
  const saved = await ctx.app.inject({
    method: 'PUT',
    url: '/api/settings',
    headers: bearer(token),
    payload: {
      ...settings,
      notifications: { ...settings.notifications, test: 'email', 'assignment.new': 'email' },
    },
  });
  expect(saved.statusCode, saved.body).toBe(200);
  return { user, token };
}

describe('email', () => {
  it('sends an urgent notification at once to whoever chose email for its kind', async () => {
    const admin = await createTestUser(ctx, { role: 'admin' });
    const adminToken = await signIn(ctx.app, admin.user.username, admin.password);
    const { user } = await personChoosingEmail('tech@fiberco.example');
    const sent = await ctx.app.inject({
      method: 'POST',
      url: '/api/notifications/test',
      headers: bearer(adminToken),
      payload: { userId: user.id, priority: 'urgent' },
    });
    expect(sent.statusCode).toBe(201);
    await expect.poll(() => mails.length, { timeout: 10_000 }).toBe(1);
    expect(mails[0]?.to).toEqual(['tech@fiberco.example']);
    expect(mails[0]?.raw).toContain('Subject: Urgent: Test notification');
    expect(mails[0]?.raw).toContain('hub@fiberco.example');
  });

  it('gathers the rest into one digest per person, each copy once; none without an address', async () => {
    const { user } = await personChoosingEmail('crew@fiberco.example');
    const nobody = await personChoosingEmail(null);
    const inApp = await createTestUser(ctx, { email: 'inapp@fiberco.example' });
    for (const title of ['New assignment: Splice log', 'New assignment: OTDR trace']) {
      await ctx.database.db.transaction().execute((trx) =>
        ctx.app.notifications.notify(trx, {
          kind: 'assignment.new',
          title,
          body: 'Due Friday.',
          link: '/classroom/fiber-101',
          recipients: [user.id, nobody.user.id, inApp.user.id],
        }),
      );
    }
    const transport = createMailTransport(
      `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`,
    );
    const mail = {
      url: '',
      from: 'hub@fiberco.example',
      digestHour: 6,
      publicUrl: 'https://hub.example',
    };
    try {
      expect(
        await sendDigests(ctx.database.db, transport, mail, ctx.clock.now(), { force: true }),
      ).toBe(1);
      expect(
        await sendDigests(ctx.database.db, transport, mail, ctx.clock.now(), { force: true }),
      ).toBe(0);
    } finally {
      transport.close();
    }
    expect(mails).toHaveLength(1);
    expect(mails[0]?.to).toEqual(['crew@fiberco.example']);
    expect(mails[0]?.raw).toContain('2 notifications since yesterday');
    expect(mails[0]?.raw).toContain('Splice log');
    expect(mails[0]?.raw).toContain('OTDR trace');
    expect(mails[0]?.raw).toContain('https://hub.example/classroom/fiber-101');
  });
});
