import {
  SNIPPET_HIT_END,
  SNIPPET_HIT_START,
  TYPO_MIN_LENGTH,
  foldWord as foldAccentsAndCase,
  typoMatches,
} from '../../../../shared/search-query';

/**
 * The search of tasks stored but not yet in the full-text index (cache migration 019), done in
 * JavaScript over their text as the index would have done it: each typed word must match in the
 * name or in the custom-field text, as the start of a word there (`"word"*`), a word that the
 * tokenizer splits (`e-mail`) as consecutive words, the last one's start; in a search's second
 * round, a single word of five letters or more also matches a word within one typo of it
 * (`typoMatches`). Words are folded as the index folds them (`unicode61 remove_diacritics 2`:
 * case and accents apart).
 */

/**
 * A word folded as the index folds it: case and accents apart, and Greek final sigma and the
 * micro sign as their plain letters (the index folds them; `toLowerCase` keeps them).
 */
function foldWord(word: string): string {
  return foldAccentsAndCase(word).replace(/ς/g, 'σ').replace(/µ/g, 'μ');
}

/** One word of a text: where it starts and ends there, and its folded form. */
interface Token {
  start: number;
  end: number;
  folded: string;
}

/**
 * What the index counts as a word: letters, digits, private-use characters, and the Latin accent
 * marks (U+0300 block) only; any other mark (a Devanagari vowel sign, Arabic harakat, Hebrew
 * niqqud) splits words there, as it does in the index and in what the user types (`wordsOf`).
 */
const WORD = /[\p{L}\p{N}\p{Co}\u0300-\u036F]+/gu;

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

/**
 * Where `term` matches in `words` (folded): the index of the first word it covers, or -1. With
 * `typos`, a single word of five letters or more (no digit) may match within one typo.
 */
function matchAt(words: readonly string[], term: TermWords, typos: boolean): number {
  const last = term.length - 1;
  const typo = typos && last === 0 && term[0]!.length >= TYPO_MIN_LENGTH && !/\d/.test(term[0]!);
  for (let i = 0; i + last < words.length; i++) {
    let ok = true;
    for (let j = 0; j < last && ok; j++) ok = words[i + j] === term[j];
    if (!ok) continue;
    const word = words[i + last]!;
    if (word.startsWith(term[last]!) || (typo && typoMatches(term[0]!, word))) return i;
  }
  return -1;
}

/** A task's text as the index holds it: its name, and its custom-field values' text. */
export interface UnindexedText {
  name: string;
  fields: string | null;
}

/** The folded words of a text: split first (a mark may split words), then each folded. */
export function foldedWords(text: string | null): string[] {
  return text ? (text.match(WORD) ?? []).map(foldWord).filter((w) => w.length > 0) : [];
}

/**
 * Whether every term matches in the name or in the fields: `'exact'` as each typed word's start,
 * `'typo'` only with one typo forgiven in some word, null not even so.
 */
export function matchUnindexed(text: UnindexedText, terms: readonly TermWords[]): 'exact' | 'typo' | null {
  return matchWords([foldedWords(text.name), foldedWords(text.fields)], terms);
}

/** `matchUnindexed` over the folded words of each column (`foldedWords`), kept between searches. */
export function matchWords(
  columns: readonly (readonly string[])[],
  terms: readonly TermWords[],
): 'exact' | 'typo' | null {
  if (!terms.length) return null;
  let found: 'exact' | 'typo' = 'exact';
  for (const term of terms) {
    if (columns.some((words) => matchAt(words, term, false) >= 0)) continue;
    if (!columns.some((words) => matchAt(words, term, true) >= 0)) return null;
    found = 'typo';
  }
  return found;
}

/**
 * The snippet of a task that matched: the column with the most matched terms (the name on a
 * tie), its matched words marked as the index's `snippet()` marks them.
 */
export function unindexedSnippet(text: UnindexedText, terms: readonly TermWords[], typos: boolean): string {
  const columns = [text.name, text.fields ?? ''].map((t) => ({
    text: t,
    tokens: tokensOf(t),
    hits: new Set<number>(),
    terms: 0,
  }));
  for (const column of columns) {
    const words = column.tokens.map((t) => t.folded);
    for (const term of terms) {
      const at = matchAt(words, term, typos);
      if (at < 0) continue;
      column.terms++;
      for (let k = 0; k < term.length; k++) column.hits.add(at + k);
    }
  }
  const best = columns[1]!.terms > columns[0]!.terms ? columns[1]! : columns[0]!;
  return snippetOf(best.text, best.tokens, best.hits);
}

/** Words a snippet shows at most, as the index's `snippet()` is asked for (search.ts). */
const SNIPPET_WORDS = 12;

/**
 * The text with its matched words marked, cut to `SNIPPET_WORDS` words from shortly before the
 * first match (an ellipsis where it was cut), as the index's `snippet()` cuts a long text.
 */
function snippetOf(text: string, tokens: readonly Token[], hits: ReadonlySet<number>): string {
  const firstHit = hits.size ? Math.min(...hits) : 0;
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
