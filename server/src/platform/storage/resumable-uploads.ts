/**
 * Resumable uploads (tus 1.0.0: creation, termination, expiration) for files too large to send in
 * one request: field videos of several GB over a site's mobile link. `@tus/server` speaks the
 * protocol, `@tus/file-store` stages the bytes on local disk (UPLOAD_STAGING_DIR); when the last
 * byte arrives the staged file streams into the shared storage through `FileService.upload`, the
 * one way every upload is stored (type detection, the refusals, thumbnails, quotas, the row), and
 * the staged copy is removed. The routes (features/uploads/routes.ts) check the sign-in and who
 * owns an upload before anything reaches the tus server.
 *
 * An upload's owner is the signed-in person who created it, kept in its staged metadata by the
 * server (`OWNER_KEY`, whatever the client sent); only they may resume, inspect or end it.
 */
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AppError } from '@learning-hub/core';
import { Server as TusServer } from '@tus/server';
import type { Upload } from '@tus/utils';
import type { FastifyBaseLogger } from 'fastify';
import type { UserRecord } from '../auth/user-repository';
import type { FileService } from './file-service';
import { fileTooLarge, newObjectKey, storageFull } from './file-store';
import { StagingStore } from './tus-staging';
import { fileEmpty } from './upload-checks';

export const UPLOADS_PATH = '/api/uploads';
/** The header of the final PATCH that names the stored file (tus-js-client: the last response). */
export const FILE_ID_HEADER = 'Upload-File-Id';
/** The staged metadata key the server keeps the owner's id in. */
const OWNER_KEY = 'lh-owner';
/** Upload ids: what `newObjectKey` makes; anything else is no upload (and never a path). */
const UPLOAD_ID = /^[0-9a-f]{32}$/;

/** What a request through the tus server carries from the route: who, and what went wrong. */
interface Pending {
  user: UserRecord;
  /** The upload the route checked the user owns: the only one tus may act on. */
  uploadId?: string;
  /**
   * Refuses (throws) when the user's sign-in ended while the request streamed (signed out,
   * deactivated): checked again before the last byte's upload is stored.
   */
  recheck?: () => Promise<void>;
  /** The stored file, once the last byte is stored. */
  fileId?: string;
  /** Why storing the complete upload failed (answered as is, JSON). */
  error?: unknown;
}

export interface ResumableUploadsOptions {
  files: FileService;
  /** Where uploads are staged until complete. */
  stagingDir: string;
  /** The largest upload (UPLOAD_RESUMABLE_MAX_BYTES). */
  maxBytes: number;
  /** Incomplete uploads older than this are removed (UPLOAD_UNATTACHED_HOURS). */
  expiresAfterMs: number;
  log?: FastifyBaseLogger;
}

export class ResumableUploads {
  readonly tus: TusServer;
  private readonly staging: StagingStore;
  private readonly pending = new WeakMap<Request, Pending>();

  constructor(private readonly options: ResumableUploadsOptions) {
    this.staging = new StagingStore({
      directory: options.stagingDir,
      expirationPeriodInMilliseconds: options.expiresAfterMs,
    });
    // What this server offers: the length is known at creation, bytes come in PATCHes.
    this.staging.extensions = ['creation', 'termination', 'expiration'];
    this.tus = new TusServer({
      path: UPLOADS_PATH,
      datastore: this.staging,
      relativeLocation: true,
      maxSize: options.maxBytes,
      exposedHeaders: [FILE_ID_HEADER],
      // Same origin only: no CORS answers.
      allowedOrigins: () => false,
      namingFunction: () => newObjectKey(),
      // The upload the route checked, never one read again from the URL (its query could name
      // another: `/api/uploads/<mine>?/<theirs>`).
      getFileIdFromRequest: (req) => this.context(req).uploadId,
      onUploadCreate: async (req, upload) => {
        const { user } = this.context(req);
        // The owner is who is signed in, never what the client's metadata says.
        return { metadata: { ...(upload.metadata ?? {}), [OWNER_KEY]: user.id } };
      },
      onUploadFinish: async (req, upload) => {
        const pending = this.context(req);
        pending.fileId = await this.store(pending, upload);
        return { headers: { [FILE_ID_HEADER]: pending.fileId } };
      },
    });
    options.files.addCleanup(async () => {
      // The store makes its directory in the background; the first clean-up may come first.
      await mkdir(options.stagingDir, { recursive: true });
      return this.staging.deleteExpired();
    });
  }

  private context(req: Request): Pending {
    const pending = this.pending.get(req);
    if (!pending) throw new Error('a tus request without its signed-in user');
    return pending;
  }

  /** Streams the complete staged upload into storage; the staged copy is removed either way. */
  private async store(pending: Pending, upload: Upload): Promise<string> {
    const metadata = upload.metadata ?? {};
    try {
      // The owner may have been signed out or deactivated while the bytes streamed: then
      // nothing is stored, and the staged bytes go (below).
      await pending.recheck?.();
      const file = await this.options.files.upload(pending.user, this.staging.read(upload.id), {
        name: metadata.filename ?? metadata.name ?? 'file',
        maxBytes: this.options.maxBytes,
        ...(upload.size !== undefined ? { declaredBytes: upload.size } : {}),
        ...((metadata.filetype ?? metadata.type)
          ? { contentType: (metadata.filetype ?? metadata.type) as string }
          : {}),
      });
      return file.id;
    } catch (error) {
      pending.error = error;
      // For tus: the request failed (the route answers `pending.error` itself).
      throw Object.assign(new Error('The upload could not be stored.'), {
        status_code: 500,
        body: 'The upload could not be stored.\n',
      });
    } finally {
      await this.staging.remove(upload.id).catch((error: unknown) => {
        this.options.log?.error({ err: error, upload: upload.id }, 'a staged upload stayed');
      });
    }
  }

