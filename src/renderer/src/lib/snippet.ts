// A search snippet as text pieces, its hits marked, so no HTML from the cache is rendered.
import { SNIPPET_HIT_END, SNIPPET_HIT_START } from '@shared/search-query';

export interface SnippetPiece {
  text: string;
  hit: boolean;
}

const PARTS = new RegExp(`(${SNIPPET_HIT_START}[^${SNIPPET_HIT_END}]*${SNIPPET_HIT_END})`);

export function snippetPieces(snippet: string): SnippetPiece[] {
  return snippet
    .split(PARTS)
    .filter((part) => part !== '')
    .map((part) =>
      part.startsWith(SNIPPET_HIT_START) && part.endsWith(SNIPPET_HIT_END)
        ? { text: part.slice(1, -1), hit: true }
        : { text: part.replaceAll(SNIPPET_HIT_START, '').replaceAll(SNIPPET_HIT_END, ''), hit: false },
    );
}

/** A snippet's text without its hit marks. */
export function snippetText(snippet: string): string {
  return snippetPieces(snippet)
    .map((piece) => piece.text)
    .join('');
}
