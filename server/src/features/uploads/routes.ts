/**
 * Resumable uploads at /api/uploads, the tus 1.0.0 protocol (creation, termination, expiration)
 * for large files (field videos): create with POST (Upload-Length, Upload-Metadata `filename`),
 * send the bytes with PATCH from the offset HEAD reports, end with DELETE. The final PATCH stores
 * the file the one way every upload is stored (storage/resumable-uploads.ts) and names it in
 * `Upload-File-Id`; the client then attaches that file id as after POST /api/files.
 *
 * Every request is signed in (the app's own access check); the bodies are not parsed but handed
 * to the tus server as they stream; only who created an upload may see, resume or end it.
 */
import { AppError } from '@learning-hub/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { NodeRequest } from 'srvx/node';
import { z } from 'zod';
import { currentUser } from '../../plugins/access';
import type { FileService } from '../../storage/file-service';
import {
  FILE_ID_HEADER,
  ResumableUploads,
  TUS_REFUSALS,
  UPLOADS_PATH,
} from '../../storage/resumable-uploads';
import { UPLOAD_REFUSALS } from '../../storage/upload-checks';

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
  'upload-offset': 'The bytes received so far.',
} as const;

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

  /** Hands the request to the tus server and sends its answer through Fastify. */
  async function passToTus(request: FastifyRequest, reply: FastifyReply, uploadId?: string) {
    const user = currentUser(request);
    const tusRequest = new NodeRequest({ req: request.raw, res: reply.raw });
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
        responses: {
          201: {
            description: 'Created: `Location` is the upload’s URL; send its bytes with PATCH.',
            headers: {
              ...TUS_ANSWER_HEADERS,
              location: '`/api/uploads/<id>`',
              'upload-expires': 'When the upload is removed if not finished.',
            },
          },
          400: [
            ...UPLOAD_REFUSALS[400],
            'Give the upload’s length in Upload-Length (a whole number of bytes).',
            'Send the bytes with PATCH after creating the upload.',
            TUS_REFUSALS[400],
          ],
          412: [TUS_REFUSALS[412]],
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
      responses: {
        200: {
          description: 'The upload’s state: resume with PATCH from `Upload-Offset`.',
          headers: {
            ...TUS_ANSWER_HEADERS,
            'upload-length': 'The upload’s size.',
            'upload-metadata': 'What it was created with.',
          },
        },
        400: [TUS_REFUSALS[400]],
        412: [TUS_REFUSALS[412]],
      },
    },
    schema: {
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
        responses: {
          204: {
            description:
              'Stored up to `Upload-Offset`. The last PATCH stores the file: its id is in ' +
              '`Upload-File-Id` (attach it as after POST /api/files).',
            headers: {
              ...TUS_ANSWER_HEADERS,
              'upload-file-id': 'The stored file, on the final PATCH.',
            },
          },
          400: [...UPLOAD_REFUSALS[400], TUS_REFUSALS[400]],
          409: [TUS_REFUSALS[409]],
          412: [TUS_REFUSALS[412]],
          413: [
            TUS_REFUSALS[413],
            'The file does not fit in the bytes the person may keep unattached, or store in all (`UPLOAD_QUOTA_EXCEEDED`).',
          ],
          415: [...UPLOAD_REFUSALS[415]],
        },
      },
      // The answer has no body; nothing to compress.
      compress: false,
      schema: {
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
        responses: {
          204: { description: 'Ended: the staged bytes are removed.', headers: TUS_ANSWER_HEADERS },
          400: [TUS_REFUSALS[400]],
          412: [TUS_REFUSALS[412]],
        },
      },
      schema: {
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
        summary: 'The tus protocol this server speaks',
        description: 'tus discovery: the version, extensions and the largest upload.',
      },
    },
    (request, reply) => passToTus(request, reply),
  );
};

export default uploadsRoutes;
