import { describe, expect, it } from 'vitest';
import { SNIPPET_HIT_END as E, SNIPPET_HIT_START as S } from '../../../../shared/search-query';
import { matchUnindexed, termsOf, unindexedSnippet } from './search-unindexed';

/** The words as the search splits what a user typed (`search.ts`: letters, digits, `_`). */
const typed = (text: string) => termsOf(text.match(/[\p{L}\p{N}_]+/gu) ?? []);
const match = (name: string, text: string, fields: string | null = null) =>
  matchUnindexed({ name, fields }, typed(text));
const snippet = (name: string, text: string, fields: string | null = null, typos = false) =>
  unindexedSnippet({ name, fields }, typed(text), typos);

describe('search of tasks not yet indexed: what the index would match', () => {
  it('matches each typed word as the start of a word of the name, all of them', () => {
    expect(match('Quarterly budget review', 'budg quart')).toBe('exact');
    expect(snippet('Quarterly budget review', 'budg quart')).toBe(`${S}Quarterly${E} ${S}budget${E} review`);
    expect(match('Quarterly budget review', 'budget plan')).toBeNull();
    // The start of a word, not its middle.
    expect(match('Quarterly budget review', 'udget')).toBeNull();
  });

  it('folds case and accents as the index does, and keeps the text as written in the snippet', () => {
    expect(match('Réunion à São Paulo', 'reunion sao')).toBe('exact');
    expect(snippet('Réunion à São Paulo', 'reunion sao')).toBe(`${S}Réunion${E} à ${S}São${E} Paulo`);
    expect(match('reunion', 'RÉUNION')).toBe('exact');
  });

  it('matches a word the tokenizer splits as consecutive words, the last by its start', () => {
    expect(match('Send the e-mail draft', 'e_mai')).toBe('exact');
    expect(snippet('Send the e-mail draft', 'e_mai')).toBe(`Send the ${S}e${E}-${S}mail${E} draft`);
    expect(match('Send the e draft mail', 'e_mail')).toBeNull();
  });

  it('matches words in the custom-field text, each word in either column; the snippet from the one with more', () => {
    const fields = 'Purchase order PO-7781 42 Northwind';
    expect(match('Invoice run', 'northwind', fields)).toBe('exact');
    expect(snippet('Invoice run', 'northwind', fields)).toBe(`Purchase order PO-7781 42 ${S}Northwind${E}`);
    expect(match('Invoice run', 'invoice 7781', fields)).toBe('exact');
    expect(snippet('Invoice run', 'invoice 7781', fields)).toBe(`${S}Invoice${E} run`);
    expect(match('Invoice run', 'northwind', null)).toBeNull();
  });

  it('cuts a long text to twelve words around the first match, as the index cuts a snippet', () => {
    const fields = 'one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen';
    expect(snippet('Task', 'nine', fields)).toBe(
      `…four five six seven eight ${S}nine${E} ten eleven twelve thirteen fourteen fifteen`,
    );
    expect(snippet('Task', 'two', fields)).toBe(
      `one ${S}two${E} three four five six seven eight nine ten eleven twelve…`,
    );
  });

  it('tells a match with one typo forgiven, in a word of five letters or more, never in a number', () => {
    expect(match('Quarterly budget review', 'quartely')).toBe('typo');
    expect(match('Quarterly budget review', 'quartely review')).toBe('typo');
    expect(snippet('Quarterly budget review', 'quartely', null, true)).toBe(
      `${S}Quarterly${E} budget review`,
    );
    expect(match('Budgeting workshop', 'budgte')).toBe('typo');
    // Four letters, a first letter wrong, a number: no typo forgiven.
    expect(match('Quarterly budget review', 'bugd')).toBeNull();
    expect(match('Quarterly budget review', 'wuarterly')).toBeNull();
    expect(match('Release 12345', '12355')).toBeNull();
  });

  it('splits words at the marks the index splits at, and folds final sigma and micro as the index does', () => {
    // Devanagari, Thai, Arabic: their vowel signs, virama and harakat split words in the index.
    expect(match('समीक्षा बैठक', 'समीक्षा')).toBe('exact');
    expect(match('ประชุมทีม', 'ประชุม')).toBe('exact');
    expect(match('مُرَاجَعَة الميزانية', 'مُرَاجَعَة')).toBe('exact');
    expect(match('Ἐπανέλεγχος ΟΔΟΣ', 'οδος')).toBe('exact');
    expect(match('οδος', 'ΟΔΟΣ')).toBe('exact');
    expect(match('5 µm tolerance', 'μm')).toBe('exact');
  });

  it('matches nothing for a text without words', () => {
    expect(match('Anything', '')).toBeNull();
  });
});
