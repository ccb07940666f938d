import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  CHANNEL_DOMAINS,
  channelNames,
  type ChannelName,
  type ChannelsDeclaredTwice,
  type DomainChannels,
} from './contract';

describe('the IPC contract built from its domains', () => {
  it('holds every channel of every domain, each declared by one domain only', () => {
    const declared = CHANNEL_DOMAINS.flatMap((d) => Object.keys(d.channels));
    expect(new Set(declared).size).toBe(declared.length);
    expect([...channelNames].sort()).toEqual([...declared].sort());
  });

  it('names, in its type, a channel two domains declare', () => {
    type Twice = ChannelsDeclaredTwice<[{ 'a.one': 1; 'b.two': 1 }, { 'b.two': 1 }, { 'c.three': 1 }]>;
    expectTypeOf<Twice>().toEqualTypeOf<'b.two'>();
    expectTypeOf<ChannelsDeclaredTwice<DomainChannels<typeof CHANNEL_DOMAINS>>>().toEqualTypeOf<never>();
  });

  it('types a channel name as one of the declared names, not any string', () => {
    expectTypeOf<'tasks.list'>().toMatchTypeOf<ChannelName>();
    // @ts-expect-error: no domain declares it
    const unknown: ChannelName = 'tasks.nope';
    void unknown;
  });
});
