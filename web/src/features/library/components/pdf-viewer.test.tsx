import { MantineProvider } from '@mantine/core';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { theme } from '../../../app/theme';
import PdfViewer from './pdf-viewer';

// pdf.js itself cannot draw in jsdom: a two-page document of 600 × 800 points stands in for it.
vi.mock('pdfjs-dist/build/pdf.worker.min.mjs?url', () => ({ default: 'pdf.worker.js' }));
vi.mock('pdfjs-dist', () => ({
  GlobalWorkerOptions: {},
  getDocument: () => ({
    promise: Promise.resolve({
      numPages: 2,
      getPage: () =>
        Promise.resolve({
          getViewport: ({ scale }: { scale: number }) => ({
            width: 600 * scale,
            height: 800 * scale,
          }),
          render: () => ({ promise: Promise.resolve(), cancel: () => undefined }),
        }),
    }),
    destroy: () => Promise.resolve(),
  }),
}));

function renderViewer() {
  render(
    <MantineProvider theme={theme}>
      <PdfViewer url="/api/files/f1" title="Splicing guide" />
    </MantineProvider>,
  );
}

/** The drawn page's width on the screen, in CSS pixels. */
const pageWidth = () =>
  screen.getByRole('img', { name: /^Splicing guide, page 1 of 2/ }).style.width;

describe('PdfViewer zoom', () => {
  it('fits the page to the width of its box first, then zooms in and out, and fits again', async () => {
    const user = userEvent.setup();
    renderViewer();
    const fit = await screen.findByRole('button', { name: 'Fit to width' });
    // jsdom lays nothing out: the box counts as 800 px wide, 800 / 600 points = 133 %.
    await waitFor(() => expect(pageWidth()).toBe('800px'));
    expect(fit).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByText('133 %')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Zoom in' }));
    await waitFor(() => expect(pageWidth()).toBe('1002px'));
    expect(screen.getByText('167 %')).toBeInTheDocument();
    expect(fit).toHaveAttribute('aria-pressed', 'false');
    // Zoomed, the page scrolls inside a box the keyboard can reach.
    expect(screen.getByRole('region', { name: 'Splicing guide, zoomed page' })).toHaveAttribute(
      'tabindex',
      '0',
    );

    await user.click(screen.getByRole('button', { name: 'Zoom out' }));
    await user.click(screen.getByRole('button', { name: 'Zoom out' }));
    await waitFor(() => expect(screen.getByText('107 %')).toBeInTheDocument());
    expect(pageWidth()).toBe('642px');

    await user.click(fit);
    await waitFor(() => expect(pageWidth()).toBe('800px'));
    expect(fit).toHaveAttribute('aria-pressed', 'true');
    expect(screen.queryByRole('region', { name: /zoomed page/ })).not.toBeInTheDocument();
  });

  it('stops at the smallest and largest zoom', async () => {
    const user = userEvent.setup();
    renderViewer();
    const zoomIn = await screen.findByRole('button', { name: 'Zoom in' });
    for (let i = 0; i < 8; i += 1) {
      if (zoomIn.hasAttribute('disabled')) break;
      await user.click(zoomIn);
    }
    await waitFor(() => expect(screen.getByText('400 %')).toBeInTheDocument());
    expect(zoomIn).toBeDisabled();
  });
});
