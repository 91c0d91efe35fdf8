/**
 * Raw HTTP/1.1 over a socket, for tests of what Node's HTTP parser and Fastify's router answer
 * before any hook runs (`app.inject` skips the parser, and fetch would normalise the URL).
 */
import { connect as netConnect, type AddressInfo, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import type { FastifyInstance } from 'fastify';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Parses one HTTP/1.1 response (Content-Length bodies; the connection may stay open). */
export function parseResponse(text: string): RawResponse | null {
  const end = text.indexOf('\r\n\r\n');
  if (end === -1) return null;
  const [statusLine = '', ...lines] = text.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const body = text.slice(end + 4);
  const length = Number(headers['content-length'] ?? NaN);
  if (Number.isFinite(length) && Buffer.byteLength(body) < length) return null;
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}

/** The port an app listens on (after `app.listen({ port: 0, host: '127.0.0.1' })`). */
export function portOf(app: FastifyInstance): number {
  return (app.server.address() as AddressInfo).port;
}

/**
 * Sends `request` (raw bytes) and resolves with the first response, or rejects when the server
 * closes the connection without one. `tls` connects with TLS (certificate not verified).
 */
export function rawRequest(
  port: number,
  request: string,
  options: { tls?: boolean; timeoutMs?: number } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket: Socket = options.tls
      ? tlsConnect({ port, host: '127.0.0.1', rejectUnauthorized: false })
      : netConnect({ port, host: '127.0.0.1' });
    let received = '';
    let settled = false;
    const finish = (error: Error | null, response?: RawResponse) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (error) reject(error);
      else resolve(response as RawResponse);
    };
    const timer = setTimeout(
      () => finish(new Error(`no response within ${options.timeoutMs ?? 5000} ms`)),
      options.timeoutMs ?? 5000,
    );
    socket.setEncoding('utf8');
    socket.on(options.tls ? 'secureConnect' : 'connect', () => socket.write(request));
    socket.on('data', (chunk: string) => {
      received += chunk;
      const response = parseResponse(received);
      if (response) finish(null, response);
    });
    // A reset after the response was written still leaves the response readable.
    socket.on('error', (error) => {
      const response = parseResponse(received);
      finish(response ? null : error, response ?? undefined);
    });
    socket.on('close', () => {
      const response = parseResponse(received);
      finish(
        response ? null : new Error(`connection closed without a response: ${received}`),
        response ?? undefined,
      );
    });
  });
}
