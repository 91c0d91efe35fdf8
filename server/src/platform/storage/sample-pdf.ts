/**
 * Real PDFs with known words, for the demo seed, benchmarks and tests: a title and paragraphs
 * set on A4 pages with pdf-lib, wrapped to the page and continued on new pages as needed.
 */
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';

const PAGE = { width: 595.28, height: 841.89 };
const MARGIN = 56;
const TITLE_SIZE = 20;
const BODY_SIZE = 11;
const LEADING = BODY_SIZE * 1.45;

/** A PDF of `title` and `paragraphs` (WinAnsi text: Latin letters, digits and punctuation). */
export async function makeSamplePdf(title: string, paragraphs: string[]): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(title);
  pdf.setCreator('Learning Hub');
  pdf.setProducer('Learning Hub');
  pdf.setCreationDate(new Date(0));
  pdf.setModificationDate(new Date(0));
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const width = PAGE.width - 2 * MARGIN;

  let page = pdf.addPage([PAGE.width, PAGE.height]);
  let y = PAGE.height - MARGIN;
  const newLine = (height: number) => {
    if (y - height < MARGIN) {
      page = pdf.addPage([PAGE.width, PAGE.height]);
      y = PAGE.height - MARGIN;
    }
    y -= height;
  };

  for (const line of wrap(title, bold, TITLE_SIZE, width)) {
    newLine(TITLE_SIZE * 1.3);
    page.drawText(line, { x: MARGIN, y, size: TITLE_SIZE, font: bold, color: rgb(0.1, 0.1, 0.1) });
  }
  y -= LEADING / 2;
  for (const paragraph of paragraphs) {
    y -= LEADING / 2;
    for (const line of wrap(paragraph, regular, BODY_SIZE, width)) {
      newLine(LEADING);
      page.drawText(line, { x: MARGIN, y, size: BODY_SIZE, font: regular });
    }
  }
  return pdf.save();
}

/** Words of `text` on lines no wider than `width` at `size` (a long word alone on its line). */
function wrap(
  text: string,
  font: { widthOfTextAtSize(text: string, size: number): number },
  size: number,
  width: number,
): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const next = line ? `${line} ${word}` : word;
    if (line && font.widthOfTextAtSize(next, size) > width) {
      lines.push(line);
      line = word;
    } else {
      line = next;
    }
  }
  if (line) lines.push(line);
  return lines.length > 0 ? lines : [''];
}
