import { describe, expect, it } from 'vitest';
import { openCacheDb } from '../db';
import { accountCache } from '../../handlers/index';

describe('project parts repository: one member row', () => {
  it('reads, writes and deletes one member as stored, leaving the others', () => {
    const cache = accountCache(openCacheDb(':memory:'));
    cache.projectParts.replaceMembers('p1', [
      { id: 'ann', name: 'Ann', primaryEmail: 'ann@x.test', access: 'Standard', watchAll: true },
      { id: 'bob', name: 'Bob', primaryEmail: 'bob@x.test', access: 'Standard', watchAll: false },
    ]);
    const ann = cache.projectParts.memberRow('p1', 'ann');
    expect(ann).toEqual({
      project_id: 'p1',
      user_id: 'ann',
      name: 'Ann',
      primary_email: 'ann@x.test',
      access: 'Standard',
      watch_all: 1,
    });
    expect(cache.projectParts.memberRow('p1', 'cleo')).toBeUndefined();
    expect(cache.projectParts.memberRow('p2', 'ann')).toBeUndefined();

    cache.projectParts.putMemberRow({ ...ann, access: 'Administrator' });
    cache.projectParts.putMemberRow({ ...ann, user_id: 'cleo', name: 'Cleo', watch_all: 0 });
    expect(cache.projectParts.membersOf('p1').map((m) => [m.id, m.access])).toEqual([
      ['ann', 'Administrator'],
      ['bob', 'Standard'],
      ['cleo', 'Standard'],
    ]);

    cache.projectParts.deleteMember('p1', 'ann');
    expect(cache.projectParts.memberRow('p1', 'ann')).toBeUndefined();
    // The row as kept (JSON, through the outbox) puts the member back as it was.
    cache.projectParts.putMemberRow(JSON.parse(JSON.stringify(ann)) as Record<string, unknown>);
    expect(cache.projectParts.membersOf('p1').find((m) => m.id === 'ann')).toEqual({
      id: 'ann',
      name: 'Ann',
      primaryEmail: 'ann@x.test',
      access: 'Standard',
      watchAll: true,
    });
  });
});
