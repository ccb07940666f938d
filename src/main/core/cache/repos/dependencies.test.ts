import { describe, expect, it } from 'vitest';
import { openCacheDb } from '../db';
import type { DependencyRow } from './dependencies';
import { accountCache } from '../../handlers/index';

const dep = (id: string, predecessorId: string, successorId: string): DependencyRow => ({
  id,
  type: 5,
  predecessorKind: 'task',
  predecessorId,
  successorKind: 'event',
  successorId,
});

describe('dependencies repository: what the outbox kinds write', () => {
  it('put stores a dependency, and a second put of its id replaces it', () => {
    const cache = accountCache(openCacheDb(':memory:'));
    cache.dependencies.put(dep('d1', 't1', 'e1'));
    expect(cache.dependencies.touching(['t1'])).toEqual([dep('d1', 't1', 'e1')]);
    cache.dependencies.put({ ...dep('d1', 't1', 'e2'), type: 6 });
    expect(cache.dependencies.touching(['t1'])).toEqual([{ ...dep('d1', 't1', 'e2'), type: 6 }]);
    expect(cache.dependencies.touching(['e1'])).toEqual([]);
  });

  it('a stored row, deleted, comes back whole from what storedRow kept', () => {
    const cache = accountCache(openCacheDb(':memory:'));
    cache.dependencies.put(dep('d1', 't1', 'e1'));
    cache.dependencies.put(dep('d2', 't2', 'e1'));
    const row = cache.dependencies.storedRow('d1');
    expect(row).toEqual({
      id: 'd1',
      type: 5,
      predecessor_kind: 'task',
      predecessor_id: 't1',
      successor_kind: 'event',
      successor_id: 'e1',
    });
    cache.dependencies.delete('d1');
    expect(cache.dependencies.storedRow('d1')).toBeUndefined();
    expect(cache.dependencies.touching(['e1']).map((d) => d.id)).toEqual(['d2']);
    cache.dependencies.restoreRow(JSON.parse(JSON.stringify(row)) as Record<string, unknown>);
    expect(cache.dependencies.touching(['e1'])).toEqual([dep('d1', 't1', 'e1'), dep('d2', 't2', 'e1')]);
  });
});
