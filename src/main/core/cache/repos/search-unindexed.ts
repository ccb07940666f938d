import {
  SNIPPET_HIT_END,
  SNIPPET_HIT_START,
  TYPO_MIN_LENGTH,
  foldWord,
  typoMatches,
} from '../../../../shared/search-query';

/**
 * The search of tasks stored but not yet in the full-text index (cache migration 018), done in
 * JavaScript over their text as the index would have done it: each typed word must match in the
 * name or in the custom-field text, as the start of a word there (`"word"*`), a word that the
 * tokenizer splits (`e-mail`) as consecutive words, the last one's start; with `typos`, a single
 * word of five letters or more also matches a word within one typo of it (`typoMatches`). Words
 * are folded as the index folds them (`unicode61 remove_diacritics 2`: case and accents apart).
 */

/** One word of a text: where it starts and ends there, and its folded form. */
interface Token {
  start: number;
  end: number;
  folded: string;
}

/** What the index counts as a word: letters, digits, private-use characters (and their marks). */
const WORD = /[\p{L}\p{N}\p{Co}\p{M}]+/gu;

function tokensOf(text: string): Token[] {
  const out: Token[] = [];
  for (const m of text.matchAll(WORD)) {
    const folded = foldWord(m[0]);
    if (folded) out.push({ start: m.index, end: m.index + m[0].length, folded });
  }
  return out;
}

/** A typed word as the index reads a quoted prefix term: its folded words, the last a prefix. */
export type TermWords = readonly string[];

/** The terms of what a user typed (each of `words` one term, as `toFtsQuery` makes them). */
export function termsOf(words: readonly string[]): TermWords[] {
  return words.map((w) => tokensOf(w).map((t) => t.folded)).filter((t) => t.length > 0);
}

/** Where `term` matches in `tokens`: the indexes of the words it covers, or null. */
function matchAt(tokens: readonly Token[], term: TermWords, typos: boolean): number[] | null {
  const last = term.length - 1;
  const typo = typos && last === 0 && term[0]!.length >= TYPO_MIN_LENGTH && !/\d/.test(term[0]!);
  for (let i = 0; i + last < tokens.length; i++) {
    let ok = true;
    for (let j = 0; j < last && ok; j++) ok = tokens[i + j]!.folded === term[j];
    if (!ok) continue;
    const word = tokens[i + last]!.folded;
    if (word.startsWith(term[last]!) || (typo && typoMatches(term[0]!, word)))
      return Array.from({ length: term.length }, (_, k) => i + k);
  }
  return null;
}

/** A task's text as the index holds it: its name, and its custom-field values' text. */
export interface UnindexedText {
  name: string;
  fields: string | null;
}

/**
 * Whether every term matches in the name or in the fields, and if so the snippet: the column
 * with the most matched terms (the name on a tie), its matched words marked as the index's
 * `snippet()` marks them.
 */
export function matchUnindexed(
  text: UnindexedText,
  terms: readonly TermWords[],
  typos: boolean,
): { snippet: string } | null {
  if (!terms.length) return null;
  const columns = [text.name, text.fields ?? ''].map((t) => ({
    text: t,
    tokens: tokensOf(t),
    hits: new Set<number>(),
    terms: 0,
  }));
  for (const term of terms) {
    let found = false;
    for (const column of columns) {
      const at = matchAt(column.tokens, term, typos);
      if (!at) continue;
      found = true;
      column.terms++;
      for (const i of at) column.hits.add(i);
    }
    if (!found) return null;
  }
  const best = columns[1]!.terms > columns[0]!.terms ? columns[1]! : columns[0]!;
  return { snippet: snippetOf(best.text, best.tokens, best.hits) };
}

/** Words a snippet shows at most, as the index's `snippet()` is asked for (search.ts). */
const SNIPPET_WORDS = 12;

/**
 * The text with its matched words marked, cut to `SNIPPET_WORDS` words from shortly before the
 * first match (an ellipsis where it was cut), as the index's `snippet()` cuts a long text.
 */
function snippetOf(text: string, tokens: readonly Token[], hits: ReadonlySet<number>): string {
  const firstHit = Math.min(...hits);
  const first =
    tokens.length > SNIPPET_WORDS ? Math.max(0, Math.min(firstHit - 2, tokens.length - SNIPPET_WORDS)) : 0;
  const last = Math.min(tokens.length, first + SNIPPET_WORDS) - 1;
  let out = first > 0 ? '…' : '';
  let from = first > 0 ? tokens[first]!.start : 0;
  for (let i = first; i <= last; i++) {
    if (!hits.has(i)) continue;
    const { start, end } = tokens[i]!;
    out += `${text.slice(from, start)}${SNIPPET_HIT_START}${text.slice(start, end)}${SNIPPET_HIT_END}`;
    from = end;
  }
  const end = last < tokens.length - 1 ? tokens[last]!.end : text.length;
  return `${out}${text.slice(from, end)}${end < text.length ? '…' : ''}`;
}
