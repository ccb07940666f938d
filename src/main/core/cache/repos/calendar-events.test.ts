import { describe, expect, it } from 'vitest';
import { openCacheDb } from '../db';
import { anEvent } from '../fixtures';
import { accountCache } from '../../handlers/index';

function cached() {
  const cache = accountCache(openCacheDb(':memory:'));
  cache.events.upsert(anEvent({ id: 'e1', projectId: 'p1', assignedToUserId: 'ann', notes: 'bring slides' }));
  cache.events.upsert(anEvent({ id: 'e2', projectId: 'p1', assignedToUserId: 'bob' }));
  cache.events.upsert(anEvent({ id: 'e3', projectId: 'p2', assignedToUserId: 'ann' }));
  return cache;
}

const inWindow = (cache: ReturnType<typeof cached>) =>
  cache.events.list({ from: '2026-01-01', to: '2026-12-31' }).map((e) => e.id);

describe('calendar events repository: what the outbox kinds write', () => {
  it('a stored row, deleted, comes back whole from what storedRow kept', () => {
    const cache = cached();
    const before = cache.events.list({ from: '2026-01-01', to: '2026-12-31' });
    const row = cache.events.storedRow('e1');
    expect(row).toMatchObject({
      id: 'e1',
      project_id: 'p1',
      assigned_to_user_id: 'ann',
      notes: 'bring slides',
    });
    cache.events.delete('e1');
    expect(cache.events.storedRow('e1')).toBeUndefined();
    expect(inWindow(cache)).toEqual(['e2', 'e3']);
    // The row travels through the outbox as JSON.
    cache.events.restoreRow(JSON.parse(JSON.stringify(row)) as Record<string, unknown>);
    expect(cache.events.list({ from: '2026-01-01', to: '2026-12-31' })).toEqual(before);
  });

  it('lists the events of one project assigned to one user, and moves them to another', () => {
    const cache = cached();
    expect(cache.events.idsAssignedInProject('p1', 'ann')).toEqual(['e1']);
    expect(cache.events.idsAssignedInProject('p1', 'nobody')).toEqual([]);
    cache.events.setAssignee('e1', null);
    expect(cache.events.idsAssignedInProject('p1', 'ann')).toEqual([]);
    cache.events.setAssignee('e1', 'bob');
    expect(cache.events.idsAssignedInProject('p1', 'bob').sort()).toEqual(['e1', 'e2']);
    // Another project's event of the same user is untouched.
    expect(cache.events.idsAssignedInProject('p2', 'ann')).toEqual(['e3']);
  });
});
