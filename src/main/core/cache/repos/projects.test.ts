import { describe, expect, it } from 'vitest';
import { openCacheDb } from '../db';
import { aProject } from '../fixtures';
import { accountCache } from '../../handlers/index';

describe('projects repository: owners of subprojects', () => {
  it('lists the projects right below one that a user owns, and hands one to another owner', () => {
    const cache = accountCache(openCacheDb(':memory:'));
    cache.projects.upsertMany([
      aProject({ id: 'p1', ownerUserId: 'ann' }),
      aProject({ id: 'p2', parentProjectId: 'p1', ownerUserId: 'ann' }),
      aProject({ id: 'p3', parentProjectId: 'p1', ownerUserId: 'bob' }),
      // Two levels down: not a child of p1.
      aProject({ id: 'p4', parentProjectId: 'p2', ownerUserId: 'ann' }),
    ]);
    expect(cache.projects.childIdsOwnedBy('p1', 'ann')).toEqual(['p2']);
    cache.projects.setOwner('p2', 'bob');
    expect(cache.projects.get('p2')?.ownerUserId).toBe('bob');
    expect(cache.projects.childIdsOwnedBy('p1', 'ann')).toEqual([]);
    expect(cache.projects.childIdsOwnedBy('p1', 'bob').sort()).toEqual(['p2', 'p3']);
    cache.projects.setOwner('p3', null);
    expect(cache.projects.get('p3')?.ownerUserId).toBeNull();
  });
});
