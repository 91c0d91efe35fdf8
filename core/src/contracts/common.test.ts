import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  hasBidiControl,
  hasLoneSurrogate,
  identityText,
  personName,
  sanitiseIdentityText,
  storableText,
} from './common';

/** Characters the schemas must never let through, plus some they must normalise. */
const TRICKY = [
  '\u202a',
  '\u202b',
  '\u202c',
  '\u202d',
  '\u202e',
  '\u2066',
  '\u2067',
  '\u2068',
  '\u2069',
  '\u200e',
  '\u200f',
  '\u061c',
  '\ud800',
  '\udbff',
  '\udc00',
  '\udfff',
  '\u0000',
  '\u0009',
  '\u000a',
  '\u000d',
  '\u001b',
  '\u007f',
  '\u0085',
  '\u009f',
  '\u2028',
  '\u2029',
  'e\u0301',
  '\u0301',
  'A\u030a',
  '\u212b',
  '\u1e9b\u0323',
  '\ufb01',
  '\uff54',
  ' ',
  '\u00a0',
  '\ud83d\ude00',
  '\u200d',
  '\u200c',
  'ا',
  'ש',
  '中',
  'a',
  'Z',
  '-',
  "'",
];

/** Any sequence of UTF-16 code units (lone surrogates included), salted with the tricky ones. */
const anyText = fc
  .array(
    fc.oneof(
      fc.constantFrom(...TRICKY),
      fc.integer({ min: 0, max: 0xffff }).map((u) => String.fromCharCode(u)),
      fc.string({ unit: 'binary', maxLength: 3 }),
    ),
    { maxLength: 40 },
  )
  .map((parts) => parts.join(''));

const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

function accepted(schema: z.ZodType<string>, value: unknown): string | null {
  const result = schema.safeParse(value);
  return result.success ? result.data : null;
}

describe('identityText / personName', () => {
  const firstName = personName('First name');

  it('accepts only text without bidi controls, controls or lone surrogates, in NFC', () => {
    fc.assert(
      fc.property(anyText, (input) => {
        const out = accepted(firstName, input);
        if (out === null) return;
        expect(hasBidiControl(out)).toBe(false);
        expect(BIDI.test(out)).toBe(false);
        expect(hasLoneSurrogate(out)).toBe(false);
        expect(CONTROL.test(out)).toBe(false);
        expect(out.normalize('NFC')).toBe(out);
        expect(out).toBe(out.trim());
        expect(out.length).toBeGreaterThan(0);
        expect(out.length).toBeLessThanOrEqual(100);
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses every input holding a bidi control, a control character or a lone surrogate', () => {
    fc.assert(
      fc.property(anyText, (input) => {
        const bad = BIDI.test(input) || CONTROL.test(input) || hasLoneSurrogate(input);
        if (bad) expect(firstName.safeParse(input).success).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses the display-spoofing name of the report with a message naming the field', () => {
    const result = firstName.safeParse('\u202egnp.exe');
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(
      'First name must not contain invisible characters that change the text direction (such as U+202E).',
    );
  });

  it.each([
    ['isolate', 'Ann\u2067a'],
    ['mark', 'Ann\u200fa'],
    ['Arabic letter mark', 'Ann\u061ca'],
  ])('refuses a bidi %s', (_kind, value) => {
    expect(firstName.safeParse(value).success).toBe(false);
  });

  it.each([
    ['lone high surrogate', 'Ann\ud800a', 'First name contains a broken character'],
    ['lone low surrogate', '\udc00Anna', 'First name contains a broken character'],
    ['NUL', 'Ann\u0000a', 'First name contains characters that are not allowed'],
    ['tab', 'Ann\ta', 'First name contains characters that are not allowed'],
    ['line break', 'Anna\nSmith', 'First name contains characters that are not allowed'],
    ['C1 control', 'Anna\u0085', 'First name contains characters that are not allowed'],
  ])('refuses a %s with a clear message', (_kind, value, message) => {
    const result = firstName.safeParse(value);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toContain(message);
  });

  it('normalises to NFC and trims', () => {
    expect(accepted(firstName, '  Ame\u0301lie  ')).toBe('Am\u00e9lie');
    expect(accepted(firstName, '\u212bngstr\u00f6m')).toBe('\u00c5ngstr\u00f6m');
  });

  it('welcomes names in any script, emoji and joiners', () => {
    for (const name of [
      'Zoë',
      'محمد',
      'שרה',
      '山田',
      'Nguyễn',
      'O\u2019Brien',
      '👩\u200d🔬',
      'می\u200cخواهم',
    ]) {
      expect(accepted(firstName, name)).toBe(name.normalize('NFC'));
    }
  });

  it('refuses empty, blank, over-long and non-text values', () => {
    expect(firstName.safeParse('').error?.issues[0]?.message).toBe('First name is required');
    expect(firstName.safeParse('   ').error?.issues[0]?.message).toBe('First name is required');
    expect(firstName.safeParse(undefined).error?.issues[0]?.message).toBe('First name is required');
    expect(firstName.safeParse(7).error?.issues[0]?.message).toBe('First name must be text');
    expect(firstName.safeParse('x'.repeat(101)).error?.issues[0]?.message).toBe(
      'First name must be at most 100 characters',
    );
  });

  it('takes its own length limits', () => {
    const label = identityText('Label', { max: 5, min: 2 });
    expect(label.safeParse('a').error?.issues[0]?.message).toBe(
      'Label must be at least 2 characters',
    );
    expect(accepted(label, 'abcde')).toBe('abcde');
    expect(label.safeParse('abcdef').success).toBe(false);
  });
});

describe('sanitiseIdentityText (values from a directory or identity provider)', () => {
  it('always yields text the identity schema accepts, or nothing', () => {
    const schema = identityText('Name', { max: 20 });
    fc.assert(
      fc.property(anyText, (input) => {
        const out = sanitiseIdentityText(input, 20);
        if (out === '') return;
        expect(accepted(schema, out)).toBe(out);
      }),
      { numRuns: 2000 },
    );
  });

  it('drops the reordering controls and keeps the letters', () => {
    expect(sanitiseIdentityText('\u202egnp.exe')).toBe('gnp.exe');
    expect(sanitiseIdentityText('Ann\u0000a\tMaria\ud800')).toBe('Ann a Maria');
  });

  it('never cuts a surrogate pair in half', () => {
    expect(sanitiseIdentityText('ab\ud83d\ude00', 3)).toBe('ab');
  });
});

describe('storableText (longer free text)', () => {
  const description = storableText(500, 'Description');

  it('keeps line breaks and direction marks but refuses reordering controls and lone surrogates', () => {
    expect(description.safeParse('line one\nline two\twith tab').success).toBe(true);
    expect(description.safeParse('עברית\u200f (Hebrew)').success).toBe(true);
    expect(description.safeParse('see \u202egnp.exe').error?.issues[0]?.message).toContain(
      'Description must not contain invisible characters that change the text direction',
    );
    expect(description.safeParse('broken \udc00').error?.issues[0]?.message).toContain(
      'Description contains a broken character',
    );
    expect(description.safeParse('nul \u0000').success).toBe(false);
  });

  it('never accepts a lone surrogate or reordering control', () => {
    fc.assert(
      fc.property(anyText, (input) => {
        const out = accepted(description, input);
        if (out === null) return;
        expect(hasLoneSurrogate(out)).toBe(false);
        expect(/[\u202a-\u202e\u2066-\u2069]/.test(out)).toBe(false);
      }),
      { numRuns: 1000 },
    );
  });
});
