import { describe, expect, it } from 'vitest';
import { highlightAll, snippetOf, termMatcher } from './terms';

const marked = (h: { text: string; highlights: [number, number][] }) =>
  h.highlights.map(([a, b]) => h.text.slice(a, b));

describe('highlighting search matches', () => {
  const matches = termMatcher(['splice', 'otdr']);

  it('marks the words the index matched: prefixes and Porter stems, any case or accent', () => {
    expect(marked(highlightAll('Splicing and spliced; OTDRs, splicer, supply', matches))).toEqual([
      'Splicing',
      'spliced',
      'OTDRs',
      'splicer',
    ]);
    expect(marked(highlightAll('Spliçe it', termMatcher(['splice'])))).toEqual(['Spliçe']);
  });

  it('cuts a snippet around the first match, marks it there, and says where it cut', () => {
    const words = Array.from({ length: 60 }, (_, i) => `w${i}`);
    words[30] = 'splicing';
    const snippet = snippetOf(`${words.join(' ')}.`, matches, 10);
    expect(snippet.text).toBe('…w26 w27 w28 w29 splicing w31 w32 w33 w34 w35…');
    expect(marked(snippet)).toEqual(['splicing']);
    // Nothing in the text matched (only the title did): its start.
    expect(snippetOf('Clean the connector first. Then test.', matches, 4).text).toBe(
      'Clean the connector first.…',
    );
    expect(snippetOf('', matches)).toEqual({ text: '', highlights: [] });
  });
});
