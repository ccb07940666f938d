import { describe, expect, it } from 'vitest';
import { addableMembers } from './member-candidates';

const users = [
  { value: 'u-ada', label: 'Ada' },
  { value: 'u-bob', label: 'Bob' },
  { value: 'u-dan', label: 'Dan' },
  { value: 'u-guest', label: 'Gita Guest' },
];

describe('addableMembers', () => {
  it('offers the Workspace’s members not yet in the project, not users outside the Workspace', () => {
    const offered = addableMembers(
      users,
      [{ id: 'u-ada' }],
      [{ id: 'u-ada' }, { id: 'u-bob' }, { id: 'u-dan' }],
    );
    expect(offered.map((user) => user.value)).toEqual(['u-bob', 'u-dan']);
  });

  it('offers every user not in the project when the Workspace’s members are not known', () => {
    expect(addableMembers(users, [{ id: 'u-bob' }], undefined).map((user) => user.value)).toEqual([
      'u-ada',
      'u-dan',
      'u-guest',
    ]);
  });
});
