/**
 * A PDF's pages drawn by pdf.js, one at a time, with page navigation. This module is the lazy
 * chunk of the viewer (pdf.js is ~400 kB; docs/front-end.md): the item page imports it only to
 * show a PDF. The worker is bundled by Vite from pdf.js's own file (`?url`).
 */
import { Alert, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { GlobalWorkerOptions, getDocument, type PDFDocumentProxy } from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import { useEffect, useRef, useState } from 'react';

GlobalWorkerOptions.workerSrc = workerUrl;

export interface PdfViewerProps {
  /** Where to load it from, and the headers to send (the bearer token for `/api/files/…`). */
  url: string;
  httpHeaders?: Record<string, string>;
  title: string;
}

export default function PdfViewer({ url, httpHeaders, title }: PdfViewerProps) {
  const [doc, setDoc] = useState<PDFDocumentProxy | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [page, setPage] = useState(1);
  const [rendering, setRendering] = useState(false);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const boxRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const task = getDocument({
      url,
      httpHeaders,
      withCredentials: false,
    });
    let cancelled = false;
    task.promise.then(
      (loaded) => {
        if (!cancelled) {
          setDoc(loaded);
          setPage(1);
        }
      },
      () => {
        if (!cancelled) setError('The PDF could not be shown here. Download it to read it.');
      },
    );
    return () => {
      cancelled = true;
      void task.destroy();
    };
    // The headers carry the session's token: a new token need not reload the document.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [url]);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!doc || !canvas) return;
    let cancelled = false;
    let renderTask: { cancel(): void; promise: Promise<void> } | null = null;
    setRendering(true);
    void doc.getPage(page).then((pdfPage) => {
      if (cancelled) return;
      const width = boxRef.current?.clientWidth || 800;
      const base = pdfPage.getViewport({ scale: 1 });
      const ratio = window.devicePixelRatio || 1;
      const scale = Math.min(width / base.width, 2);
      const viewport = pdfPage.getViewport({ scale: scale * ratio });
      canvas.width = Math.floor(viewport.width);
      canvas.height = Math.floor(viewport.height);
      canvas.style.width = `${Math.floor(viewport.width / ratio)}px`;
      renderTask = pdfPage.render({ canvas, viewport });
      renderTask.promise.then(
        () => !cancelled && setRendering(false),
        () => !cancelled && setRendering(false),
      );
    });
    return () => {
      cancelled = true;
      renderTask?.cancel();
    };
  }, [doc, page]);

  if (error) {
    return (
      <Alert color="red" role="alert">
        {error}
      </Alert>
    );
  }
  const pages = doc?.numPages ?? 0;
  return (
    <Stack gap="xs" ref={boxRef}>
      {!doc && <Loader size="sm" aria-label="Loading the PDF" />}
      {doc && (
        <Group justify="space-between" gap="xs" wrap="nowrap">
          <Button
            size="compact-sm"
            variant="default"
            leftSection={<IconChevronLeft size={14} aria-hidden />}
            disabled={page <= 1}
            onClick={() => setPage((p) => Math.max(1, p - 1))}
          >
            Previous page
          </Button>
          <Text size="sm" aria-live="polite">{`Page ${page} of ${pages}`}</Text>
          <Button
            size="compact-sm"
            variant="default"
            rightSection={<IconChevronRight size={14} aria-hidden />}
            disabled={page >= pages}
            onClick={() => setPage((p) => Math.min(pages, p + 1))}
          >
            Next page
          </Button>
        </Group>
      )}
      <div style={{ overflow: 'auto', maxWidth: '100%', position: 'relative' }}>
        <canvas
          ref={canvasRef}
          role="img"
          aria-label={`${title}, page ${page}${pages ? ` of ${pages}` : ''}`}
          style={{
            display: doc ? 'block' : 'none',
            maxWidth: '100%',
            height: 'auto',
            border: '1px solid var(--mantine-color-default-border)',
          }}
        />
        {rendering && (
          <Loader size="xs" aria-hidden style={{ position: 'absolute', top: 8, right: 8 }} />
        )}
      </div>
    </Stack>
  );
}
