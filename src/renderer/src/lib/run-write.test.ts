import { describe, expect, it } from 'vitest';
import type { ChannelInput, ChannelName, ChannelOutput } from '@shared/ipc/contract';
import type { IpcError } from '@shared/ipc/channel';
import { createRunWrite, type WriteBridge, type WriteNotices } from './run-write';

/** A refusal as the bridge throws it: the core's error, naming the field. */
class Refusal extends Error {
  constructor(readonly error: IpcError) {
    super(error.message);
  }
}

/** A bridge that records each call and answers from `answer` (a throw is a refusal). */
function fakeBridge(answer: (channel: string, arg: unknown) => unknown) {
  const calls: { channel: string; arg: unknown }[] = [];
  const bridge: WriteBridge = {
    async invoke<C extends ChannelName>(channel: C, arg: ChannelInput<C>): Promise<ChannelOutput<C>> {
      calls.push({ channel, arg });
      return answer(channel, arg) as ChannelOutput<C>;
    },
  };
  return { bridge, calls };
}

function fakeNotices() {
  const shown: { kind: string; text: string; error?: unknown }[] = [];
  const notices: WriteNotices = {
    show: (message, kind) => shown.push({ kind, text: message }),
    error: (action, error) => shown.push({ kind: 'error', text: action, error }),
  };
  return { notices, shown };
}

describe('runWrite', () => {
  it('passes the argument to the channel and answers its value', async () => {
    const { bridge, calls } = fakeBridge(() => ({ id: 'local-1' }));
    const { notices, shown } = fakeNotices();
    const runWrite = createRunWrite(bridge, notices);

    const outcome = await runWrite('tasks.create', { projectId: 'p1', title: 'Plan' });

    expect(outcome).toEqual({ ok: true, value: { id: 'local-1' } });
    expect(calls).toEqual([{ channel: 'tasks.create', arg: { projectId: 'p1', title: 'Plan' } }]);
    expect(shown).toEqual([]);
  });

  it('toasts the success when asked to, and only on success', async () => {
    const { bridge } = fakeBridge(() => 'OK');
    const { notices, shown } = fakeNotices();
    const runWrite = createRunWrite(bridge, notices);

    await runWrite(
      'projects.update',
      { projectId: 'p1', changes: { parentProjectId: 'f1' } },
      { success: "Moved 'Site' into 'Web'", failure: "Could not move 'Site'" },
    );

    expect(shown).toEqual([{ kind: 'success', text: "Moved 'Site' into 'Web'" }]);
  });

  it('answers a refusal as the outcome, and toasts it as `failure` with the error when asked to', async () => {
    const refusal = new Refusal({ type: 'invalid-argument', message: 'must not be empty', field: 'title' });
    const { bridge } = fakeBridge(() => {
      throw refusal;
    });
    const { notices, shown } = fakeNotices();
    const runWrite = createRunWrite(bridge, notices);

    const outcome = await runWrite(
      'tasks.update',
      { taskId: 't1', changes: { title: '' } },
      { success: 'never shown', failure: "Could not change 'Plan'" },
    );

    expect(outcome).toEqual({ ok: false, error: refusal });
    expect(shown).toEqual([{ kind: 'error', text: "Could not change 'Plan'", error: refusal }]);
  });

  it('leaves a refusal to the form (no toast) when no failure is named', async () => {
    const refusal = new Refusal({ type: 'invalid-argument', message: 'is not valid', field: 'email' });
    const { bridge } = fakeBridge(() => {
      throw refusal;
    });
    const { notices, shown } = fakeNotices();

    const outcome = await createRunWrite(bridge, notices)('crm.createContact', { firstName: 'Ann' });

    expect(outcome).toEqual({ ok: false, error: refusal });
    expect(shown).toEqual([]);
  });

  it('reads a prepared argument first, and tells a failing read as the write would be told', async () => {
    const { bridge, calls } = fakeBridge(() => 'OK');
    const { notices, shown } = fakeNotices();
    const runWrite = createRunWrite(bridge, notices);

    const linked = await runWrite('tasks.update', async () => ({
      taskId: 't1',
      changes: { crmContactIds: ['c1'] },
    }));
    expect(linked.ok).toBe(true);
    expect(calls).toEqual([
      { channel: 'tasks.update', arg: { taskId: 't1', changes: { crmContactIds: ['c1'] } } },
    ]);

    const readFailed = new Error('The Workdesk core cannot be reached right now.');
    const outcome = await runWrite(
      'tasks.update',
      async () => {
        throw readFailed;
      },
      { failure: 'Could not link the contact' },
    );
    expect(outcome).toEqual({ ok: false, error: readFailed });
    expect(calls).toHaveLength(1);
    expect(shown).toEqual([{ kind: 'error', text: 'Could not link the contact', error: readFailed }]);
  });

  it('takes only a channel of the contract, with the argument that channel declares', async () => {
    const { bridge, calls } = fakeBridge(() => 'OK');
    const runWrite = createRunWrite(bridge, fakeNotices().notices);
    // The type checks (svelte-check, tsc) hold these; at run time the fake answers them all.
    // @ts-expect-error `tasks.update` takes `changes`, not `patch`
    await runWrite('tasks.update', { taskId: 't1', patch: { title: 'Plan' } });
    // @ts-expect-error there is no channel `tasks.rename`
    await runWrite('tasks.rename', { taskId: 't1' });
    // @ts-expect-error a prepared argument is checked as well
    await runWrite('tasks.delete', async () => ({ id: 't1' }));
    expect(calls.map((call) => call.channel)).toEqual(['tasks.update', 'tasks.rename', 'tasks.delete']);
  });
});
