/**
 * Resumable uploads of library files: tus 1.0.0 at `/api/uploads` (tus-js-client). A dropped
 * connection is retried after the delays below and goes on from the last byte the server has; a
 * page reload finds the unfinished upload of the same file again (its fingerprint in
 * localStorage). The last answer names the stored file (`Upload-File-Id`), which the library
 * then attaches to an item (`fileId`). The tus client is loaded with the first upload, not with
 * the page.
 *
 * Tests replace `libraryUploader.upload` (vi.spyOn): the real network path is the e2e tests'.
 */
import { AppError } from '@learning-hub/core';
import { NETWORK_ERROR_MESSAGE, toClientError } from '../../../lib/api-client';
import { readSession } from '../../../lib/auth/session-storage';

export interface UploadProgressOptions {
  /** Called with 0–1 as the bytes go out. */
  onProgress?: (fraction: number) => void;
  /** Aborting stops the upload and drops what the server has of it. */
  signal?: AbortSignal;
}

/** Waits between tries when the connection drops (then gives up with the error). */
export const RETRY_DELAYS = [0, 1000, 3000, 5000, 10_000, 20_000];

function abortError() {
  return new DOMException('The upload was cancelled.', 'AbortError');
}

/** The readable message of a failed tus request: the server's `{code, message}` when it sent one. */
function uploadError(error: unknown): Error {
  const response = (error as { originalResponse?: unknown }).originalResponse as
    { getStatus(): number; getBody(): string } | null | undefined;
  if (response) {
    let body: unknown = null;
    try {
      body = JSON.parse(response.getBody()) as unknown;
    } catch {
      body = null;
    }
    return toClientError(response.getStatus(), body);
  }
  return new AppError('NETWORK_ERROR', NETWORK_ERROR_MESSAGE);
}

async function tusUpload(file: File, options: UploadProgressOptions = {}): Promise<string> {
  const { Upload } = await import('tus-js-client');
  if (options.signal?.aborted) throw abortError();
  return new Promise<string>((resolve, reject) => {
    let fileId: string | null = null;
    const upload = new Upload(file, {
      endpoint: '/api/uploads',
      retryDelays: RETRY_DELAYS,
      chunkSize: 8 * 1024 * 1024,
      metadata: { filename: file.name, filetype: file.type },
      removeFingerprintOnSuccess: true,
      onBeforeRequest: (req) => {
        // The token of the moment (a long upload may outlive a refreshed session).
        const token = readSession()?.token;
        if (token) req.setHeader('Authorization', `Bearer ${token}`);
      },
      onAfterResponse: (_req, res) => {
        const id = res.getHeader('Upload-File-Id');
        if (id) fileId = id;
      },
      onProgress: (sent, total) => options.onProgress?.(total > 0 ? sent / total : 0),
      onError: (error) => reject(uploadError(error)),
      onSuccess: () => {
        if (fileId) {
          options.onProgress?.(1);
          resolve(fileId);
        } else {
          reject(
            new AppError('INTERNAL_ERROR', 'The server did not say where the file was stored.'),
          );
        }
      },
    });
    options.signal?.addEventListener(
      'abort',
      () => {
        void upload.abort(true).catch(() => undefined);
        reject(abortError());
      },
      { once: true },
    );
    void upload
      .findPreviousUploads()
      .then((previous) => {
        const last = previous[0];
        if (last) upload.resumeFromPreviousUpload(last);
      })
      .catch(() => undefined)
      .finally(() => {
        if (!options.signal?.aborted) upload.start();
      });
  });
}

/** The uploader the library's dialogs use; resolves with the stored file's id. */
export const libraryUploader = {
  upload: tusUpload,
};

export function isAbortError(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}
