import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { lazyChildLoggerFactory } from './request-logger';

function appWithLog(level: string) {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
      done();
    },
  });
  const app = Fastify({
    logger: { level, stream, redact: { paths: ['*.token'], censor: '[redacted]' } },
    disableRequestLogging: true,
    childLoggerFactory: lazyChildLoggerFactory,
  });
  app.get('/quiet', async (request) => {
    request.log.debug('not at this level');
    return { ok: true };
  });
  app.get('/loud', async (request) => {
    request.log.info({ body: { token: 'secret' } }, 'said once');
    request.log.child({ step: 2 }).warn('said twice');
    return { ok: true, level: request.log.level };
  });
  return { app, lines };
}

describe('the request logger', () => {
  it('writes what a pino child would: the request id, redaction, the child’s own bindings', async () => {
    const { app, lines } = appWithLog('info');
    const res = await app.inject({ url: '/loud', headers: { 'x-request-id': 'ignored' } });
    expect(res.json()).toEqual({ ok: true, level: 'info' });
    const said = lines.filter((l) => typeof l.msg === 'string' && l.msg.startsWith('said'));
    expect(said).toHaveLength(2);
    expect(said[0]).toMatchObject({ msg: 'said once', body: { token: '[redacted]' }, level: 30 });
    expect(said[1]).toMatchObject({ msg: 'said twice', step: 2, level: 40 });
    expect(said[0]?.reqId).toBeTruthy();
    expect(said[1]?.reqId).toBe(said[0]?.reqId);
    await app.close();
  });

  it('makes no pino child for a request that logs nothing at the set level', async () => {
    const { app, lines } = appWithLog('warn');
    await app.ready();
    const child = vi.spyOn(app.log, 'child');
    const res = await app.inject({ url: '/quiet' });
    expect(res.statusCode).toBe(200);
    expect(child).not.toHaveBeenCalled();
    expect(lines).toEqual([]);
    await app.inject({ url: '/loud' });
    // The request's child, then the route's child of it (pino's children share the spied method).
    expect(child).toHaveBeenCalledTimes(2);
    expect(lines.map((l) => l.msg)).toEqual(['said twice']);
    await app.close();
  });
});
