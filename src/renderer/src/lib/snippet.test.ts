import { describe, expect, it } from 'vitest';
import { snippetPieces } from './snippet';

describe('snippetPieces', () => {
  it('marks the bracketed hits and keeps the text between them', () => {
    expect(snippetPieces('fix the [login] page [now]')).toEqual([
      { text: 'fix the ', hit: false },
      { text: 'login', hit: true },
      { text: ' page ', hit: false },
      { text: 'now', hit: true },
    ]);
  });
  it('leaves a snippet without hits as one piece', () => {
    expect(snippetPieces('plain text')).toEqual([{ text: 'plain text', hit: false }]);
  });
});
