/**
 * The preview of an item on its page: a PDF's pages (pdf.js, loaded only for a PDF), an image,
 * a video or audio player (the signed URL seeks with HTTP Range), or a link to open. Other
 * documents (Office, text) have no preview: the Download button is the way to them.
 */
import type { LibraryItem } from '@learning-hub/core';
import { Alert, Anchor, Button, Image, Loader, Paper, Text } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import { useEffect, useState, type ComponentType } from 'react';
import { authHeaders, fileRoute, useFileSource } from '../api/file-source';
import type { PdfViewerProps } from './pdf-viewer';

/** How the PDF viewer's chunk is loaded; tests replace `load` (vi.spyOn) with a stand-in. */
export const pdfViewerLoader = {
  load: (): Promise<{ default: ComponentType<PdfViewerProps> }> => import('./pdf-viewer'),
};

function LazyPdfViewer(props: PdfViewerProps) {
  const [Viewer, setViewer] = useState<ComponentType<PdfViewerProps> | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let active = true;
    pdfViewerLoader.load().then(
      (m) => active && setViewer(() => m.default),
      () => active && setFailed(true),
    );
    return () => {
      active = false;
    };
  }, []);
  if (failed) {
    return (
      <Alert color="red" role="alert">
        The PDF viewer could not be loaded. Check the connection and reload the page, or download
        the file.
      </Alert>
    );
  }
  if (!Viewer) return <Loader size="sm" aria-label="Loading the PDF viewer" />;
  return <Viewer {...props} />;
}

export function FilePreview({ item }: { item: LibraryItem }) {
  if (item.kind === 'link') {
    return item.url ? (
      <Paper withBorder p="md">
        <Text size="sm" mb="xs" style={{ overflowWrap: 'anywhere' }}>
          {item.url}
        </Text>
        <Button
          component="a"
          href={item.url}
          target="_blank"
          rel="noopener noreferrer"
          rightSection={<IconExternalLink size={16} aria-hidden />}
        >
          Open link
        </Button>
      </Paper>
    ) : null;
  }
  const file = item.file;
  if (!file) return null;
  if (file.mime === 'application/pdf') {
    return (
      <LazyPdfViewer
        url={file.url ?? fileRoute(file.fileId)}
        httpHeaders={file.url ? undefined : authHeaders()}
        title={item.title}
      />
    );
  }
  if (item.kind === 'image' || item.kind === 'video' || item.kind === 'audio') {
    return <MediaPreview item={item} />;
  }
  return (
    <Text size="sm" c="dimmed">
      There is no preview of this type of file. Download it to open it.
    </Text>
  );
}

function MediaPreview({ item }: { item: LibraryItem }) {
  const file = item.file;
  // Video and audio play from the signed URL only: a copy fetched with the token would be a
  // blob: URL, which the app's CSP does not allow for media (and would load the whole file).
  const playable = item.kind === 'image' || !!file?.url;
  const source = useFileSource(file && playable ? fileRoute(file.fileId) : null, file?.url);
  if (!file) return null;
  if (!playable) {
    return (
      <Text size="sm" c="dimmed">
        This file cannot be played here. Download it to play it.
      </Text>
    );
  }
  if (source.error) {
    return (
      <Alert color="red" role="alert">
        {`The preview could not be loaded: ${source.error}`}
      </Alert>
    );
  }
  if (!source.src) return <Loader size="sm" aria-label="Loading the preview" />;
  if (item.kind === 'image') {
    return <Image src={source.src} alt={item.title} fit="contain" mah={600} radius="sm" />;
  }
  if (item.kind === 'video') {
    return (
      <video
        controls
        preload="metadata"
        src={source.src}
        aria-label={item.title}
        style={{ width: '100%', maxHeight: '70vh', background: 'black' }}
      >
        <Anchor href={source.src}>{item.title}</Anchor>
      </video>
    );
  }
  return (
    <audio
      controls
      preload="metadata"
      src={source.src}
      aria-label={item.title}
      style={{ width: '100%' }}
    >
      <Anchor href={source.src}>{item.title}</Anchor>
    </audio>
  );
}
