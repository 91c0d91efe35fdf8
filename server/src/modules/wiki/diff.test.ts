import { describe, expect, it } from 'vitest';
import { renderBlocks, splitBlocks } from './blocks';
import { diffHtml, wordCount } from './diff';

describe('the block model', () => {
  it('splits sanitised HTML into blocks and puts any sequence of them back as valid HTML', () => {
    const html =
      '<h2>Splicing &amp; more</h2><p>Clean the <strong>fibre</strong>.</p>loose <a href="/x">link</a>' +
      '<ul data-type="taskList"><li data-type="taskItem" data-checked="true"><p>Gas test</p></li>' +
      '<li data-type="taskItem" data-checked="false"><p>Barrier</p></li></ul>' +
      '<table><colgroup><col /></colgroup><tbody><tr><th>Colour</th><th>Fibre</th></tr>' +
      '<tr><td>Blue</td><td>1</td></tr></tbody></table>' +
      '<div data-callout="warning"><p>Live laser</p><p>Cap it</p></div>' +
      '<pre><code class="language-bash">otdr --range 20km</code></pre><p><img src="/api/files/f1" alt="trace" /></p>';
    const blocks = splitBlocks(html);
    expect(blocks.map((b) => [b.tag, b.text])).toEqual([
      ['h2', 'Splicing & more'],
      ['p', 'Clean the fibre.'],
      ['p', 'loose link'],
      ['li', '[x] Gas test'],
      ['li', '[ ] Barrier'],
      ['colgroup', ''],
      ['tr', 'Colour | Fibre'],
      ['tr', 'Blue | 1'],
      ['p', 'Live laser'],
      ['p', 'Cap it'],
      ['pre', 'otdr --range 20km'],
      ['p', '[image: trace]'],
    ]);
    expect(renderBlocks(blocks)).toBe(html);
    // A subset keeps its lists and tables whole.
    expect(renderBlocks([blocks[0], blocks[4], blocks[7], blocks[9]].map((b) => b!))).toBe(
      '<h2>Splicing &amp; more</h2><ul data-type="taskList"><li data-type="taskItem" data-checked="false"><p>Barrier</p></li></ul>' +
        '<table><tbody><tr><td>Blue</td><td>1</td></tr></tbody></table><div data-callout="warning"><p>Cap it</p></div>',
    );
    expect(splitBlocks('')).toEqual([]);
  });
});

describe('diffHtml', () => {
  it('aligns blocks, pairs changed ones with word parts, and counts words', () => {
    const from =
      '<h2>Splicing</h2><p>Clean the fibre with alcohol.</p><p>Cleave at 10 mm.</p><ul><li>Tray</li></ul>';
    const to =
      '<h2>Splicing</h2><p>Clean the bare fibre with alcohol.</p><ul><li>Tray</li><li>Sleeve</li></ul><p>Test it.</p>';
    const { blocks, stats } = diffHtml(from, to);
    expect(blocks.map((b) => [b.op, b.tag, b.from, b.to])).toEqual([
      ['equal', 'h2', 'Splicing', 'Splicing'],
      ['change', 'p', 'Clean the fibre with alcohol.', 'Clean the bare fibre with alcohol.'],
      ['delete', 'p', 'Cleave at 10 mm.', null],
      ['equal', 'li', 'Tray', 'Tray'],
      ['insert', 'li', null, 'Sleeve'],
      ['insert', 'p', null, 'Test it.'],
    ]);
    expect(blocks[1]?.parts.filter((p) => p.op !== 'equal')).toEqual([
      { text: 'bare ', op: 'insert' },
    ]);
    expect(blocks[0]?.parts).toEqual([{ text: 'Splicing', op: 'equal' }]);
    expect(stats).toEqual({ insertedWords: 1 + 1 + 2, deletedWords: 4 });
  });

  it('shows a change of markup only as a change with equal words, and nothing for the same HTML', () => {
    const { blocks, stats } = diffHtml(
      '<p>Cap the fibre.</p>',
      '<p>Cap the <strong>fibre</strong>.</p>',
    );
    expect(blocks).toEqual([
      {
        op: 'change',
        tag: 'p',
        from: 'Cap the fibre.',
        to: 'Cap the fibre.',
        parts: [{ text: 'Cap the fibre.', op: 'equal' }],
      },
    ]);
    expect(stats).toEqual({ insertedWords: 0, deletedWords: 0 });
    expect(diffHtml('<p>a</p>', '<p>a</p>').blocks.map((b) => b.op)).toEqual(['equal']);
    expect(diffHtml('', '<p>new words</p>').stats).toEqual({ insertedWords: 2, deletedWords: 0 });
  });

  it('counts words, not punctuation', () => {
    expect(wordCount('It’s 10 mm — cleave, don’t snap!')).toBe(6);
    expect(wordCount(' … ')).toBe(0);
  });
});
