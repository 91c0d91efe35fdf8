import { describe, expect, it } from 'vitest';
import { parseRange } from './range';

describe('parseRange', () => {
  it('reads one byte range, open-ended and suffix ranges', () => {
    expect(parseRange(undefined, 100)).toEqual({ kind: 'whole' });
    expect(parseRange('bytes=0-9', 100)).toEqual({ kind: 'range', start: 0, end: 9 });
    expect(parseRange('bytes=90-', 100)).toEqual({ kind: 'range', start: 90, end: 99 });
    expect(parseRange('bytes=90-1000', 100)).toEqual({ kind: 'range', start: 90, end: 99 });
    expect(parseRange('bytes=-10', 100)).toEqual({ kind: 'range', start: 90, end: 99 });
    expect(parseRange('bytes=-1000', 100)).toEqual({ kind: 'range', start: 0, end: 99 });
    expect(parseRange('Bytes = 5-5', 100)).toEqual({ kind: 'range', start: 5, end: 5 });
  });

  it('ignores other units and several ranges', () => {
    expect(parseRange('items=0-1', 100)).toEqual({ kind: 'whole' });
    expect(parseRange('bytes=0-1,5-6', 100)).toEqual({ kind: 'whole' });
  });

  it('refuses ranges outside the file or malformed', () => {
    for (const header of [
      'bytes=100-',
      'bytes=200-300',
      'bytes=9-3',
      'bytes=-0',
      'bytes=-',
      'bytes=a-b',
    ]) {
      expect(parseRange(header, 100), header).toEqual({ kind: 'unsatisfiable' });
    }
    expect(parseRange('bytes=0-0', 0)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=-5', 0)).toEqual({ kind: 'unsatisfiable' });
  });
});
