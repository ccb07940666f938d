// What a search box's text means beyond its words: a task's number ("353", "#353", with words of
// its project), a task's link, typo tolerance, and a snippet's text without Markdown marks. Pure
// functions shared by the cache's search and the renderer, so tests cover them alone.
import { LinkError, parseLink } from './links';

/** A word that may be a task's number: `353`, `#353`, or a short id of letters and digits. */
const NUMBER_WORD = /^#?([A-Za-z0-9]{1,20})$/;

export type TaskRef =
  /** A task link: the one task it names, by id or by number. */
  | { kind: 'link'; taskId?: string; shortId?: string }
  /**
   * A word that may be a task's number, and the other words, which then must match the task's
   * project (or its name): "website 353" is task 353 of the Website project.
   */
  | { kind: 'number'; shortId: string; hash: boolean; rest: string[] };

/**
 * The task references a search text may hold, most certain first. A link is the whole text; a
 * number is any one word (`#353` or `353`); a word of letters alone is taken for a number only
 * with its `#`, as a plain word is far more often a word.
 */
export function parseTaskRefs(text: string): TaskRef[] {
  const trimmed = text.trim();
  const link = linkRef(trimmed);
  if (link) return [link];
  const words = trimmed.split(/\s+/).filter(Boolean);
  const refs: TaskRef[] = [];
  words.forEach((word, index) => {
    const match = NUMBER_WORD.exec(word);
    const id = match?.[1];
    if (!id) return;
    const hash = word.startsWith('#');
    if (!hash && !/\d/.test(id)) return;
    const rest = words.filter((_, i) => i !== index);
    refs.push({ kind: 'number', shortId: id, hash, rest });
  });
  // "#353" before a bare "353": a word the user marked as a number is the likelier one.
  return refs.sort((a, b) => Number(b.kind === 'number' && b.hash) - Number(a.kind === 'number' && a.hash));
}

/**
 * A whole text that is a link to a task (the app's `workdesk://task/<id>` or the service's web
 * link, read by `parseLink`, the one reader of links), else null: then its words are searched.
 */
function linkRef(text: string): TaskRef | null {
  if (!/^(?:workdesk:|https?:\/\/|(?:www\.)?goodday\.work\/)/i.test(text)) return null;
  try {
    const link = parseLink(text);
    if (link.kind !== 'task') return null;
    return 'id' in link ? { kind: 'link', taskId: link.id } : { kind: 'link', shortId: link.shortId };
  } catch (err) {
    if (err instanceof LinkError) return null;
    throw err;
  }
}

/** A word as the full-text index stores it: lower case, without diacritics. */
export function foldWord(word: string): string {
  return word.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** Words this long or longer are matched with one typo allowed. */
export const TYPO_MIN_LENGTH = 5;

/**
 * True when `a` and `b` differ by at most one typo: an insertion, a deletion, a substitution,
 * or two neighbouring letters swapped ("budgte" for "budget").
 */
export function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (long.length - short.length > 1) return false;
  let i = 0;
  while (i < short.length && short[i] === long[i]) i++;
  if (short.length !== long.length) return short.slice(i) === long.slice(i + 1);
  if (short.slice(i + 1) === long.slice(i + 1)) return true;
  return short[i] === long[i + 1] && short[i + 1] === long[i] && short.slice(i + 2) === long.slice(i + 2);
}

/**
 * True when an indexed `term` matches a typed `word` with one typo after its first letter: the
 * whole term, or (as the word may be a prefix still being typed) the term's start of about the
 * word's length.
 */
export function typoMatches(word: string, term: string): boolean {
  if (word.length < TYPO_MIN_LENGTH || term === word || term.startsWith(word)) return false;
  // A typo on the first letter is not forgiven: the index is read from the word's first letter.
  if (term[0] !== word[0]) return false;
  for (const length of [word.length - 1, word.length, word.length + 1]) {
    if (length <= 0 || length > term.length) continue;
    if (withinOneEdit(word, term.slice(0, length))) return true;
  }
  return false;
}

/** Marks around the matched words of a snippet (private-use characters, never in typed text). */
export const SNIPPET_HIT_START = '\uE000';
export const SNIPPET_HIT_END = '\uE001';

const START = SNIPPET_HIT_START;
const END = SNIPPET_HIT_END;
/** A hit mark, which may sit inside a Markdown construct the snippet cut through. */
const M = `[${START}${END}]*`;

/**
 * A snippet cut from Markdown text (a message, a document), read as plain text: links keep
 * their text, and emphasis, code, heading, quote and list marks go. The hit marks stay.
 */
export function plainSnippet(snippet: string): string {
  return (
    snippet
      // [text](address) -> text, also when the snippet starts or ends inside it
      .replace(new RegExp(`!?\\[(${M}[^\\]\\n]*?${M})\\]\\([^)\\s]*\\)?`, 'g'), '$1')
      .replace(/\]\((?:https?|mailto|workdesk):[^)\s]*\)?/gi, '')
      .replace(/\((?:https?|workdesk):\/\/[^)\s]*$/i, '')
      // line-start marks: headings, quotes, list bullets and numbers
      .replace(new RegExp(`(^|\\n)${M}\\s*(?:#{1,6}|>|[-*+]|\\d+[.)])\\s+`, 'g'), '$1')
      // emphasis and code marks
      .replace(/(\*\*|__|~~|`+)/g, '')
      .replace(/(^|[\s(])[*_](?=\S)/g, '$1')
      .replace(/(\S)[*_](?=[\s.,;:!?)]|$)/g, '$1')
      .replace(/\s*\n\s*/g, ' ')
  );
}
