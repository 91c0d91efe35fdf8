import { describe, expect, it } from 'vitest';
import { FILE_NAME_MAX, sanitiseFileName } from './files';

describe('sanitiseFileName', () => {
  it('keeps ordinary names', () => {
    expect(sanitiseFileName('OTDR trace 2026-11.sor')).toBe('OTDR trace 2026-11.sor');
    expect(sanitiseFileName('Spleißprotokoll.pdf')).toBe('Spleißprotokoll.pdf');
  });

  it('drops directory parts, control and bidi characters', () => {
    expect(sanitiseFileName('../../etc/passwd')).toBe('passwd');
    expect(sanitiseFileName('C:\\Users\\sam\\report.pdf')).toBe('report.pdf');
    expect(sanitiseFileName('invoice\u202Efdp.exe')).toBe('invoicefdp.exe');
    expect(sanitiseFileName('a\u0000b\nc.txt')).toBe('a b c.txt');
  });

  it('names what is left empty "file"', () => {
    for (const raw of ['', '..', '/', 'dir/', '\u202E']) expect(sanitiseFileName(raw)).toBe('file');
  });

  it('caps the length and keeps the extension', () => {
    const name = sanitiseFileName(`${'x'.repeat(500)}.pdf`);
    expect(name).toHaveLength(FILE_NAME_MAX);
    expect(name.endsWith('x.pdf')).toBe(true);
    expect(sanitiseFileName('y'.repeat(500))).toHaveLength(FILE_NAME_MAX);
  });
});
