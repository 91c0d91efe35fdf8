/**
 * An XMLHttpRequest stand-in for upload tests (lib/upload.ts sends files with XHR, since fetch
 * cannot report upload progress): the network boundary is the only thing tests replace, as with
 * fetch-mock.ts. Each upload is recorded; the test reports progress and answers it, or gives an
 * `answer` function that answers every upload at once. Unstubbed after each test (setup.ts).
 */
import { vi } from 'vitest';

export interface UploadAnswer {
  status: number;
  body: unknown;
}

export interface RecordedUpload {
  method: string;
  url: string;
  headers: Record<string, string>;
  file: File;
  /** Reports `fraction` (0–1) of the bytes sent. */
  progress(fraction: number): void;
  /** Answers the request. */
  respond(answer: UploadAnswer): void;
}

export interface UploadMock {
  uploads: RecordedUpload[];
}

export function mockUploads(answer?: (file: File) => UploadAnswer): UploadMock {
  const uploads: RecordedUpload[] = [];

  class FakeXhr {
    upload: { onprogress: ((event: ProgressEvent) => void) | null } = { onprogress: null };
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    onabort: (() => void) | null = null;
    status = 0;
    responseText = '';
    private method = '';
    private url = '';
    private readonly headers: Record<string, string> = {};
    private done = false;

    open(method: string, url: string) {
      this.method = method;
      this.url = url;
    }

    setRequestHeader(name: string, value: string) {
      this.headers[name.toLowerCase()] = value;
    }

    send(body: FormData) {
      const file = body.get('file');
      if (!(file instanceof File)) throw new Error('the upload has no file part');
      const upload: RecordedUpload = {
        method: this.method,
        url: this.url,
        headers: this.headers,
        file,
        progress: (fraction) =>
          this.upload.onprogress?.(
            // Byte counts are whole numbers: the fraction of a 1,000-byte body.
            new ProgressEvent('progress', {
              lengthComputable: true,
              loaded: Math.round(fraction * 1000),
              total: 1000,
            }),
          ),
        respond: ({ status, body: answerBody }) => {
          if (this.done) return;
          this.done = true;
          this.status = status;
          this.responseText = JSON.stringify(answerBody);
          this.onload?.();
        },
      };
      uploads.push(upload);
      if (answer) queueMicrotask(() => upload.respond(answer(file)));
    }

    abort() {
      if (this.done) return;
      this.done = true;
      this.onabort?.();
    }
  }

  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  return { uploads };
}