  /**
   * Refuses a new upload of `length` bytes before anything is staged: no length, 0 bytes, over
   * the largest size, or more than the person's room (their other staged uploads count).
   */
  async checkCreation(user: UserRecord, length: number): Promise<void> {
    if (length === 0) throw fileEmpty();
    if (length > this.options.maxBytes) throw fileTooLarge(this.options.maxBytes);
    await this.options.files.checkRoom(user, length + (await this.stagedBytesOf(user.id)));
  }

  /** The declared bytes of `userId`'s uploads still staged (not expired). */
  private async stagedBytesOf(userId: string): Promise<number> {
    let names: string[];
    try {
      names = await readdir(this.options.stagingDir);
    } catch {
      return 0;
    }
    const oldest = Date.now() - this.options.expiresAfterMs;
    let bytes = 0;
    for (const name of names) {
      if (!name.endsWith('.json')) continue;
      try {
        const info = JSON.parse(await readFile(join(this.options.stagingDir, name), 'utf8')) as {
          size?: number;
          metadata?: Record<string, string | null>;
          creation_date?: string;
        };
        const created = info.creation_date ? Date.parse(info.creation_date) : Date.now();
        if (info.metadata?.[OWNER_KEY] === userId && created >= oldest) bytes += info.size ?? 0;
      } catch {
        // Removed meanwhile, or half written: not counted.
      }
    }
    return bytes;
  }

  /** The upload `id` if `user` created it; anyone else (and no such upload) gets a 404. */
  async ownUpload(user: UserRecord, id: string): Promise<Upload> {
    if (!UPLOAD_ID.test(id)) throw uploadNotFound();
    let upload: Upload;
    try {
      upload = await this.staging.getUpload(id);
    } catch {
      throw uploadNotFound();
    }
    if (upload.metadata?.[OWNER_KEY] !== user.id) throw uploadNotFound();
    return upload;
  }

  /**
   * Runs one tus request for `user` (on `uploadId`, which `ownUpload` checked; none to create
   * one or for OPTIONS): the tus server's answer, or the error to answer instead
   * (storing the complete upload failed, or tus refused the request: in the API's JSON words).
   */
  async handle(
    request: Request,
    user: UserRecord,
    uploadId?: string,
    recheck?: () => Promise<void>,
  ): Promise<Response> {
    const pending: Pending = {
      user,
      ...(uploadId === undefined ? {} : { uploadId }),
      ...(recheck ? { recheck } : {}),
    };
    this.pending.set(request, pending);
    const response = await this.tus.handleWeb(request);
    if (pending.error !== undefined) throw pending.error;
    if (response.status >= 400) throw tusRefusal(response.status, await response.text());
    // HEAD echoes the metadata: only what the client sent, never the owner kept beside it.
    const metadata = response.headers.get('upload-metadata');
    if (metadata !== null) {
      const sent = withoutOwner(metadata);
      if (sent === '') response.headers.delete('upload-metadata');
      else response.headers.set('upload-metadata', sent);
    }
    return response;
  }
}

/** tus Upload-Metadata (`key base64,key base64,key`) without the server's owner entry. */
function withoutOwner(metadata: string): string {
  return metadata
    .split(',')
    .filter((pair) => pair.trim().split(' ')[0] !== OWNER_KEY)
    .join(',');
}

export function uploadNotFound(): AppError {
  return new AppError(
    'NOT_FOUND',
    'Upload not found: it was finished, removed or has expired. Start it again.',
  );
}

/** The one version of the tus protocol this server speaks (`Tus-Resumable`, `Tus-Version`). */
export const TUS_VERSION = '1.0.0';

/** The messages of the tus refusals, for the API description. */
export const TUS_REFUSALS = {
  400: 'The request does not follow the tus protocol (<what is wrong>).',
  409: 'Upload-Offset does not match the bytes received: ask with HEAD and continue from there.',
  412: 'Send Tus-Resumable: 1.0.0 (the tus protocol version).',
  413: 'The request carries more bytes than the upload has left (Upload-Length).',
  415: 'Send the bytes of a PATCH as application/offset+octet-stream.',
} as const;

/** A refusal of the tus server (text) as the API's error (JSON). */
function tusRefusal(status: number, body: string): Error {
  const said = body.trim().replace(/\.$/, '');
  switch (status) {
    case 404:
    case 410:
      return uploadNotFound();
    case 409:
      return new AppError('CONFLICT', TUS_REFUSALS[409]);
    case 412:
      return new AppError('PRECONDITION_FAILED', TUS_REFUSALS[412]);
    case 413:
      return new AppError('PAYLOAD_TOO_LARGE', TUS_REFUSALS[413]);
    case 507:
      return storageFull();
    default:
      if (status < 500 || status === 501) {
        return new AppError(
          'BAD_REQUEST',
          `The request does not follow the tus protocol (${said || `status ${status}`}).`,
        );
      }
      return new Error(`tus answered ${status}: ${said}`);
  }
}
