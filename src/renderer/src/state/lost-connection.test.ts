// The lists of the window while its connection to the core is lost for a moment, and when it
// comes back: a list that has answered keeps its rows with a note (a first read with nothing to
// keep shows the error), a list whose item is gone drops them, every list reads again by itself
// on the reconnect, and the sync status says the core cannot be reached. Runes are stood in for
// by plain values (no component draws from them here), so the logic runs in node.
import { describe, expect, it, vi } from 'vitest';
import type { Bridge, LostHost } from '../lib/bridge';
import { plainRunes } from '../lib/bridge-double';

vi.mock('../lib/bridge', () => import('../lib/bridge-double'));
plainRunes();

const { BridgeError } = await import('../lib/bridge');
const { TreeState } = await import('./tree.svelte');
const { TaskWindow } = await import('./task-window.svelte');
const { CrmState } = await import('./crm.svelte');
const { ItemDependencies } = await import('./item-dependencies.svelte');
const { SyncState } = await import('./sync.svelte');
const { OutboxState } = await import('./outbox.svelte');
const { SettingsState } = await import('./settings.svelte');
const { TimerState } = await import('./timer.svelte');

/** What the page's bridge answers a call made while its socket is lost. */
const lost = () =>
  new BridgeError({ type: 'offline', message: 'The connection to the Workdesk core was lost.' });

/**
 * A bridge whose answers the test sets per channel (a value, or an error thrown), and whose
 * connection it loses and brings back; counts the calls per channel.
 */
function scriptedBridge(answers: Record<string, unknown>) {
  const calls: Record<string, number> = {};
  const connection = new Set<(connected: boolean, lost?: LostHost) => void>();
  const bridge = {
    invoke: (channel: string) => {
      calls[channel] = (calls[channel] ?? 0) + 1;
      const answer = answers[channel];
      return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
    },
    on: () => () => undefined,
    onConnection: (listener: (connected: boolean, lost?: LostHost) => void) => {
      connection.add(listener);
      return () => connection.delete(listener);
    },
  } as unknown as Bridge;
  return {
    bridge,
    answers,
    calls,
    connected(connected: boolean, lost?: LostHost) {
      for (const listener of connection) listener(connected, lost);
    },
  };
}

const node = (id: string) => ({ id, name: id, depth: 0, parentProjectId: null, archived: false });

describe('the project tree when the connection to the core is lost', () => {
  it('keeps the projects it shows with a note, and reads again by itself when the connection is back', async () => {
    const core = scriptedBridge({ 'projects.tree': { nodes: [node('p1')] } });
    const tree = new TreeState(core.bridge);
    const stop = tree.start();
    await vi.waitFor(() => expect(tree.all.map((n) => n.id)).toEqual(['p1']));
    core.answers['projects.tree'] = lost();
    await tree.load();
    expect(tree.all.map((n) => n.id)).toEqual(['p1']);
    expect(tree.error).toBeUndefined();
    expect(tree.keptError).toBe('The connection to the Workdesk core was lost.');
    // Back, with a project added meanwhile: read again without anyone asking.
    core.answers['projects.tree'] = { nodes: [node('p1'), node('p2')] };
    core.connected(true);
    await vi.waitFor(() => expect(tree.all.map((n) => n.id)).toEqual(['p1', 'p2']));
    expect(tree.keptError).toBeUndefined();
    stop();
  });

  it('shows the error in place of a tree never read', async () => {
    const core = scriptedBridge({ 'projects.tree': lost() });
    const tree = new TreeState(core.bridge);
    await tree.load();
    expect(tree.error).toBe('The connection to the Workdesk core was lost.');
    expect(tree.keptError).toBeUndefined();
  });
});

describe('a task list when the connection to the core is lost', () => {
  const row = (id: string) => ({ id, name: id }) as never;

  it('keeps the rows it shows, and drops nothing until a read answers', async () => {
    let answer: () => Promise<{ rows: never[]; total: number }> = () =>
      Promise.resolve({ rows: [row('t1'), row('t2')], total: 2 });
    const list = new TaskWindow(() => answer(), 10);
    list.ensure(0, 0);
    await vi.waitFor(() => expect(list.total).toBe(2));
    answer = () => Promise.reject(lost());
    await list.refresh();
    expect(list.rows.map((r) => r?.id)).toEqual(['t1', 't2']);
    expect(list.error).toBeUndefined();
    expect(list.keptError).toBe('The connection to the Workdesk core was lost.');
    answer = () => Promise.resolve({ rows: [row('t1')], total: 1 });
    await list.refresh();
    expect(list.rows.map((r) => r?.id)).toEqual(['t1']);
    expect(list.keptError).toBeUndefined();
  });

  it('shows the error in place of a list never read', async () => {
    const list = new TaskWindow(() => Promise.reject(lost()), 10);
    await list.refresh();
    expect(list.error).toBe('The connection to the Workdesk core was lost.');
    expect(list.keptError).toBeUndefined();
  });
});

