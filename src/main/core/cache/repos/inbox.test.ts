import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openCacheDb } from '../db';
import { flattenTask } from './tasks';
import { aMessage, aProject, aTask } from '../fixtures';
import { accountCache } from '../../handlers/index';

const ME = 'me';

/** Three tasks needing my action (one with a hand-over reply, one with only a comment, one bare). */
function inbox() {
  const cache = accountCache(openCacheDb(':memory:'));
  cache.projects.upsertMany([aProject({ id: 'p1' })]);
  cache.tasks.upsertMany(
    [
      aTask({
        id: 'handed',
        projectId: 'p1',
        actionRequiredUserId: ME,
        createdByUserId: 'cleo',
        recentActivityMoment: '2026-01-05T10:00:00',
      }),
      aTask({
        id: 'commented',
        projectId: 'p1',
        actionRequiredUserId: ME,
        createdByUserId: 'cleo',
        recentActivityMoment: '2026-01-04T10:00:00',
      }),
      aTask({
        id: 'bare',
        projectId: 'p1',
        actionRequiredUserId: ME,
        createdByUserId: 'dan',
        momentCreated: '2026-01-01T08:00:00',
        recentActivityMoment: '2026-01-01T08:00:00',
      }),
      aTask({ id: 'closed', projectId: 'p1', actionRequiredUserId: ME, momentClosed: '2026-01-02T00:00:00' }),
      aTask({ id: 'others', projectId: 'p1', actionRequiredUserId: 'bob' }),
    ].map(flattenTask),
  );
  cache.messages.replaceForTask('handed', [
    aMessage({
      id: 'h1',
      fromUserId: 'bob',
      toUserId: ME,
      message: 'Over to you: **check** it',
      dateCreated: '2026-01-05T09:00:00',
    }),
    aMessage({
      id: 'h2',
      fromUserId: 'cleo',
      toUserId: null,
      message: '',
      taskStatusId: 's-review',
      dateCreated: '2026-01-05T10:00:00',
    }),
  ]);
  cache.messages.replaceForTask('commented', [
    aMessage({
      id: 'c1',
      fromUserId: 'dan',
      toUserId: null,
      message: 'Any news?',
      dateCreated: '2026-01-04T10:00:00',
    }),
  ]);
  return cache;
}

