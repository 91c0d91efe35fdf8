/**
 * A PDF's pages drawn by pdf.js, one at a time, with page navigation and zoom: the page fits the
 * width of its box at first (on a phone, 343 px of small print), "Zoom in" and "Zoom out" enlarge
 * or shrink it by a quarter (the page then scrolls inside its box), "Fit to width" brings it back. This module is the lazy
 * chunk of the viewer (pdf.js is ~400 kB; docs/front-end.md): the item page imports it only to
 * show a PDF. The worker is bundled by Vite from pdf.js's own file (`?url`).
 */
import { ActionIcon, Alert, Button, Group, Loader, Stack, Text } from '@mantine/core';
import {
  IconArrowsHorizontal,
  IconChevronLeft,
  IconChevronRight,
  IconZoomIn,
  IconZoomOut,
} from '@tabler/icons-react';
import { GlobalWorkerOptions, getDocument, type PDFDocumentProxy } from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import { useEffect, useRef, useState } from 'react';

GlobalWorkerOptions.workerSrc = workerUrl;

/** Each zoom step, and how far it goes (times the PDF's own size). */
const ZOOM_STEP = 1.25;
const MIN_SCALE = 0.25;
const MAX_SCALE = 4;

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
  /** 'fit': the page as wide as its box; a number: times the PDF's own size. */
  const [zoom, setZoom] = useState<'fit' | number>('fit');
  /** The scale the page is drawn at (the fitting one while `zoom` is 'fit'). */
  const [scale, setScale] = useState<number | null>(null);
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
      const drawn = zoom === 'fit' ? Math.min(width / base.width, 2) : zoom;
      setScale(drawn);
      const viewport = pdfPage.getViewport({ scale: drawn * ratio });
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
  }, [doc, page, zoom]);

  const zoomBy = (factor: number) =>
    setZoom(() => {
      const next = (scale ?? 1) * factor;
      return Math.min(MAX_SCALE, Math.max(MIN_SCALE, Math.round(next * 100) / 100));
    });

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
      {doc && (
        <Group gap="xs" wrap="nowrap" role="group" aria-label="Zoom">
          <ActionIcon
            variant="default"
            size="lg"
            aria-label="Zoom out"
            disabled={scale !== null && scale <= MIN_SCALE}
            onClick={() => zoomBy(1 / ZOOM_STEP)}
          >
            <IconZoomOut size={18} aria-hidden />
          </ActionIcon>
          <Text size="sm" miw="3.5rem" ta="center" aria-live="polite">
            {scale === null ? '' : `${Math.round(scale * 100)} %`}
          </Text>
          <ActionIcon
            variant="default"
            size="lg"
            aria-label="Zoom in"
            disabled={scale !== null && scale >= MAX_SCALE}
            onClick={() => zoomBy(ZOOM_STEP)}
          >
            <IconZoomIn size={18} aria-hidden />
          </ActionIcon>
          <Button
            size="compact-md"
            variant={zoom === 'fit' ? 'light' : 'default'}
            leftSection={<IconArrowsHorizontal size={16} aria-hidden />}
            aria-pressed={zoom === 'fit'}
            onClick={() => setZoom('fit')}
          >
            Fit to width
          </Button>
        </Group>
      )}
      <div
        // Zoomed in, the page scrolls inside this box, by touch or with the arrow keys.
        tabIndex={zoom === 'fit' ? undefined : 0}
        role={zoom === 'fit' ? undefined : 'region'}
        aria-label={zoom === 'fit' ? undefined : `${title}, zoomed page`}
        style={{ overflow: 'auto', maxWidth: '100%', position: 'relative' }}
      >
        <canvas
          ref={canvasRef}
          role="img"
          aria-label={`${title}, page ${page}${pages ? ` of ${pages}` : ''}`}
          style={{
            display: doc ? 'block' : 'none',
            maxWidth: zoom === 'fit' ? '100%' : 'none',
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
