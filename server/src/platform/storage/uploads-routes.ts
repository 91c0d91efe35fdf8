/**
 * Resumable uploads at /api/uploads, the tus 1.0.0 protocol (creation, termination, expiration)
 * for large files (field videos): create with POST (Upload-Length, Upload-Metadata `filename`),
 * send the bytes with PATCH from the offset HEAD reports, end with DELETE. The final PATCH stores
 * the file the one way every upload is stored (storage/resumable-uploads.ts) and names it in
 * `Upload-File-Id`; the client then attaches that file id as after POST /api/files.
 *
 * Every request is signed in (the app's own access check); the bodies are not parsed but handed
 * to the tus server as they stream; only who created an upload may see, resume or end it.
 * What tus asks of every server is checked here, before the tus server sees the request: the
 * client's `Tus-Resumable` (412 with `Tus-Version` otherwise), a PATCH's content type (415), and
 * `X-HTTP-Method-Override` (a POST to an upload's URL acts as the PATCH, DELETE or HEAD it names).
 */
import { AppError } from '@learning-hub/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { NodeRequest } from 'srvx/node';
import { z } from 'zod';
import { currentUser } from '../http/access';
import type { FileService } from './file-service';
import {
  FILE_ID_HEADER,
  ResumableUploads,
  TUS_REFUSALS,
  TUS_VERSION,
  UPLOADS_PATH,
} from './resumable-uploads';
import { UPLOAD_REFUSALS } from './upload-checks';

const UploadParamsSchema = z.object({ uploadId: z.string().min(1).max(100) });

/** The tus headers an answer carries through (not its body's, nor CORS beyond exposing them). */
const TUS_HEADERS = new Set([
  'tus-resumable',
  'tus-version',
  'tus-extension',
  'tus-max-size',
  'upload-offset',
  'upload-length',
  'upload-metadata',
  'upload-expires',
  'location',
  'cache-control',
  'access-control-expose-headers',
  FILE_ID_HEADER.toLowerCase(),
]);

const TUS_ANSWER_HEADERS = {
  'tus-resumable': '`1.0.0`',
  'upload-offset': { description: 'The bytes received so far.', schema: { type: 'integer' } },
} as const;

/** What every tus request sends (but OPTIONS). */
const TUS_REQUEST_HEADERS = {
  'tus-resumable': {
    description: 'The tus version the client speaks: `1.0.0` (412 otherwise).',
    required: true,
    schema: { type: 'string', enum: [TUS_VERSION] },
  },
} as const;

/** The bytes of a PATCH: where they start, in the upload. */
const UPLOAD_OFFSET_HEADER = {
  description: 'Where these bytes start: the offset HEAD reports (409 otherwise).',
  required: true,
  schema: { type: 'integer', minimum: 0 },
} as const;

/** A refusal for a version of tus this server does not speak: it names the one it does. */
const TUS_VERSION_REFUSAL = {
  messages: [TUS_REFUSALS[412]],
  headers: { 'tus-version': '`1.0.0`: the versions of tus this server speaks.' },
};

/** `X-HTTP-Method-Override`, for clients that can only send GET and POST (tus 1.0.0). */
const METHOD_OVERRIDE = 'x-http-method-override';
const OVERRIDABLE = ['PATCH', 'DELETE', 'HEAD'] as const;

/** The method a tus request acts as: a POST's `X-HTTP-Method-Override`, else its own. */
function tusMethod(request: FastifyRequest): string {
  const override = request.headers[METHOD_OVERRIDE];
  return request.method === 'POST' && typeof override === 'string'
    ? override.trim().toUpperCase()
    : request.method;
}

const OFFSET_STREAM = 'application/offset+octet-stream';

/** HEAD's answer: where to resume. */
const HEAD_ANSWER = {
  description: 'The upload’s state: resume with PATCH from `Upload-Offset`.',
  headers: {
    ...TUS_ANSWER_HEADERS,
    'upload-length': { description: 'The upload’s size.', schema: { type: 'integer' } },
    'upload-metadata':
      'The `Upload-Metadata` the client created it with (`filename`, `filetype`…), as sent.',
    'cache-control': '`no-store`',
  },
};

