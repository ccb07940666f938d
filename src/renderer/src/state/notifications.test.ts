import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Bridge } from '../lib/bridge';

const shown = vi.hoisted(() => [] as string[]);
const taskListeners = vi.hoisted(() => [] as (() => void)[]);
vi.mock('../lib/toasts.svelte', () => ({ toasts: { show: (message: string) => shown.push(message) } }));
vi.mock('../lib/focus-place', () => ({ focusPlace: () => Promise.resolve() }));
vi.mock('../lib/bridge', () => ({ bridge: {} }));
vi.mock('./app', () => ({ nav: {}, settings: { preferences: undefined } }));
// A task change reaches the watch at once (no animation frames in this test).
vi.mock('../lib/cache-events', () => ({
  onCacheChange: (_bridge: unknown, _entities: unknown, listener: () => void) => {
    taskListeners.push(listener);
    return () => undefined;
  },
}));

const { ActionRequiredWatch } = await import('./notifications');

/** A bridge with two accounts, each with its own Action required list, and a switch between them. */
function fakeBridge() {
  const lists: Record<string, { id: string; name: string }[]> = {
    a: [{ id: 't1', name: 'Ship it' }],
    b: [
      { id: 't7', name: 'Review the budget' },
      { id: 't8', name: 'Call the supplier' },
    ],
  };
  let active = 'a';
  /** The account whose core answers (the old one while a switch starts the new one's). */
  let answering: string | undefined;
  const accountListeners: ((state: unknown) => void)[] = [];
  const bridge = {
    invoke: (channel: string) => {
      if (channel === 'sync.status')
        return Promise.resolve({ running: false, lastSyncedAt: '2026-11-27T12:00:00Z' });
      if (channel === 'accounts.list') return Promise.resolve({ activeId: active, accounts: [] });
      if (channel === 'tasks.myWorkNames') return Promise.resolve(lists[answering ?? active]);
      return Promise.reject(new Error(`unexpected ${channel}`));
    },
    on: (event: string, listener: (state: unknown) => void) => {
      if (event === 'accounts.onDidChange') accountListeners.push(listener);
      return () => undefined;
    },
  };
  const tasksChanged = () => taskListeners.forEach((listener) => listener());
  /** `announced: false`: the core has switched, its accounts event not heard yet. */
  const switchTo = (id: string, announced = true) => {
    active = id;
    if (announced) accountListeners.forEach((listener) => listener({ activeId: id, accounts: [] }));
  };
  /** A switch under way: the new account is listed as active, the old one's core still answers. */
  const beginSwitch = (id: string) => {
    answering = active;
    active = id;
  };
  /** The new account's core answers, and the accounts event is sent. */
  const endSwitch = () => {
    answering = undefined;
    accountListeners.forEach((listener) => listener({ activeId: active, accounts: [] }));
  };
  return { bridge: bridge as unknown as Bridge, lists, tasksChanged, switchTo, beginSwitch, endSwitch };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('ActionRequiredWatch', () => {
  beforeEach(() => {
    shown.length = 0;
    taskListeners.length = 0;
  });

  it('toasts a task newly waiting for the user, not those there at the first read', async () => {
    const { bridge, lists, tasksChanged } = fakeBridge();
    new ActionRequiredWatch(bridge, { open: () => undefined, showAll: () => undefined }).start();
    await settle();
    expect(shown).toEqual([]);
    lists.a!.push({ id: 't2', name: 'Sign the lease' });
    tasksChanged();
    await settle();
    expect(shown).toEqual(['Your action is required: “Sign the lease”']);
  });

  it('after a switch of account, the new account’s waiting tasks are a baseline, not news', async () => {
    const { bridge, lists, tasksChanged, switchTo } = fakeBridge();
    new ActionRequiredWatch(bridge, { open: () => undefined, showAll: () => undefined }).start();
    await settle();
    switchTo('b');
    tasksChanged();
    await settle();
    expect(shown).toEqual([]);
    // The new account's next new task is news all the same.
    lists.b!.push({ id: 't9', name: 'Renew the licence' });
    tasksChanged();
    await settle();
    expect(shown).toEqual(['Your action is required: “Renew the licence”']);
  });

  it('toasts all the same where the host has no accounts to list', async () => {
    const { bridge, lists, tasksChanged } = fakeBridge();
    const invoke = bridge.invoke.bind(bridge);
    const single = {
      ...bridge,
      on: bridge.on.bind(bridge),
      invoke: ((channel: string, arg: unknown) =>
        channel === 'accounts.list'
          ? Promise.reject(new Error('Channel not available: accounts.list'))
          : invoke(channel as never, arg as never)) as Bridge['invoke'],
    } as Bridge;
    new ActionRequiredWatch(single, { open: () => undefined, showAll: () => undefined }).start();
    await settle();
    lists.a!.push({ id: 't2', name: 'Sign the lease' });
    tasksChanged();
    await settle();
    expect(shown).toEqual(['Your action is required: “Sign the lease”']);
  });

  it('a task change of the new account heard before the accounts event is a baseline too', async () => {
    const { bridge, tasksChanged, switchTo } = fakeBridge();
    new ActionRequiredWatch(bridge, { open: () => undefined, showAll: () => undefined }).start();
    await settle();
    switchTo('b', false);
    tasksChanged();
    await settle();
    expect(shown).toEqual([]);
    // And back to the first account: its list is again a baseline.
    switchTo('a');
    await settle();
    expect(shown).toEqual([]);
  });

  it('a read during a switch (the new account listed, the old core answering) is no baseline', async () => {
    const { bridge, tasksChanged, beginSwitch, endSwitch } = fakeBridge();
    new ActionRequiredWatch(bridge, { open: () => undefined, showAll: () => undefined }).start();
    await settle();
    beginSwitch('b');
    // The old account's sync goes on while the new one starts: its task change is read.
    tasksChanged();
    await settle();
    endSwitch();
    await settle();
    expect(shown).toEqual([]);
  });
});
