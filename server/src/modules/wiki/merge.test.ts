import { describe, expect, it } from 'vitest';
import { mergePage, mergeRegion, mergeTitle } from './merge';

const page = (html: string, title = 'Splicing') => ({ title, html });

describe('mergePage', () => {
  const base = '<p>one</p><p>two</p><p>three</p><p>four</p>';

  it('merges changes of different paragraphs, adjacent ones included', () => {
    const merge = mergePage({
      base: page(base),
      mine: page('<p>one</p><p>TWO</p><p>three</p><p>four</p>'),
      theirs: page('<p>one</p><p>two</p><p>THREE</p><p>four</p><p>five</p>'),
    });
    expect(merge).toEqual({
      title: 'Splicing',
      blocks: [{ kind: 'merged', html: '<p>one</p><p>TWO</p><p>THREE</p><p>four</p><p>five</p>' }],
      conflicts: 0,
    });
  });

  it('makes a conflict of a paragraph both sides changed differently, and merges the rest', () => {
    const merge = mergePage({
      base: page(base),
      mine: page('<p>one</p><p>two, mine</p><p>three</p><p>four!</p>'),
      theirs: page('<p>zero</p><p>one</p><p>two, theirs</p><p>three</p><p>four</p>'),
    });
    expect(merge.conflicts).toBe(1);
    expect(merge.blocks).toEqual([
      { kind: 'merged', html: '<p>zero</p><p>one</p>' },
      {
        kind: 'conflict',
        base: '<p>two</p>',
        mine: '<p>two, mine</p>',
        theirs: '<p>two, theirs</p>',
      },
      { kind: 'merged', html: '<p>three</p><p>four!</p>' },
    ]);
  });

  it('takes the same change made on both sides once', () => {
    const same = '<p>one</p><p>TWO</p><p>three</p><p>four</p>';
    expect(mergePage({ base: page(base), mine: page(same), theirs: page(same) })).toEqual({
      title: 'Splicing',
      blocks: [{ kind: 'merged', html: same }],
      conflicts: 0,
    });
  });

  it('merges list items and table rows, keeping their lists and tables', () => {
    const merge = mergePage({
      base: page(
        '<ul><li>a</li><li>b</li></ul><table><tbody><tr><td>1</td></tr><tr><td>2</td></tr></tbody></table>',
      ),
      mine: page(
        '<ul><li>A</li><li>b</li></ul><table><tbody><tr><td>1</td></tr><tr><td>2</td></tr></tbody></table>',
      ),
      theirs: page(
        '<ul><li>a</li><li>b</li></ul><table><tbody><tr><td>1</td></tr><tr><td>2!</td></tr></tbody></table>',
      ),
    });
    expect(merge.blocks).toEqual([
      {
        kind: 'merged',
        html: '<ul><li>A</li><li>b</li></ul><table><tbody><tr><td>1</td></tr><tr><td>2!</td></tr></tbody></table>',
      },
    ]);
  });

  it('lets the person order two insertions at the same place', () => {
    const merge = mergePage({
      base: page('<p>a</p><p>b</p>'),
      mine: page('<p>a</p><p>mine</p><p>b</p>'),
      theirs: page('<p>a</p><p>theirs</p><p>b</p>'),
    });
    expect(merge.blocks).toEqual([
      { kind: 'merged', html: '<p>a</p>' },
      { kind: 'conflict', base: '', mine: '<p>mine</p>', theirs: '<p>theirs</p>' },
      { kind: 'merged', html: '<p>b</p>' },
    ]);
  });
});

describe('mergeRegion', () => {
  it('applies non-overlapping hunks of both sides, and refuses overlapping ones', () => {
    expect(mergeRegion(['a', 'b', 'c'], ['a', 'x', 'y', 'c'], ['a', 'b', 'c', 'd'])).toEqual([
      'a',
      'x',
      'y',
      'c',
      'd',
    ]);
    expect(mergeRegion(['a', 'b'], ['new', 'a', 'b'], ['A', 'b'])).toEqual(['new', 'A', 'b']);
    expect(mergeRegion(['a', 'b', 'c'], ['a', 'c'], ['a', 'B', 'c'])).toBeNull();
  });
});

describe('mergeTitle', () => {
  it('takes the changed title, theirs when both changed it', () => {
    expect(mergeTitle('T', 'T', 'Theirs')).toBe('Theirs');
    expect(mergeTitle('T', 'Mine', 'T')).toBe('Mine');
    expect(mergeTitle('T', 'Mine', 'Theirs')).toBe('Theirs');
  });
});