/** PATCH's answers. */
const PATCH_ANSWERS = {
  204: {
    description:
      'Stored up to `Upload-Offset`. The last PATCH stores the file: its id is in ' +
      '`Upload-File-Id` (attach it as after POST /api/files).',
    headers: {
      ...TUS_ANSWER_HEADERS,
      'upload-expires': 'When the upload is removed if not finished (an HTTP date).',
      'upload-file-id': 'The stored file, on the final PATCH.',
    },
  },
  400: [...UPLOAD_REFUSALS[400], TUS_REFUSALS[400]],
  409: [TUS_REFUSALS[409]],
  412: TUS_VERSION_REFUSAL,
  413: [
    TUS_REFUSALS[413],
    'The file does not fit in the bytes the person may keep unattached, or store in all (`UPLOAD_QUOTA_EXCEEDED`).',
  ],
  415: [TUS_REFUSALS[415], ...UPLOAD_REFUSALS[415]],
};

/** DELETE's answer. */
const DELETE_ANSWER = {
  description: 'Ended: the staged bytes are removed.',
  headers: TUS_ANSWER_HEADERS,
};

export interface UploadsRoutesOptions {
  files: FileService;
  stagingDir: string;
  maxBytes: number;
  expiresAfterMs: number;
}

const uploadsRoutes: FastifyPluginAsyncZod<UploadsRoutesOptions> = async (app, options) => {
  const uploads = new ResumableUploads({ ...options, log: app.log });

  // The bytes of a PATCH stream through to the tus server unread (no body limit, no buffering).
  app.addContentTypeParser('application/offset+octet-stream', (_request, _payload, done) => {
    done(null);
  });

  // The protocol's version on every answer but OPTIONS', refusals of ours included.
  app.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'OPTIONS') reply.header('tus-resumable', '1.0.0');
  });

  // What tus requires of each request, after the sign-in and before a body is read.
  app.addHook('preParsing', async (request, reply, payload) => {
    if (request.method === 'OPTIONS') return payload;
    if (request.headers['tus-resumable'] !== TUS_VERSION) {
      reply.header('tus-version', TUS_VERSION);
      throw new AppError('PRECONDITION_FAILED', TUS_REFUSALS[412]);
    }
    const type = request.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
    if (tusMethod(request) === 'PATCH' && type !== OFFSET_STREAM) {
      // The body is not read: the connection cannot carry another request after it.
      reply.header('connection', 'close');
      throw new AppError('UNSUPPORTED_MEDIA_TYPE', TUS_REFUSALS[415]);
    }
    return payload;
  });

  /**
   * Hands the request to the tus server, as `method` (an overridden POST), and sends its answer
   * through Fastify.
   */
  async function passToTus(
    request: FastifyRequest,
    reply: FastifyReply,
    uploadId?: string,
    method = request.method,
  ) {
    const user = currentUser(request);
    const tusRequest = new NodeRequest({ req: request.raw, res: reply.raw });
    if (method !== request.method) Object.defineProperty(tusRequest, 'method', { value: method });
    const response = await uploads.handle(tusRequest, user, uploadId, () =>
      app.recheckSignIn(request),
    );
    reply.code(response.status);
    for (const [name, value] of response.headers) {
      if (TUS_HEADERS.has(name.toLowerCase())) reply.header(name, value);
    }
    // The protocol's answers carry no body (HEAD, PATCH 204, POST 201, OPTIONS 204).
    return reply.send();
  }

  app.post(
    UPLOADS_PATH,
    {
      config: {
        access: {},
        requestHeaders: {
          ...TUS_REQUEST_HEADERS,
          'upload-length': {
            description: 'The size of the file in bytes (1 to UPLOAD_RESUMABLE_MAX_BYTES).',
            required: true,
            schema: { type: 'integer', minimum: 1 },
          },
          'upload-metadata':
            'Comma-separated `key base64(value)` pairs: `filename` (the stored name) and ' +
            'optionally `filetype` (the declared type; the content decides).',
        },
        responses: {
          201: {
            description: 'Created: `Location` is the upload’s URL; send its bytes with PATCH.',
            headers: {
              ...TUS_ANSWER_HEADERS,
              location: '`/api/uploads/<id>`',
              'upload-expires': 'When the upload is removed if not finished (an HTTP date).',
            },
          },
          400: [
            ...UPLOAD_REFUSALS[400],
            'Give the upload’s length in Upload-Length (a whole number of bytes).',
            'Send the bytes with PATCH after creating the upload.',
            'X-HTTP-Method-Override: <method> acts on an upload: send it to the upload’s URL.',
            TUS_REFUSALS[400],
          ],
          412: TUS_VERSION_REFUSAL,
          415: [TUS_REFUSALS[415]],
          413: [
            'The file is larger than the limit of <size>. (UPLOAD_RESUMABLE_MAX_BYTES, `FILE_TOO_LARGE`)',
            'The file does not fit in the bytes the person may keep unattached, or store in all (`UPLOAD_QUOTA_EXCEEDED`).',
          ],
          429: [
            'Too many uploads: at most <n> files in <window>. Try again in <n> seconds. (`RATE_LIMITED`, with Retry-After)',
          ],
        },
      },
      schema: {
        operationId: 'createUpload',
        tags: ['uploads'],
        summary: 'Create a resumable upload (tus)',
        description:
          'tus 1.0.0 creation: `Tus-Resumable: 1.0.0`, `Upload-Length` (1 byte to ' +
          'UPLOAD_RESUMABLE_MAX_BYTES) and `Upload-Metadata` (`filename`, optionally `filetype`, ' +
          'base64). Counts as one upload against the upload rate; refused at once when the ' +
          'length does not fit in the person’s room. Unfinished uploads are removed after ' +
          'UPLOAD_UNATTACHED_HOURS.',
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const method = tusMethod(request);
      if (method !== 'POST') {
        throw new AppError(
          'BAD_REQUEST',
          `X-HTTP-Method-Override: ${method} acts on an upload: send it to the upload’s URL.`,
        );
      }
      const lengthHeader = request.headers['upload-length'];
      const length = typeof lengthHeader === 'string' ? Number(lengthHeader) : Number.NaN;
      if (!/^\d+$/.test(String(lengthHeader ?? '')) || !Number.isSafeInteger(length)) {
        throw new AppError(
          'BAD_REQUEST',
          'Give the upload’s length in Upload-Length (a whole number of bytes).',
        );
      }
      // No bytes with the creation (creation-with-upload is not offered).
      if (request.headers['content-type']?.startsWith('application/offset+octet-stream')) {
        reply.header('connection', 'close');
        throw new AppError('BAD_REQUEST', 'Send the bytes with PATCH after creating the upload.');
      }
      const wait = await options.files.countUpload(user);
      if (wait > 0) {
        reply.header('retry-after', String(wait));
        throw options.files.rateRefusal(wait);
      }
      await uploads.checkCreation(user, length);
      return passToTus(request, reply);
    },
  );

  app.route({
    method: 'HEAD',
    url: `${UPLOADS_PATH}/:uploadId`,
    config: {
      access: {},
      // An operation of its own (not the HEAD of a GET): described.
      swagger: { exposeHeadRoute: true },
      requestHeaders: TUS_REQUEST_HEADERS,
      responses: { 200: HEAD_ANSWER, 400: [TUS_REFUSALS[400]], 412: TUS_VERSION_REFUSAL },
    },
    schema: {
      operationId: 'getUploadOffset',
      tags: ['uploads'],
      summary: 'The offset of a resumable upload (tus)',
      description:
        'How many bytes of the upload have arrived. Only the person who created it may ask; ' +
        'anyone else, and an upload finished, ended or expired, gets 404.',
      params: UploadParamsSchema,
    },
    handler: async (request, reply) => {
      const { id } = await uploads.ownUpload(currentUser(request), request.params.uploadId);
      return passToTus(request, reply, id);
    },
  });

  app.patch(
    `${UPLOADS_PATH}/:uploadId`,
    {
      config: {
        access: {},
        requestBody: {
          contentType: 'application/offset+octet-stream',
          description: 'The next bytes of the file, from `Upload-Offset`.',
          schema: { type: 'string', format: 'binary' },
        },
        requestHeaders: { ...TUS_REQUEST_HEADERS, 'upload-offset': UPLOAD_OFFSET_HEADER },
        responses: PATCH_ANSWERS,
      },
      // The answer has no body; nothing to compress.
      compress: false,
      schema: {
        operationId: 'appendUpload',
        tags: ['uploads'],
        summary: 'Send bytes of a resumable upload (tus)',
        description:
          '`Upload-Offset` must be the offset HEAD reports (409 otherwise). When the last byte ' +
          'arrives the file is stored as any upload (its type checked, the person’s limits ' +
          'applied); a refused file answers the refusal and nothing is kept.',
        params: UploadParamsSchema,
      },
    },
    async (request, reply) => {
      const { id } = await uploads.ownUpload(currentUser(request), request.params.uploadId);
      return passToTus(request, reply, id);
    },
  );

  app.delete(
    `${UPLOADS_PATH}/:uploadId`,
    {
      config: {
        access: {},
        requestHeaders: TUS_REQUEST_HEADERS,
        responses: { 204: DELETE_ANSWER, 400: [TUS_REFUSALS[400]], 412: TUS_VERSION_REFUSAL },
      },
      schema: {
        operationId: 'deleteUpload',
        tags: ['uploads'],
        summary: 'End a resumable upload (tus termination)',
        description: 'Removes an unfinished upload of one’s own.',
        params: UploadParamsSchema,
      },
    },
    async (request, reply) => {
      const { id } = await uploads.ownUpload(currentUser(request), request.params.uploadId);
      return passToTus(request, reply, id);
    },
  );

  app.post(
    `${UPLOADS_PATH}/:uploadId`,
    {
      config: {
        access: {},
        requestBody: {
          contentType: OFFSET_STREAM,
          description: 'For PATCH: the next bytes of the file, from `Upload-Offset`.',
          schema: { type: 'string', format: 'binary' },
        },
        requestHeaders: {
          [METHOD_OVERRIDE]: {
            description: 'The tus request this POST is: `PATCH`, `DELETE` or `HEAD`.',
            required: true,
            schema: { type: 'string', enum: [...OVERRIDABLE] },
          },
          ...TUS_REQUEST_HEADERS,
          'upload-offset': {
            ...UPLOAD_OFFSET_HEADER,
            description: `For PATCH: ${UPLOAD_OFFSET_HEADER.description}`,
            required: false,
          },
        },
        responses: {
          ...PATCH_ANSWERS,
          200: HEAD_ANSWER,
          204: {
            description: `PATCH: ${PATCH_ANSWERS[204].description} DELETE: ${DELETE_ANSWER.description}`,
            headers: PATCH_ANSWERS[204].headers,
          },
          400: [
            ...PATCH_ANSWERS[400],
            'Send X-HTTP-Method-Override: PATCH, DELETE or HEAD to POST to an upload’s URL.',
          ],
        },
      },
      compress: false,
      schema: {
        operationId: 'overrideUploadMethod',
        tags: ['uploads'],
        summary: 'PATCH, DELETE or HEAD an upload by POST (tus method override)',
        description:
          'For clients that can only send GET and POST: a POST with `X-HTTP-Method-Override` ' +
          'is handled as the request it names, with the same answers.',
        params: UploadParamsSchema,
      },
    },
    async (request, reply) => {
      const method = tusMethod(request);
      if (!(OVERRIDABLE as readonly string[]).includes(method)) {
        throw new AppError(
          'BAD_REQUEST',
          'Send X-HTTP-Method-Override: PATCH, DELETE or HEAD to POST to an upload’s URL.',
        );
      }
      const { id } = await uploads.ownUpload(currentUser(request), request.params.uploadId);
      return passToTus(request, reply, id, method);
    },
  );

  app.options(
    UPLOADS_PATH,
    {
      config: {
        access: {},
        responses: {
          204: {
            description: 'What the server offers.',
            headers: {
              'tus-version': '`1.0.0`',
              'tus-extension': '`creation,termination,expiration`',
              'tus-max-size': 'UPLOAD_RESUMABLE_MAX_BYTES',
            },
          },
        },
      },
      schema: {
        operationId: 'getUploadOptions',
        tags: ['uploads'],
        summary: 'The tus protocol this server speaks',
        description: 'tus discovery: the version, extensions and the largest upload.',
      },
    },
    (request, reply) => passToTus(request, reply),
  );
};

export default uploadsRoutes;
