/**
 * Text extraction, PDF thumbnails and sample PDFs, on the local store and real content workers:
 * real PDFs made with pdf-lib (makeSamplePdf), a broken one, and a password-protected one written
 * by hand.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileStore } from './file-store';
import { LocalFileStore } from './local-store';
import { makePdfThumbnail } from './pdf-thumbnail';
import { makeSamplePdf } from './sample-pdf';
import { PNG_1X1 } from './test-files';
import { extractText, MAX_TEXT_BYTES } from './text-extraction';
import { createContentWorkers, type ContentWork } from '../../workers/content-workers';

/**
 * A PDF with the standard security handler whose user password is not empty: a reader must ask
 * for it (pdf.js: PasswordException). The keys are random, so no password opens it.
 */
function encryptedPdf(): Buffer {
  const hex = (n: number) => 'ab'.repeat(n);
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>',
    `<< /Filter /Standard /V 1 /R 2 /O <${hex(32)}> /U <${'cd'.repeat(32)}> /P -44 >>`,
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body +=
    `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Encrypt 4 0 R ` +
    `/ID [<${hex(16)}> <${hex(16)}>] >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

describe('PDFs and text', () => {
  let dir: string;
  let store: FileStore;
  let work: ContentWork;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'lh-pdf-'));
    store = new LocalFileStore(dir);
    const workers = createContentWorkers({
      size: 1,
      maxRssBytes: 512 * 1024 * 1024,
      tempDir: join(dir, 'work'),
    });
    work = { store, workers };
  });
  afterAll(async () => {
    await work.workers.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const put = async (content: Uint8Array | string) =>
    store.put(Readable.from([Buffer.from(content)]), { maxBytes: 50_000_000 });

  it('makes real PDFs with the words given, on as many pages as they need', async () => {
    const short = await makeSamplePdf('Splicing basics', ['Clean the fibre.', 'Cleave at 90°.']);
    expect(Buffer.from(short.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    const stored = await put(short);
    expect(stored.mime).toBe('application/pdf');
    const text = await extractText(work, { storageKey: stored.key, mime: stored.mime });
    expect(text).toEqual({ ok: true, text: expect.stringContaining('Splicing basics') });
    if (!text.ok) return;
    expect(text.text).toContain('Clean the fibre.');
    expect(text.text).toContain('Cleave at 90°.');

    const paragraphs = Array.from(
      { length: 120 },
      (_, i) => `Paragraph ${i + 1}: the OTDR trace shows a reflective event at the connector.`,
    );
    const long = await put(await makeSamplePdf('Field manual', paragraphs));
    const longText = await extractText(work, { storageKey: long.key, mime: long.mime });
    expect(longText.ok && longText.text).toContain('Paragraph 120:');
    const { openPdf } = await import('./pdf-document');
    const { document, close } = await openPdf(await makeSamplePdf('Field manual', paragraphs));
    expect(document.numPages).toBeGreaterThan(1);
    await close();
  });

  it('reads plain text, Markdown and CSV as they are, cut at 2 MB', async () => {
    for (const mime of ['text/plain', 'text/markdown', 'text/csv']) {
      const stored = await put('# Fusion\nsplice;loss\n1;0.02 dB\n');
      expect(await extractText(work, { storageKey: stored.key, mime })).toEqual({
        ok: true,
        text: '# Fusion\nsplice;loss\n1;0.02 dB\n',
      });
    }
    const big = await put('ü'.repeat(MAX_TEXT_BYTES));
    const text = await extractText(work, { storageKey: big.key, mime: 'text/plain' });
    expect(text.ok && Buffer.byteLength(text.text)).toBe(MAX_TEXT_BYTES);
    expect(text.ok && text.text.endsWith('ü')).toBe(true);
  });

  it('says why, without throwing, when a file has no readable text', async () => {
    const encrypted = await put(encryptedPdf());
    expect(await extractText(work, { storageKey: encrypted.key, mime: 'application/pdf' })).toEqual(
      { ok: false, reason: 'The PDF is protected by a password.' },
    );
    const real = await makeSamplePdf('Cut short', ['This PDF ends half way.']);
    const truncated = await put(real.subarray(0, 200));
    const broken = await extractText(work, { storageKey: truncated.key, mime: 'application/pdf' });
    expect(broken).toEqual({
      ok: false,
      reason: expect.stringMatching(/^The file is not a readable PDF \(.+\)\.$/),
    });
    const garbage = await put('%PDF-1.7\n this is not really a PDF at all');
    expect(await extractText(work, { storageKey: garbage.key, mime: 'application/pdf' })).toEqual({
      ok: false,
      reason: expect.stringMatching(/^The file is not a readable PDF/),
    });
    const image = await put(PNG_1X1);
    expect(await extractText(work, { storageKey: image.key, mime: 'image/png' })).toEqual({
      ok: false,
      reason: 'Text cannot be read from files of type image/png.',
    });
    expect(await extractText(work, { storageKey: 'f'.repeat(32), mime: 'text/plain' })).toEqual({
      ok: false,
      reason: expect.stringContaining('missing'),
    });
  });

  it('draws page 1 of a PDF as a WebP of at most 320 px', async () => {
    const pdf = await put(await makeSamplePdf('Thumbnail', ['A page to look at.']));
    const key = await makePdfThumbnail(work, pdf.key);
    const read = await store.get(key);
    const chunks: Buffer[] = [];
    for await (const chunk of read!.stream) chunks.push(chunk as Buffer);
    const image = sharp(Buffer.concat(chunks));
    const meta = await image.metadata();
    expect(meta.format).toBe('webp');
    expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBe(320);
    // A4 is portrait; the page is drawn on white with dark text on it.
    expect(meta.height).toBeGreaterThan(meta.width ?? 0);
    const stats = await image.stats();
    expect(stats.channels[0]?.max).toBe(255);
    expect(stats.channels[0]?.min).toBeLessThan(100);

    const broken = await put('%PDF-1.7\n not a PDF');
    await expect(makePdfThumbnail(work, broken.key)).rejects.toThrow(
      /^The file is not a readable PDF/,
    );
    const encrypted = await put(encryptedPdf());
    await expect(makePdfThumbnail(work, encrypted.key)).rejects.toThrow(
      'The PDF is protected by a password.',
    );
  });
});
