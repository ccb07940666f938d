import { describe, expect, it } from 'vitest';
import { SNIPPET_HIT_END as E, SNIPPET_HIT_START as S } from '../../../../shared/search-query';
import { matchUnindexed, termsOf } from './search-unindexed';

/** The words as the search splits what a user typed (`search.ts`: letters, digits, `_`). */
const typed = (text: string) => termsOf(text.match(/[\p{L}\p{N}_]+/gu) ?? []);
const match = (name: string, text: string, fields: string | null = null, typos = false) =>
  matchUnindexed({ name, fields }, typed(text), typos);

describe('search of tasks not yet indexed: what the index would match', () => {
  it('matches each typed word as the start of a word of the name, all of them', () => {
    expect(match('Quarterly budget review', 'budg quart')).toEqual({
      snippet: `${S}Quarterly${E} ${S}budget${E} review`,
    });
    expect(match('Quarterly budget review', 'budget plan')).toBeNull();
    // The start of a word, not its middle.
    expect(match('Quarterly budget review', 'udget')).toBeNull();
  });

  it('folds case and accents as the index does, and keeps the text as written in the snippet', () => {
    expect(match('Réunion à São Paulo', 'reunion sao')).toEqual({
      snippet: `${S}Réunion${E} à ${S}São${E} Paulo`,
    });
    expect(match('reunion', 'RÉUNION')).not.toBeNull();
  });

  it('matches a word the tokenizer splits as consecutive words, the last by its start', () => {
    expect(match('Send the e-mail draft', 'e_mai')).toEqual({
      snippet: `Send the ${S}e${E}-${S}mail${E} draft`,
    });
    expect(match('Send the e draft mail', 'e_mail')).toBeNull();
  });

  it('matches words in the custom-field text, each word in either column; the snippet from the one with more', () => {
    expect(match('Invoice run', 'northwind', 'Purchase order PO-7781 42 Northwind')).toEqual({
      snippet: `Purchase order PO-7781 42 ${S}Northwind${E}`,
    });
    expect(match('Invoice run', 'invoice 7781', 'Purchase order PO-7781')).toEqual({
      snippet: `${S}Invoice${E} run`,
    });
    expect(match('Invoice run', 'northwind', null)).toBeNull();
  });

  it('cuts a long text to twelve words around the first match, as the index cuts a snippet', () => {
    const fields = 'one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen';
    expect(match('Task', 'nine', fields)?.snippet).toBe(
      `…four five six seven eight ${S}nine${E} ten eleven twelve thirteen fourteen fifteen`,
    );
    expect(match('Task', 'two', fields)?.snippet).toBe(
      `one ${S}two${E} three four five six seven eight nine ten eleven twelve…`,
    );
  });

  it('forgives one typo in a word of five letters or more only when asked, never in a number', () => {
    expect(match('Quarterly budget review', 'quartely')).toBeNull();
    expect(match('Quarterly budget review', 'quartely', null, true)).toEqual({
      snippet: `${S}Quarterly${E} budget review`,
    });
    expect(match('Budgeting workshop', 'budgte', null, true)).not.toBeNull();
    // Four letters, a first letter wrong, a number: no typo forgiven.
    expect(match('Quarterly budget review', 'bugd', null, true)).toBeNull();
    expect(match('Quarterly budget review', 'wuarterly', null, true)).toBeNull();
    expect(match('Release 12345', '12355', null, true)).toBeNull();
  });

  it('matches nothing for a text without words', () => {
    expect(match('Anything', '')).toBeNull();
  });
});
