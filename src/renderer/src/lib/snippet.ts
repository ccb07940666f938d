// A search snippet as text pieces, its [hits] marked, so no HTML from the cache is rendered.
export interface SnippetPiece {
  text: string;
  hit: boolean;
}

export function snippetPieces(snippet: string): SnippetPiece[] {
  return snippet
    .split(/(\[[^\]]*\])/)
    .filter((part) => part !== '')
    .map((part) =>
      part.startsWith('[') && part.endsWith(']')
        ? { text: part.slice(1, -1), hit: true }
        : { text: part, hit: false },
    );
}
