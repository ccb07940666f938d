import { describe, expect, it } from 'vitest';
import {
  SNIPPET_HIT_END as E,
  SNIPPET_HIT_START as S,
  parseTaskRefs,
  plainSnippet,
  typoMatches,
  withinOneEdit,
} from './search-query';

describe('task numbers and links in a search text', () => {
  it('reads a bare number, a #number and a number with words of its project', () => {
    expect(parseTaskRefs('353')).toEqual([{ kind: 'number', shortId: '353', hash: false, rest: [] }]);
    expect(parseTaskRefs(' #353 ')).toEqual([{ kind: 'number', shortId: '353', hash: true, rest: [] }]);
    expect(parseTaskRefs('Website 353')).toEqual([
      { kind: 'number', shortId: '353', hash: false, rest: ['Website'] },
    ]);
    expect(parseTaskRefs('353 #12')[0]).toMatchObject({ shortId: '12', hash: true, rest: ['353'] });
  });

  it('takes a plain word for a number only when it has a digit or a #', () => {
    expect(parseTaskRefs('budget')).toEqual([]);
    expect(parseTaskRefs('#GfPrjC')).toEqual([{ kind: 'number', shortId: 'GfPrjC', hash: true, rest: [] }]);
    expect(parseTaskRefs('A7x')).toEqual([{ kind: 'number', shortId: 'A7x', hash: false, rest: [] }]);
    expect(parseTaskRefs('3.5')).toEqual([]);
  });

  it("reads the service's task link (by id, or a number as a short id) and the app's own", () => {
    expect(parseTaskRefs('https://www.goodday.work/t/353')).toEqual([{ kind: 'link', shortId: '353' }]);
    expect(parseTaskRefs('https://acme.goodday.work/t/A7x/?from=mail')).toEqual([
      { kind: 'link', taskId: 'A7x' },
    ]);
    expect(parseTaskRefs('workdesk://task/t_9ab')).toEqual([{ kind: 'link', taskId: 't_9ab' }]);
    // Another host's /t/ link is not a task link: its words are searched.
    expect(parseTaskRefs('https://example.com/t/353')).toEqual([]);
  });
});

describe('one typo on words of five letters or more', () => {
  it('allows one insertion, deletion, substitution or swap', () => {
    expect(withinOneEdit('budget', 'budget')).toBe(true);
    expect(withinOneEdit('budgt', 'budget')).toBe(true);
    expect(withinOneEdit('budgeet', 'budget')).toBe(true);
    expect(withinOneEdit('budgat', 'budget')).toBe(true);
    expect(withinOneEdit('budgte', 'budget')).toBe(true);
    expect(withinOneEdit('bugdte', 'budget')).toBe(false);
    expect(withinOneEdit('budgets', 'budge')).toBe(false);
  });

  it('matches a whole word or the start of a longer one, never a short word', () => {
    expect(typoMatches('quartely', 'quarterly')).toBe(true);
    expect(typoMatches('migrta', 'migration')).toBe(true);
    expect(typoMatches('dokument', 'documents')).toBe(true);
    // Under five letters a typo is not forgiven; an exact prefix is the prefix search's.
    expect(typoMatches('budg', 'bugd')).toBe(false);
    expect(typoMatches('budget', 'budgets')).toBe(false);
    expect(typoMatches('migrat', 'migration')).toBe(false);
    expect(typoMatches('budget', 'burden')).toBe(false);
    // Not on the first letter.
    expect(typoMatches('vudget', 'budget')).toBe(false);
  });
});

describe('plain snippets', () => {
  it('drops emphasis, code, heading, quote and list marks and keeps link text', () => {
    expect(plainSnippet(`**${S}Budget${E}** is _due_ in \`main\``)).toBe(`${S}Budget${E} is due in main`);
    expect(plainSnippet(`# Plan\n- one ${S}item${E}\n> quoted`)).toBe(`Plan one ${S}item${E} quoted`);
    expect(plainSnippet(`see [the ${S}brief${E}](https://example.com/b) now`)).toBe(
      `see the ${S}brief${E} now`,
    );
    expect(plainSnippet(`…the ${S}brief${E}](https://example.com/b) now`)).toBe(`…the ${S}brief${E} now`);
    expect(plainSnippet('snake_case and 2*3 stay')).toBe('snake_case and 2*3 stay');
  });
});
