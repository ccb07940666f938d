import { describe, expect, it } from 'vitest';
import { openCacheDb } from '../db';
import { aMessage, aProject, aTask } from '../fixtures';
import { flattenTask } from './tasks';
import { accountCache } from '../../handlers/index';

describe('messages repository: one message by id', () => {
  it('tells whether a message is cached and deletes it alone', () => {
    const cache = accountCache(openCacheDb(':memory:'));
    cache.messages.replaceForTask('t1', [aMessage({ id: 'm1' }), aMessage({ id: 'm2' })]);
    expect(cache.messages.has('m1')).toBe(true);
    expect(cache.messages.has('m3')).toBe(false);
    cache.messages.delete('m1');
    cache.messages.delete('m3');
    expect(cache.messages.has('m1')).toBe(false);
    expect(cache.messages.listForTask('t1').map((m) => m.id)).toEqual(['m2']);
  });
});

describe('messages repository: rows a comment shows while it waits', () => {
  it('removes a draft row and leaves a message the service answered', () => {
    const cache = accountCache(openCacheDb(':memory:'));
    cache.messages.replaceForTask('t1', [aMessage({ id: 'draft-1' }), aMessage({ id: 'm1' })]);
    cache.messages.deleteDraft('draft-1');
    cache.messages.deleteDraft('m1');
    expect(cache.messages.listForTask('t1').map((m) => m.id)).toEqual(['m1']);
  });
});

describe('messages repository: files of a project', () => {
  it('lists messages with files on tasks of the project and its subprojects, newest first', () => {
    const cache = accountCache(openCacheDb(':memory:'));
    cache.projects.upsertMany([
      aProject({ id: 'p1' }),
      aProject({ id: 'p2', parentProjectId: 'p1' }),
      aProject({ id: 'p3' }),
    ]);
    cache.tasks.upsertMany(
      [
        aTask({ id: 't1', projectId: 'p1' }),
        aTask({ id: 't2', projectId: 'p2' }),
        aTask({ id: 't3', projectId: 'p3' }),
      ].map(flattenTask),
    );
    const file = [{ fileId: 'f1', name: 'a.txt', size: 3, mime: 'text/plain' }];
    cache.messages.replaceForTask('t1', [
      aMessage({ id: 'm1', dateCreated: '2026-01-01T09:00:00.000000', attachments: file }),
      aMessage({ id: 'm2', dateCreated: '2026-01-05T09:00:00.000000' }),
    ]);
    cache.messages.replaceForTask('t2', [
      aMessage({ id: 'm3', dateCreated: '2026-01-03T09:00:00.000000', attachments: file }),
    ]);
    cache.messages.replaceForTask('t3', [
      aMessage({ id: 'm4', dateCreated: '2026-01-04T09:00:00.000000', attachments: file }),
    ]);
    const rows = cache.messages.withFilesInProject('p1');
    expect(rows.map((r) => [r.messageId, r.taskId, r.taskShortId])).toEqual([
      ['m3', 't2', 'T2'],
      ['m1', 't1', 'T1'],
    ]);
    expect(JSON.parse(rows[0].attachments)).toEqual(file);
  });
});

describe('messages repository: a task message list stored as it was read', () => {
  it('stores messages that carry their task as they are, and refuses one listed for another task', () => {
    const cache = accountCache(openCacheDb(':memory:'));
    const listed = [
      { ...aMessage({ id: 'm1' }), taskId: 't1' },
      { ...aMessage({ id: 'm2' }), taskId: 't1' },
    ];
    cache.messages.replaceListed('t1', listed);
    expect(cache.messages.listForTask('t1').map((m) => [m.id, m.taskId])).toEqual([
      ['m1', 't1'],
      ['m2', 't1'],
    ]);
    expect(() => cache.messages.replaceListed('t1', [{ ...aMessage({ id: 'm3' }), taskId: 't2' }])).toThrow(
      'message m3 is listed for task t2, not t1',
    );
    // The refused list changed nothing.
    expect(cache.messages.listForTask('t1').map((m) => m.id)).toEqual(['m1', 'm2']);
  });

  it("reads a task's drafts alone: who wrote what, not the messages the service answered", () => {
    const cache = accountCache(openCacheDb(':memory:'));
    cache.messages.replaceForTask('t1', [
      aMessage({ id: 'draft-1', fromUserId: 'u1', message: 'On my way' }),
      aMessage({ id: 'm1', fromUserId: 'u2', message: 'Thanks' }),
    ]);
    cache.messages.replaceForTask('t2', [
      aMessage({ id: 'draft-2', fromUserId: 'u1', message: 'Elsewhere' }),
    ]);
    expect(cache.messages.draftsOfTask('t1')).toEqual([
      { id: 'draft-1', fromUserId: 'u1', message: 'On my way' },
    ]);
    expect(cache.messages.draftsOfTask('t3')).toEqual([]);
  });
});
