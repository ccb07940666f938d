import { describe, expect, it } from 'vitest';
import { SNIPPET_HIT_END as E, SNIPPET_HIT_START as S } from '@shared/search-query';
import { snippetPieces, snippetText } from './snippet';

describe('snippetPieces', () => {
  it('marks the hits and keeps the text between them, brackets in the text included', () => {
    expect(snippetPieces(`fix the ${S}login${E} page [now] ${S}today${E}`)).toEqual([
      { text: 'fix the ', hit: false },
      { text: 'login', hit: true },
      { text: ' page [now] ', hit: false },
      { text: 'today', hit: true },
    ]);
    expect(snippetText(`a ${S}b${E} c`)).toBe('a b c');
  });
  it('leaves a snippet without hits as one piece', () => {
    expect(snippetPieces('plain text')).toEqual([{ text: 'plain text', hit: false }]);
  });
});