describe('the CRM list when the connection to the core is lost', () => {
  it('keeps its rows with a note, and reads again on the reconnect', async () => {
    const page = (ids: string[]) => ({
      rows: ids.map((id) => ({ id, firstName: id, lastName: '' })),
      total: ids.length,
    });
    const core = scriptedBridge({ 'crm.contacts': page(['c1']) });
    const crm = new CrmState(core.bridge, 'contacts');
    const stop = crm.start();
    await vi.waitFor(() => expect(crm.contacts.map((c) => c.id)).toEqual(['c1']));
    core.answers['crm.contacts'] = lost();
    await crm.load();
    expect(crm.contacts.map((c) => c.id)).toEqual(['c1']);
    expect(crm.error).toBeUndefined();
    expect(crm.keptError).toBe('The connection to the Workdesk core was lost.');
    core.answers['crm.contacts'] = page(['c1', 'c2']);
    core.connected(true);
    await vi.waitFor(() => expect(crm.contacts.map((c) => c.id)).toEqual(['c1', 'c2']));
    expect(crm.keptError).toBeUndefined();
    stop();
  });
});

describe("a project's dependencies when a read again fails", () => {
  const link = { dependency: { id: 'd1' } };

  it('keeps them while the core is lost, and drops them when the project is no longer held', async () => {
    const core = scriptedBridge({ 'dependencies.ofProject': [link] });
    const deps = new ItemDependencies(core.bridge, { kind: 'project', id: 'p1' });
    await deps.load();
    core.answers['dependencies.ofProject'] = lost();
    await deps.load();
    expect(deps.rows).toEqual([link]);
    expect(deps.error).toBeUndefined();
    expect(deps.keptError).toBe('The connection to the Workdesk core was lost.');
    core.answers['dependencies.ofProject'] = new BridgeError({
      type: 'offline',
      message: 'The project is not in the cache and the service did not answer',
      field: 'projectId',
    });
    await deps.load();
    expect(deps.keptError).toBeUndefined();
    expect(deps.error).toContain('The project is not in the cache and the service did not answer');
  });
});

describe('the sync status while the core cannot be reached', () => {
  it('says so, and reads the status again when the connection is back', async () => {
    const core = scriptedBridge({ 'sync.status': { online: true, running: true } });
    const sync = new SyncState(core.bridge);
    const stop = sync.start();
    await vi.waitFor(() => expect(sync.status).toBeDefined());
    expect(sync.coreReachable).toBe(true);
    core.connected(false);
    expect(sync.coreReachable).toBe(false);
    core.answers['sync.status'] = { online: true, running: false };
    core.connected(true);
    await vi.waitFor(() => expect(sync.status?.running).toBe(false));
    expect(sync.coreReachable).toBe(true);
    expect(core.calls['sync.status']).toBe(2);
    stop();
  });

  it('counts the core reached only once the status is read again, so the old one never shows as now', async () => {
    const core = scriptedBridge({ 'sync.status': { online: true, running: true } });
    const sync = new SyncState(core.bridge);
    const stop = sync.start();
    await vi.waitFor(() => expect(sync.status).toBeDefined());
    core.connected(false);
    // The core is back, but its service is not: the read of the status is on its way.
    let answer: (status: unknown) => void = () => undefined;
    core.answers['sync.status'] = new Promise((resolve) => (answer = resolve));
    core.connected(true);
    await Promise.resolve();
    expect(sync.coreReachable).toBe(false);
    expect(sync.status).toMatchObject({ online: true });
    answer({ online: false, running: false, probing: false });
    await vi.waitFor(() => expect(sync.coreReachable).toBe(true));
    // What the bar then shows: Offline, not the Online from before the loss.
    expect(sync.status).toMatchObject({ online: false, probing: false });
    stop();
  });

  it('does not count the core reached when the connection is lost again before the status is read', async () => {
    const core = scriptedBridge({ 'sync.status': { online: true, running: false } });
    const sync = new SyncState(core.bridge);
    const stop = sync.start();
    await vi.waitFor(() => expect(sync.status).toBeDefined());
    core.connected(false, 'unknown');
    let fail: (error: unknown) => void = () => undefined;
    core.answers['sync.status'] = new Promise((_, reject) => (fail = reject));
    core.connected(true);
    // Lost again before the read answers: the transport then fails the read.
    core.connected(false, 'gone');
    fail(lost());
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(sync.coreReachable).toBe(false);
    expect(sync.lostHost).toBe('gone');
    stop();
  });

  it('names what became of the web host while lost, and forgets it once back', async () => {
    const core = scriptedBridge({ 'sync.status': { online: true, running: false } });
    const sync = new SyncState(core.bridge);
    const stop = sync.start();
    await vi.waitFor(() => expect(sync.status).toBeDefined());
    core.connected(false, 'unknown');
    expect(sync.lostHost).toBe('unknown');
    core.connected(false, 'gone');
    expect(sync.lostHost).toBe('gone');
    expect(sync.coreReachable).toBe(false);
    core.connected(true);
    await vi.waitFor(() => expect(sync.coreReachable).toBe(true));
    expect(sync.lostHost).toBe('unknown');
    stop();
  });
});

