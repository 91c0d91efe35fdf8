/**
 * Uploading a file to the shared storage (`POST /api/files`, multipart) with progress, and
 * downloading an authenticated file (a CSV export) to the user's disk. Uploads use
 * XMLHttpRequest because fetch cannot report upload progress. The uploaded file belongs to
 * nobody until the area's own route attaches it (docs/adding-an-area.md, "Storage").
 */
import { AppError, StoredFileSchema, type StoredFile } from '@learning-hub/core';
import { api, NETWORK_ERROR_MESSAGE, toClientError, UNEXPECTED_RESPONSE } from './api-client';
import { readSession } from './auth/session-storage';

export interface UploadOptions {
  /** Called with 0–1 as the bytes go out. */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

/**
 * Gives back an upload that was removed from a form before anything attached it, so it stops
 * counting toward the person's unattached bytes at once instead of after the clean-up's hours
 * (docs/classroom.md, upload limits). Best effort: a refusal (already attached, already gone)
 * changes nothing for the form.
 */
export function discardUpload(fileId: string): void {
  void api.delete(`/api/files/${encodeURIComponent(fileId)}`, null).catch(() => undefined);
}

/** Sends one file; resolves with its stored metadata (its `id` is what areas attach). */
export function uploadFile(file: File, options: UploadOptions = {}): Promise<StoredFile> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/files');
    xhr.setRequestHeader('Accept', 'application/json');
    const token = readSession()?.token;
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) options.onProgress?.(event.loaded / event.total);
    };
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText) as unknown;
      } catch {
        body = null;
      }
      if (xhr.status < 200 || xhr.status >= 300) {
        reject(toClientError(xhr.status, body));
        return;
      }
      const parsed = StoredFileSchema.safeParse(body);
      if (!parsed.success) reject(new AppError('INTERNAL_ERROR', UNEXPECTED_RESPONSE));
      else {
        options.onProgress?.(1);
        resolve(parsed.data);
      }
    };
    xhr.onerror = () => reject(new AppError('NETWORK_ERROR', NETWORK_ERROR_MESSAGE));
    xhr.onabort = () => reject(new DOMException('The upload was cancelled.', 'AbortError'));
    options.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    const form = new FormData();
    form.append('file', file, file.name);
    xhr.send(form);
  });
}

/**
 * Fetches `path` with the session's token and saves the answer as `fileName` (a streamed CSV
 * export: the browser gets the whole body, then offers it as a download).
 */
export async function downloadToDisk(path: string, fileName: string): Promise<void> {
  const token = readSession()?.token;
  let response: Response;
  try {
    response = await fetch(path, {
      headers: token ? { Authorization: `Bearer ${token}` } : {},
      credentials: 'same-origin',
    });
  } catch {
    throw new AppError('NETWORK_ERROR', NETWORK_ERROR_MESSAGE);
  }
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as unknown;
    throw toClientError(response.status, body);
  }
  const url = URL.createObjectURL(await response.blob());
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = fileName;
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
}
