/**
 * A URL an `<img>`, `<video>` or `<audio>` can load for a stored file. The server signs the
 * file's route for the viewer's session (`LibraryFile.url`, `thumbnailUrl`) — the way every
 * other area hands out media, since those elements cannot send the bearer token — and video and
 * audio then seek with HTTP Range. When the answer has no signed URL, the file is fetched with
 * the token and shown from an object URL (the whole file is loaded first).
 */
import { useEffect, useState } from 'react';
import { NETWORK_ERROR_MESSAGE, toClientError } from '../../../lib/api-client';
import { readSession } from '../../../lib/auth/session-storage';

export interface FileSource {
  src: string | null;
  error: string | null;
}

/** The stored file's download route (or its thumbnail's). */
export function fileRoute(fileId: string, thumbnail = false): string {
  return `/api/files/${encodeURIComponent(fileId)}${thumbnail ? '/thumbnail' : ''}`;
}

/** The bearer header of the stored session, for clients that fetch a file themselves (pdf.js). */
export function authHeaders(): Record<string, string> {
  const token = readSession()?.token;
  return token ? { Authorization: `Bearer ${token}` } : {};
}

/** `signedUrl` when there is one; else the file fetched with the token, as an object URL. */
export function useFileSource(
  route: string | null,
  signedUrl: string | null | undefined,
): FileSource {
  const [fetched, setFetched] = useState<FileSource & { route: string | null }>({
    route: null,
    src: null,
    error: null,
  });
  const needsFetch = !!route && !signedUrl;

  useEffect(() => {
    if (!needsFetch || !route) return;
    const controller = new AbortController();
    let objectUrl: string | null = null;
    fetch(route, { headers: authHeaders(), signal: controller.signal, credentials: 'same-origin' })
      .then(async (response) => {
        if (!response.ok) {
          const body = (await response.json().catch(() => null)) as unknown;
          throw toClientError(response.status, body);
        }
        objectUrl = URL.createObjectURL(await response.blob());
        setFetched({ route, src: objectUrl, error: null });
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        const message =
          error instanceof Error && !(error instanceof TypeError)
            ? error.message
            : NETWORK_ERROR_MESSAGE;
        setFetched({ route, src: null, error: message });
      });
    return () => {
      controller.abort();
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [needsFetch, route]);

  if (signedUrl) return { src: signedUrl, error: null };
  if (!route || fetched.route !== route) return { src: null, error: null };
  return { src: fetched.src, error: fetched.error };
}
