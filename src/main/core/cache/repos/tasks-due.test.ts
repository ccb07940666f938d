// Home's late and due-soon read: the user's open tasks by deadline, in three groups, one query.
import { afterEach, describe, expect, it } from 'vitest';
import { openCacheDb } from '../db';
import { aProject, aTask } from '../fixtures';
import { DUE_SQL, flattenTask } from './tasks';
import { accountCache } from '../../handlers/index';
import type { Task } from '../../../../shared/api/tasks';
import { homeDays } from '../../../../renderer/src/state/home';

function cacheWith(tasks: Partial<Task>[]) {
  const cache = accountCache(openCacheDb(':memory:'));
  cache.projects.upsertMany([aProject({ id: 'p1' })]);
  cache.tasks.upsertMany(tasks.map((t, i) => flattenTask(aTask({ id: `t${i}`, projectId: 'p1', ...t }))));
  return cache;
}
const mine = { assignedToUserId: 'me' };
const query = { userId: 'me', today: '2026-11-28', through: '2026-11-29', perGroup: 10 };
const names = (group: { rows: { name: string }[] }) => group.rows.map((r) => r.name);

describe('tasks.due', () => {
  it('groups my open tasks by deadline: before today, today, up to the last day; sorted by deadline', () => {
    const cache = cacheWith([
      { ...mine, name: 'late 2', deadline: '2026-11-20' },
      { ...mine, name: 'late 1', deadline: '2026-10-01' },
      { ...mine, name: 'today', deadline: '2026-11-28' },
      { ...mine, name: 'sunday', deadline: '2026-11-29' },
      { ...mine, name: 'next week', deadline: '2026-11-30' },
      { ...mine, name: 'no deadline', deadline: null },
      { ...mine, name: 'closed late', deadline: '2026-11-01', momentClosed: '2026-11-02T10:00:00' },
      { actionRequiredUserId: 'me', assignedToUserId: 'other', name: 'my action', deadline: '2026-11-28' },
      { assignedToUserId: 'other', name: 'not mine', deadline: '2026-11-28' },
    ]);
    const due = cache.tasks.due(query);
    expect(names(due.late)).toEqual(['late 1', 'late 2']);
    expect(names(due.today).sort()).toEqual(['my action', 'today']);
    expect(names(due.later)).toEqual(['sunday']);
    expect([due.late.total, due.today.total, due.later.total]).toEqual([2, 2, 1]);
    expect(due.late.rows[0]).toMatchObject({ projectId: 'p1', deadline: '2026-10-01', closed: false });
  });

  it('lists each group up to perGroup and counts the whole group', () => {
    const cache = cacheWith(
      Array.from({ length: 14 }, (_, i) => ({
        ...mine,
        name: `late ${i}`,
        deadline: `2026-11-${String(i + 1).padStart(2, '0')}`,
      })),
    );
    const due = cache.tasks.due({ ...query, perGroup: 3 });
    expect(names(due.late)).toEqual(['late 0', 'late 1', 'late 2']);
    expect(due.late.total).toBe(14);
    expect(due.today).toEqual({ rows: [], total: 0, unlistedAssigned: 0 });
    expect(due.later).toEqual({ rows: [], total: 0, unlistedAssigned: 0 });
  });

  it('counts, beyond the listed rows, the tasks assigned to me (the rest only await my action)', () => {
    const action = { actionRequiredUserId: 'me', assignedToUserId: 'other' };
    const cache = cacheWith([
      { ...mine, name: 'a1', deadline: '2026-11-01' },
      { ...action, name: 'x2', deadline: '2026-11-02' },
      { ...action, name: 'x3', deadline: '2026-11-03' },
      { ...action, name: 'x4', deadline: '2026-11-04' },
      { ...mine, name: 'today mine', deadline: '2026-11-28' },
      { ...action, name: 'today action', deadline: '2026-11-28' },
      { ...mine, name: 'today mine 2', deadline: '2026-11-28' },
      { ...mine, actionRequiredUserId: 'me', name: 'sunday both', deadline: '2026-11-29' },
      { ...mine, name: 'sunday mine', deadline: '2026-11-29' },
    ]);
    const due = cache.tasks.due({ ...query, perGroup: 1 });
    // Late: a1 listed, x2..x4 beyond, none assigned to me.
    expect([names(due.late), due.late.total, due.late.unlistedAssigned]).toEqual([['a1'], 4, 0]);
    expect([due.today.total, due.today.unlistedAssigned]).toEqual([
      3,
      names(due.today)[0] === 'today action' ? 2 : 1,
    ]);
    expect([due.later.total, due.later.unlistedAssigned]).toEqual([2, 1]);
  });

  it('is empty for a user with no dated open tasks', () => {
    const cache = cacheWith([
      { ...mine, deadline: null },
      { assignedToUserId: 'other', deadline: '2026-11-01' },
    ]);
    expect(cache.tasks.due(query)).toEqual({
      late: { rows: [], total: 0, unlistedAssigned: 0 },
      today: { rows: [], total: 0, unlistedAssigned: 0 },
      later: { rows: [], total: 0, unlistedAssigned: 0 },
    });
  });

  it("reads the user's open tasks due up to `through` through the due indexes, not a scan of the tasks", () => {
    const cache = cacheWith([{ ...mine, deadline: '2026-11-28' }]);
    const plan = (cache.db.prepare(`EXPLAIN QUERY PLAN ${DUE_SQL}`).all(query) as { detail: string }[])
      .map((row) => row.detail)
      .join('; ');
    expect(plan).toContain('INDEX tasks_due_assigned (assigned_to_user_id=? AND deadline<?)');
    expect(plan).toContain('INDEX tasks_due_action_required (action_required_user_id=? AND deadline<?)');
    expect(plan).not.toMatch(/SCAN tasks(?! USING)/);
  });

  describe("on the user's calendar, as Home asks (the days of its clock, not UTC's)", () => {
    const savedTz = process.env['TZ'];
    afterEach(() => {
      if (savedTz === undefined) delete process.env['TZ'];
      else process.env['TZ'] = savedTz;
    });
    /** Home's question at `now` in `zone`, answered by the cache: each task's group, by name. */
    function groupsAt(zone: string, now: string, deadlines: Record<string, string>) {
      process.env['TZ'] = zone;
      const { today, sunday } = homeDays(new Date(now));
      const cache = cacheWith(
        Object.entries(deadlines).map(([name, deadline]) => ({ ...mine, name, deadline })),
      );
      const due = cache.tasks.due({ userId: 'me', today, through: sunday, perGroup: 10 });
      return { late: names(due.late), today: names(due.today), later: names(due.later) };
    }

    it('in Berlin at 23:30 UTC it is already tomorrow: a task due on the UTC date is late', () => {
      // Saturday 28 November 23:30 UTC is Sunday 29 November 00:30 in Berlin.
      expect(
        groupsAt('Europe/Berlin', '2026-11-28T23:30:00Z', { 'utc date': '2026-11-28', sunday: '2026-11-29' }),
      ).toEqual({ late: ['utc date'], today: ['sunday'], later: [] });
    });

    it('in New York at 03:30 UTC it is still the day before: a task due on the UTC date is later this week', () => {
      // Sunday 29 November 03:30 UTC is Saturday 28 November 22:30 in New York.
      expect(
        groupsAt('America/New_York', '2026-11-29T03:30:00Z', {
          'utc date': '2026-11-29',
          saturday: '2026-11-28',
        }),
      ).toEqual({ late: [], today: ['saturday'], later: ['utc date'] });
    });
  });
});