describe('the Action required inbox', () => {
  it('says who handed each task over and when, and what its thread said last, newest first', () => {
    const cache = inbox();
    const rows = cache.inbox.list(ME);
    expect(rows.map((r) => r.taskId)).toEqual(['handed', 'commented', 'bare']);
    expect(rows[0]).toMatchObject({
      handedBy: 'bob',
      handedAt: '2026-01-05T09:00:00',
      last: { messageId: 'h2', fromUserId: 'cleo', text: '', statusId: 's-review' },
    });
    // No hand-over reply: the last word from someone else; no message at all: the creator.
    expect(rows[1]).toMatchObject({ handedBy: 'dan', last: { text: 'Any news?' } });
    expect(rows[2]).toMatchObject({ handedBy: 'dan', handedAt: '2026-01-01T08:00:00', last: null });
    // A task I created for myself was handed over by nobody.
    cache.tasks.upsertMany([
      flattenTask(aTask({ id: 'own', projectId: 'p1', actionRequiredUserId: ME, createdByUserId: ME })),
    ]);
    expect(cache.inbox.list(ME).find((r) => r.taskId === 'own')).toMatchObject({ handedBy: null });
  });

  it("carries each task's to-do progress", () => {
    const cache = inbox();
    const item = (completed: boolean) => ({ properties: { completed, title: 'Step', userId: null } });
    cache.tasks.upsertMany([
      flattenTask(
        aTask({
          id: 'bare',
          projectId: 'p1',
          actionRequiredUserId: ME,
          createdByUserId: 'dan',
          todoList: [{ uid: 'l', title: 'Steps', items: [item(true), item(false), item(false)] }],
        }),
      ),
    ]);
    const rows = cache.inbox.list(ME);
    expect(rows.map((r) => [r.taskId, r.todoDone, r.todoTotal])).toEqual([
      ['handed', 0, 0],
      ['commented', 0, 0],
      ['bare', 1, 3],
    ]);
  });

  it('takes what is there at the first read after a pull as read; new words from others make a task unread', () => {
    const cache = inbox();
    // Before any pull nothing is new, and no read state is taken.
    expect(cache.inbox.list(ME).some((r) => r.unread)).toBe(false);
    expect(cache.inbox.unreadCount(ME)).toBe(0);
    cache.syncState.set('pull', '2026-01-06T00:00:00');
    expect(cache.inbox.list(ME).filter((r) => r.unread)).toEqual([]);

    cache.messages.replaceForTask('commented', [
      aMessage({ id: 'c1', fromUserId: 'dan', message: 'Any news?', dateCreated: '2026-01-04T10:00:00' }),
      aMessage({ id: 'c2', fromUserId: 'dan', message: 'Ping', dateCreated: '2026-01-06T10:00:00' }),
    ]);
    // My own reply does not make a task unread.
    cache.messages.replaceForTask('bare', [
      aMessage({ id: 'b1', fromUserId: ME, dateCreated: '2026-01-06T11:00:00' }),
    ]);
    // A task newly handed to me is unread.
    cache.tasks.upsertMany([flattenTask(aTask({ id: 'new', projectId: 'p1', actionRequiredUserId: ME }))]);
    const unread = () =>
      cache.inbox
        .list(ME)
        .filter((r) => r.unread)
        .map((r) => r.taskId)
        .sort();
    expect(unread()).toEqual(['commented', 'new']);
    // The count without the rows is the same.
    expect(cache.inbox.unreadCount(ME)).toBe(2);

    cache.inbox.markRead(ME, ['commented']);
    expect(unread()).toEqual(['new']);
    cache.inbox.markUnread('handed');
    expect(unread()).toEqual(['handed', 'new']);
    expect(cache.inbox.unreadCount(ME)).toBe(2);
    cache.inbox.markAllRead(ME);
    expect(unread()).toEqual([]);
    expect(cache.inbox.unreadCount(ME)).toBe(0);
  });

  it('answers the read state of given tasks as the list marks them, only for open tasks of the inbox', () => {
    const cache = inbox();
    const all = ['handed', 'commented', 'bare', 'closed', 'others', 'unknown'];
    cache.inbox.markUnread('bare');
    // Before the first pull nothing is new.
    expect(cache.inbox.unreadOf(ME, all)).toEqual([]);
    cache.syncState.set('pull', '2026-01-06T00:00:00');
    // The first list read takes what is there as read.
    cache.inbox.list(ME);
    expect(cache.inbox.unreadOf(ME, all)).toEqual([]);

    cache.messages.replaceForTask('commented', [
      aMessage({ id: 'c1', fromUserId: 'dan', message: 'Any news?', dateCreated: '2026-01-04T10:00:00' }),
      aMessage({ id: 'c2', fromUserId: 'dan', message: 'Ping', dateCreated: '2026-01-06T10:00:00' }),
    ]);
    cache.inbox.markUnread('bare');
    // Neither a closed task nor one needing someone else's action is in the inbox.
    cache.inbox.markUnread('closed');
    cache.inbox.markUnread('others');
    expect(cache.inbox.unreadOf(ME, all)).toEqual(['commented', 'bare']);
    expect(
      cache.inbox
        .list(ME)
        .filter((r) => r.unread)
        .map((r) => r.taskId),
    ).toEqual(['commented', 'bare']);
    cache.inbox.markRead(ME, ['commented']);
    expect(cache.inbox.unreadOf(ME, ['commented', 'bare'])).toEqual(['bare']);
  });

  it('keeps the read state across a reopened cache', () => {
    const dir = mkdtempSync(join(tmpdir(), 'inbox-read-'));
    const file = join(dir, 'cache.sqlite');
    const first = accountCache(openCacheDb(file));
    first.tasks.upsertMany([flattenTask(aTask({ id: 't', projectId: 'p1', actionRequiredUserId: ME }))]);
    first.syncState.set('pull', '2026-01-06T00:00:00');
    first.inbox.markUnread('t');
    expect(first.inbox.list(ME)[0]?.unread).toBe(false);
    first.inbox.markUnread('t');
    expect(first.inbox.list(ME)[0]?.unread).toBe(true);
    first.db.close();
    const again = accountCache(openCacheDb(file));
    expect(again.inbox.list(ME)[0]?.unread).toBe(true);
    again.inbox.markRead(ME, ['t']);
    again.db.close();
    const last = accountCache(openCacheDb(file));
    expect(last.inbox.list(ME)[0]?.unread).toBe(false);
    last.db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads a first page that is the head of the whole list, in the same order, ties included', () => {
    const cache = inbox();
    // Tasks sorted by their newest message, others by recent activity, some on the same moment.
    const more = Array.from({ length: 40 }, (_, i) =>
      aTask({
        id: `t${i}`,
        projectId: 'p1',
        actionRequiredUserId: ME,
        createdByUserId: 'cleo',
        recentActivityMoment: `2026-01-0${1 + (i % 7)}T1${i % 3}:00:00`,
      }),
    );
    cache.tasks.upsertMany(more.map(flattenTask));
    for (let i = 0; i < 40; i += 3) {
      cache.messages.replaceForTask(`t${i}`, [
        aMessage({
          id: `m${i}`,
          fromUserId: 'bob',
          toUserId: ME,
          dateCreated: `2026-01-0${1 + (i % 5)}T09:30:00`,
        }),
      ]);
    }
    cache.syncState.set('pull', '2026-01-06T00:00:00');
    expect(cache.inbox.count(ME)).toBe(43);
    // The first read after a pull takes the whole list as read, even when it reads a page.
    const page = cache.inbox.list(ME, 10);
    const whole = cache.inbox.list(ME);
    expect(whole).toHaveLength(43);
    expect(page).toEqual(whole.slice(0, 10));
    expect(whole.some((row) => row.unread)).toBe(false);
    for (const size of [1, 7, 25, 43, 100]) expect(cache.inbox.list(ME, size)).toEqual(whole.slice(0, size));
  });
});
