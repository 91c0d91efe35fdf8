/**
 * Hostile PDFs for the tests and benchmarks of the content workers (docs/jobs.md): small files
 * that cost a reader far more than their size. Written as raw PDF bytes, in milliseconds.
 */
import { constants, deflateRawSync } from 'node:zlib';

/** A PDF of `objects` (numbered from 1; object 1 the catalog) with a correct cross-reference. */
function pdfOf(objects: Buffer[]): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let length = parts[0]?.length ?? 0;
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(length);
    const head = Buffer.from(`${i + 1} 0 obj\n`, 'latin1');
    const tail = Buffer.from('\nendobj\n', 'latin1');
    parts.push(head, object, tail);
    length += head.length + object.length + tail.length;
  });
  let xref = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) xref += `${String(offset).padStart(10, '0')} 00000 n \n`;
  xref += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`;
  parts.push(Buffer.from(xref, 'latin1'));
  return Buffer.concat(parts);
}

const text = (s: string) => Buffer.from(s, 'latin1');

/** A stream object: its dictionary entries (without /Length) and its (encoded) bytes. */
const stream = (dict: string, data: Buffer) =>
  Buffer.concat([
    text(`<< ${dict} /Length ${data.length} >>\nstream\n`),
    data,
    text('\nendstream'),
  ]);

/**
 * A zlib stream (FlateDecode) that inflates to `bytes` zero bytes: one deflated megabyte of zeros
 * ended by a full flush (so every copy of it is the same bytes and stands alone), repeated, then
 * an empty last block and the Adler-32 of the whole. About 1 KB per inflated MB.
 */
export function zerosDeflated(bytes: number): Buffer {
  const block = 1024 * 1024;
  if (bytes % block !== 0) throw new Error('a whole number of megabytes');
  const one = deflateRawSync(Buffer.alloc(block), {
    level: 9,
    finishFlush: constants.Z_FULL_FLUSH,
  });
  const count = bytes / block;
  const adler = Buffer.alloc(4);
  // Adler-32 of n zero bytes: a = 1, b = n (mod 65521).
  adler.writeUInt32BE((((bytes % 65521) << 16) | 1) >>> 0);
  return Buffer.concat([
    Buffer.from([0x78, 0xda]),
    ...Array.from({ length: count }, () => one),
    Buffer.from([0x03, 0x00]),
    adler,
  ]);
}

/**
 * A decompression bomb: one page whose content stream is `inflatedBytes` (default 1 GB) of zero
 * bytes (white space to a PDF reader) compressed with FlateDecode to about a thousandth of that.
 * A reader that draws the page, or reads its text, inflates all of it.
 */
export function compressionBombPdf(inflatedBytes = 1024 * 1024 * 1024): Buffer {
  return pdfOf([
    text('<< /Type /Catalog /Pages 2 0 R >>'),
    text('<< /Type /Pages /Kids [3 0 R] /Count 1 >>'),
    text('<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R >>'),
    stream('/Filter /FlateDecode', zerosDeflated(inflatedBytes)),
  ]);
}

/**
 * A PDF of `pages` pages (default 10,000: about 2.3 MB), each with a line of text ("Page n of
 * the long manual"), all in one flat page tree.
 */
export function manyPagesPdf(pages = 10_000): Buffer {
  const first = 5; // objects 1–4: catalog, pages, font, resources; then each page and its content
  const kids = Array.from({ length: pages }, (_, i) => `${first + 2 * i} 0 R`).join(' ');
  const objects = [
    text('<< /Type /Catalog /Pages 2 0 R >>'),
    text(
      `<< /Type /Pages /Kids [${kids}] /Count ${pages} /MediaBox [0 0 595 842] /Resources 4 0 R >>`,
    ),
    text('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>'),
    text('<< /Font << /F1 3 0 R >> >>'),
  ];
  for (let i = 0; i < pages; i += 1) {
    objects.push(text(`<< /Type /Page /Parent 2 0 R /Contents ${first + 2 * i + 1} 0 R >>`));
    objects.push(
      stream('', text(`BT /F1 12 Tf 72 770 Td (Page ${i + 1} of the long manual) Tj ET`)),
    );
  }
  return pdfOf(objects);
}
