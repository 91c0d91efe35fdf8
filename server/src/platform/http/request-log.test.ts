import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createTestApp, TEST_DB_KIND, testDatabaseAvailable } from '../../test/helpers';
import { loggableUrl, loggerOptions } from './request-log';

const available = await testDatabaseAvailable();

describe('loggableUrl', () => {
  it("redacts a signed URL's signature and session, whatever their place and case", () => {
    expect(loggableUrl('/api/files/f1?exp=1&sid=s-1&sig=abc')).toBe(
      '/api/files/f1?exp=1&sid=[redacted]&sig=[redacted]',
    );
    expect(loggableUrl('/x?SIG=abc#top')).toBe('/x?SIG=[redacted]#top');
    expect(loggableUrl('/api/courses?search=sig=abc&signal=1')).toBe(
      '/api/courses?search=sig=abc&signal=1',
    );
  });
});

describe.skipIf(!available)(`the request log (${TEST_DB_KIND})`, () => {
  it('writes one line per request, with no signature or session of a signed URL', async () => {
    const lines: Record<string, unknown>[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n')) {
          if (line) lines.push(JSON.parse(line) as Record<string, unknown>);
        }
        done();
      },
    });
    const ctx = await createTestApp({ logger: { ...loggerOptions('info'), stream } });
    try {
      const url = '/api/files/f-1?exp=1&sid=SESSION-ID&sig=SECRET-SIG';
      const answer = await ctx.app.inject({ method: 'GET', url });
      const logged = lines.filter((l) => (l.req as { url?: string } | undefined)?.url);
      expect(logged).toEqual([
        expect.objectContaining({
          msg: 'request completed',
          req: expect.objectContaining({
            method: 'GET',
            url: '/api/files/f-1?exp=1&sid=[redacted]&sig=[redacted]',
          }),
          res: { statusCode: answer.statusCode },
        }),
      ]);
      expect(JSON.stringify(lines)).not.toMatch(/SECRET-SIG|SESSION-ID/);
    } finally {
      await ctx.close();
    }
  });
});
