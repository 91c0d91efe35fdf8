/**
 * Response compression (docs/front-end.md).
 *
 * - The API's JSON answers are compressed on the fly by @fastify/compress, brotli or gzip as the
 *   client prefers, from COMPRESS_THRESHOLD_BYTES up (below that the headers and the CPU cost
 *   more than the bytes saved). Request bodies are not decompressed: the API takes plain JSON.
 * - The web app's files are compressed once, at build time (web/build/precompress.ts), and
 *   served as their `.br`/`.gz` siblings by @fastify/static (`preCompressed` in app.ts). So every
 *   route outside the API is left alone here, as are the routes that stream stored files
 *   (`compress: false` on them: ranges, lengths and entity tags describe the stored bytes).
 */
import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { isApiUrl } from './security-headers';

/** Smaller JSON answers are sent as they are. */
export const COMPRESS_THRESHOLD_BYTES = 1024;

/** `application/json` and `application/<something>+json`, with or without parameters. */
const JSON_CONTENT_TYPE = /^application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i;

export default fp(
  async function compression(app: FastifyInstance) {
    // Added before @fastify/compress's own onRoute hook, which reads `compress` from the route.
    app.addHook('onRoute', (route) => {
      if (route.compress === undefined && !isApiUrl(route.url)) route.compress = false;
    });
    await app.register(compress, {
      encodings: ['br', 'gzip'],
      threshold: COMPRESS_THRESHOLD_BYTES,
      customTypes: JSON_CONTENT_TYPE,
      globalDecompression: false,
    });
  },
  { name: 'compression' },
);
