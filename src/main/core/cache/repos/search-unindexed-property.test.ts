// The direct search of tasks not yet indexed must find every task the full-text index would find
// for the same typed text (it may find more): checked on random texts of mixed scripts against
// FTS5 itself, with the task index's own tokenizer.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openCacheDb } from '../db';
import { toFtsQuery } from './search';
import { matchUnindexed, termsOf } from './search-unindexed';

/** Characters that stress the tokenizer: Latin accents, Greek sigmas, Indic and Thai vowel signs,
 * Arabic harakat, emoji joiners, CJK, Hangul, compatibility letters, separators. */
const CHARS = [
  'a',
  'b',
  'é',
  'E',
  'ü',
  'ß',
  'İ',
  'ı',
  'ø',
  ' ',
  ' ',
  '-',
  '_',
  '"',
  '*',
  '(',
  '1',
  '2',
  '\u0301',
  '\u0327',
  'Σ',
  'σ',
  'ς',
  'ά',
  'α',
  'µ',
  'μ',
  'Ω',
  'Ω',
  'ǅ',
  'ǆ',
  'Å',
  'Å',
  'ह',
  'ि',
  'न',
  '्',
  'द',
  'ी',
  'ก',
  'ิ',
  'ี',
  'ย',
  'م',
  'ُ',
  'ح',
  '\u0650',
  'ש',
  'ָ',
  '😀',
  '\uFE0F',
  '\u200D',
  '日',
  '本',
  '한',
  '국',
];

describe('search of tasks not yet indexed against the index', () => {
  it('finds every task the index matches for the same text, in any script', () => {
    const db = openCacheDb(':memory:');
    const put = db.prepare('INSERT INTO tasks_fts (rowid, name, fields) VALUES (1, ?, ?)');
    const indexFinds = (name: string, fields: string | null, typed: string): boolean => {
      const q = toFtsQuery(typed);
      if (!q) return false;
      db.exec('DELETE FROM tasks_fts');
      put.run(name, fields);
      return db.prepare('SELECT count(*) FROM tasks_fts WHERE tasks_fts MATCH ?').pluck().get(q) === 1;
    };
    /** The words as the search splits what a user typed (`search.ts`). */
    const typedTerms = (typed: string) => termsOf(typed.match(/[\p{L}\p{N}_]+/gu) ?? []);
    const text = fc.array(fc.constantFrom(...CHARS), { minLength: 1, maxLength: 14 }).map((a) => a.join(''));
    fc.assert(
      fc.property(text, fc.option(text), fc.nat(), fc.nat(), (name, fields, at, length) => {
        // A piece of the task's own text, as a user would type it.
        const all = `${name} ${fields ?? ''}`;
        const start = at % all.length;
        const typed = all.slice(start, start + 1 + (length % 8));
        if (!indexFinds(name, fields, typed)) return;
        expect(matchUnindexed({ name, fields }, typedTerms(typed))).toBe('exact');
      }),
      { numRuns: 400, seed: 24 },
    );
    db.close();
  });
});