describe('the outbox, the accounts and settings, and the timer once the core is reached again', () => {
  it('takes an account switched while the connection was lost as a switch', async () => {
    const core = scriptedBridge({
      'accounts.list': { accounts: [{ id: 'a1' }, { id: 'a2' }], activeId: 'a1' },
      'settings.get': { theme: 'light' },
    });
    const settings = new SettingsState(core.bridge, { set: () => undefined } as never);
    let switches = 0;
    settings.onSwitch = () => (switches += 1);
    const stop = settings.start();
    await vi.waitFor(() => expect(settings.activeId).toBe('a1'));
    expect(switches).toBe(0);
    core.connected(false);
    core.answers['accounts.list'] = { accounts: [{ id: 'a1' }, { id: 'a2' }], activeId: 'a2' };
    core.connected(true);
    await vi.waitFor(() => expect(settings.activeId).toBe('a2'));
    // Every view then reads the new account's cache, as after a switch made in this window.
    expect(switches).toBe(1);
    stop();
  });

  it('each reads itself again: what the core told meanwhile was missed', async () => {
    const core = scriptedBridge({
      'outbox.status': { pending: 0, failed: 0, stuck: 0, conflicts: 0, paused: null },
      'conflicts.list': [],
      'accounts.list': { accounts: [], activeId: null },
      'settings.get': { theme: 'light' },
      'time.timer': null,
    });
    const outbox = new OutboxState(core.bridge);
    const settings = new SettingsState(core.bridge, { set: () => undefined } as never);
    const timer = new TimerState(core.bridge);
    const stops = [outbox.start(), settings.start(), timer.start()];
    await vi.waitFor(() => expect(outbox.status).toBeDefined());
    await vi.waitFor(() => expect(settings.preferences).toBeDefined());
    core.connected(false);
    // Meanwhile a change was refused with the token, an account added, the theme changed and a
    // timer started in another window; none of their events reached this one.
    core.answers['outbox.status'] = { pending: 2, failed: 0, stuck: 0, conflicts: 1, paused: 'token-needed' };
    const conflict = { id: 7, entity: 'task', entityId: 't1' };
    core.answers['conflicts.list'] = [conflict];
    const account = { id: 'a1', userId: 'u1' };
    core.answers['accounts.list'] = { accounts: [account], activeId: 'a1' };
    core.answers['settings.get'] = { theme: 'dark' };
    const running = { taskId: 't1', taskName: 'Call back', startedAt: 1 };
    core.answers['time.timer'] = running;
    core.connected(true);
    await vi.waitFor(() => expect(outbox.status).toMatchObject({ pending: 2, paused: 'token-needed' }));
    await vi.waitFor(() => expect(outbox.conflicts).toEqual([conflict]));
    await vi.waitFor(() => expect(settings.active).toEqual(account));
    expect(settings.preferences).toEqual({ theme: 'dark' });
    await vi.waitFor(() => expect(timer.timer).toEqual(running));
    stops.forEach((stop) => stop());
  });
});
