import { describe, expect, it } from 'vitest';
import { openCacheDb } from '../db';
import { flattenTask } from './tasks';
import { aDocument, aMessage, anEvent, aProject, aTask } from '../fixtures';
import { SNIPPET_HIT_END as E, SNIPPET_HIT_START as S } from '../../../../shared/search-query';
import { accountCache } from '../../handlers/index';

const open = () => accountCache(openCacheDb(':memory:'));

/** Two projects, each with a task numbered alike in name, and task 353. */
function workspace() {
  const cache = open();
  cache.projects.upsertMany([
    aProject({ id: 'p1', name: 'Website relaunch' }),
    aProject({ id: 'p2', name: 'Mobile app' }),
  ]);
  cache.tasks.upsertMany(
    [
      aTask({ id: 't1', shortId: '353', projectId: 'p1', name: 'Fix the login page' }),
      aTask({ id: 't2', shortId: '354', projectId: 'p2', name: 'Fix the login page' }),
      aTask({ id: 't3', shortId: '1353', projectId: 'p2', name: 'Release 353 notes' }),
      aTask({ id: 't4', shortId: 'A7x', projectId: 'p2', name: 'Quarterly budget review' }),
    ].map(flattenTask),
  );
  return cache;
}

const ids = (hits: readonly { kind: string; id: string }[]) => hits.map((h) => `${h.kind}:${h.id}`);

describe('search: tasks by number and link', () => {
  it('finds a task by its number, with or without #, first, with its number and project', () => {
    const cache = workspace();
    const hits = cache.search.query('353', ['task'], 10);
    // The numbered task first, then the one whose name holds the word.
    expect(ids(hits)).toEqual(['task:t1', 'task:t3']);
    expect(hits[0]).toMatchObject({ shortId: '353', projectId: 'p1', title: 'Fix the login page' });
    expect(ids(cache.search.query('#353', ['task'], 10))[0]).toBe('task:t1');
    expect(ids(cache.search.query('#a7X', ['task'], 10))).toEqual(['task:t4']);
  });

  it('finds a number with words of its project, and not in another project', () => {
    const cache = workspace();
    expect(ids(cache.search.query('website 353', ['task'], 10))).toEqual(['task:t1']);
    expect(ids(cache.search.query('#353 mobile', ['task'], 10))).toEqual([]);
    // Words and a number that together name a project are the project, not a task's number.
    cache.projects.upsertMany([aProject({ id: 'p3', name: 'Mobile app 354' })]);
    expect(ids(cache.search.query('mobile app 354', ['task'], 10))).toEqual([]);
    expect(ids(cache.search.query('mobile app #354', ['task'], 10))).toEqual(['task:t2']);
  });

  it("finds a task by the service's link (assumed form) and by the app's link, and nothing else", () => {
    const cache = workspace();
    expect(ids(cache.search.query('https://www.goodday.work/t/353', ['task'], 10))).toEqual(['task:t1']);
    expect(ids(cache.search.query('workdesk://task/t4', ['task'], 10))).toEqual(['task:t4']);
    expect(cache.search.query('workdesk://task/nope', ['task'], 10)).toEqual([]);
  });

  it('ranks the project being looked at first', () => {
    const cache = workspace();
    expect(ids(cache.search.query('login', ['task'], 10, 'p2'))).toEqual(['task:t2', 'task:t1']);
    expect(ids(cache.search.query('login', ['task'], 10, 'p1'))).toEqual(['task:t1', 'task:t2']);
  });
});

describe('search: what a user remembers', () => {
  it("finds a task by a custom field's value, its snippet showing the value", () => {
    const cache = workspace();
    cache.tasks.upsertMany([
      flattenTask(
        aTask({
          id: 't5',
          projectId: 'p1',
          name: 'Invoice run',
          customFieldsData: { f1: 'Purchase order PO-7781', f2: 42, f3: ['Northwind'] },
        }),
      ),
    ]);
    const [hit] = cache.search.query('northwind', ['task'], 10);
    expect(hit).toMatchObject({ id: 't5', snippet: expect.stringContaining(`${S}Northwind${E}`) });
    expect(ids(cache.search.query('7781', ['task'], 10))).toEqual(['task:t5']);
    cache.tasks.upsertMany([
      flattenTask(aTask({ id: 't5', projectId: 'p1', name: 'Invoice run', customFieldsData: {} })),
    ]);
    expect(cache.search.query('northwind', ['task'], 10)).toEqual([]);
  });

  it('finds events by name and notes, with their start date', () => {
    const cache = open();
    cache.events.upsert(
      anEvent({ id: 'e1', name: 'Offsite', notes: 'Lisbon venue booked', startDate: '2026-05-04' }),
    );
    expect(cache.search.query('lisbon', ['event'], 10)).toEqual([
      expect.objectContaining({ kind: 'event', id: 'e1', title: 'Offsite', date: '2026-05-04' }),
    ]);
  });

  it('forgives one typo on words of five letters or more, after the exact matches', () => {
    const cache = workspace();
    expect(ids(cache.search.query('quartely', ['task'], 10))).toEqual(['task:t4']);
    expect(ids(cache.search.query('budgte', ['task'], 10))).toEqual(['task:t4']);
    // A typed word may be the start of a longer one: "budgte" is one swap from "budget…".
    cache.tasks.upsertMany([flattenTask(aTask({ id: 't6', projectId: 'p1', name: 'Budgeting workshop' }))]);
    expect(ids(cache.search.query('budgte', ['task'], 10)).sort()).toEqual(['task:t4', 'task:t6']);
    // Exact matches come first; the typo match follows.
    cache.tasks.upsertMany([flattenTask(aTask({ id: 't7', projectId: 'p1', name: 'Revew notes' }))]);
    expect(ids(cache.search.query('review', ['task'], 10))).toEqual(['task:t4', 'task:t7']);
    // Four letters: no typo forgiven.
    expect(cache.search.query('bugd', ['task'], 10)).toEqual([]);
    // A word with a typo beside words typed right (its choices in parentheses, then the others).
    expect(ids(cache.search.query('quartely budget', ['task'], 10))).toEqual(['task:t4']);
    expect(ids(cache.search.query('budget quartely', ['task'], 10))).toEqual(['task:t4']);
  });

  it("shows a message's snippet as plain text, without its Markdown marks", () => {
    const cache = workspace();
    cache.messages.replaceForTask('t1', [
      aMessage({ id: 'm1', message: 'Please **review** the [spec](https://example.com/spec) by `Friday`' }),
    ]);
    const [hit] = cache.search.query('review spec', ['message'], 10);
    expect(hit).toMatchObject({
      shortId: '353',
      snippet: `Please ${S}review${E} the ${S}spec${E} by Friday`,
    });
  });

  it("finds a document's text once its content is stored", () => {
    const cache = workspace();
    cache.projectParts.replaceDocuments(
      ['p1'],
      [aDocument({ id: 'd1', projectId: 'p1', name: 'Brief' })],
      () => false,
    );
    expect(cache.search.query('tagline', ['document'], 10)).toEqual([]);
    cache.projectParts.putDocument({
      ...aDocument({ id: 'd1', projectId: 'p1', name: 'Brief' }),
      content: '## Tagline\nFaster than *light*',
    });
    expect(cache.search.query('tagline', ['document'], 10)).toEqual([
      expect.objectContaining({ id: 'd1', snippet: `${S}Tagline${E} Faster than light` }),
    ]);
  });
});
