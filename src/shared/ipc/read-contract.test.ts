import { describe, expect, it } from 'vitest';
import { channels } from './contract';
import { events } from './events';

describe('read-side IPC contract', () => {
  it('fills list defaults: first window of 200, open tasks, newest first', () => {
    const arg = channels['tasks.list'].input.parse({ projectId: 'p1' });
    expect(arg).toEqual({
      projectId: 'p1',
      includeSubprojects: false,
      offset: 0,
      limit: 200,
      filter: { closed: 'open', topLevelOnly: false },
      sort: { by: 'momentCreated', dir: 'desc' },
    });
  });

  it('refuses a bad argument naming the field', () => {
    const bad = channels['tasks.list'].input.safeParse({ projectId: 'p1', sort: { by: 'colour' } });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(['sort', 'by']);
    const range = channels['events.list'].input.safeParse({ from: '2026-1-1', to: '2026-02-01' });
    expect(range.error?.issues[0]?.path).toEqual(['from']);
    expect(channels['search.query'].input.safeParse({ text: '   ' }).success).toBe(false);
  });

  it('declares the cache and sync events', () => {
    expect(events['cache.onDidChange'].parse({ entities: ['tasks'], ids: { tasks: ['t1'] } })).toEqual({
      entities: ['tasks'],
      ids: { tasks: ['t1'] },
    });
    expect(
      events['sync.onDidChangeStatus'].safeParse({
        online: true,
        running: false,
        phase: 'idle',
        done: 0,
        total: 0,
        lastSyncedAt: null,
        lastError: null,
        pendingCount: 0,
      }).success,
    ).toBe(true);
  });
});
