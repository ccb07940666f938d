import { describe, expect, it } from 'vitest';
import type { ChannelInput, ChannelName, ChannelOutput } from '@shared/ipc/contract';
import { TASK_DELETE_HOLD_MS } from '@shared/ipc/tasks-write';
import {
  QUOTED_TITLE_MAX,
  UndoHistory,
  quoted,
  undoKeyOf,
  undoableGroup,
  undoableOf,
  type DoneWrite,
  type UndoPorts,
} from './undo';
import type { WriteOutcome } from './run-write';

/** Ports that record each write and answer from `answer` (a throw is a refusal). */
function fakePorts(answer: (channel: string, input: unknown) => unknown, confirm = true) {
  const calls: { channel: string; input: unknown }[] = [];
  const asked: string[] = [];
  const ports: UndoPorts = {
    async run<C extends ChannelName>(
      channel: C,
      input: ChannelInput<C>,
    ): Promise<WriteOutcome<ChannelOutput<C>>> {
      calls.push({ channel, input });
      try {
        return { ok: true, value: answer(channel, input) as ChannelOutput<C> };
      } catch (error) {
        return { ok: false, error };
      }
    },
    async confirm(message) {
      asked.push(message);
      return confirm;
    },
  };
  return { ports, calls, asked };
}

const done = <C extends ChannelName>(
  channel: C,
  input: ChannelInput<C>,
  value: ChannelOutput<C>,
): DoneWrite => ({ channel, input, value }) as DoneWrite;

describe('undoableOf: how each write is taken back', () => {
  it('an update writes back the values it replaced; its answer builds the redo', async () => {
    const item = undoableOf(
      done(
        'tasks.update',
        { taskId: 't1', changes: { title: 'New', priority: 50 } },
        { entryId: 4, replaced: { title: 'Old', priority: 1 } },
      ),
      'Changed',
    )!;
    const { ports, calls } = fakePorts(() => ({
      entryId: null,
      withdrawn: true,
      replaced: { title: 'New', priority: 50 },
    }));
    const result = await item.reverse(ports);
    expect(calls).toEqual([
      { channel: 'tasks.update', input: { taskId: 't1', changes: { title: 'Old', priority: 1 } } },
    ]);
    expect(result.ok).toBe(true);
    const redo = result.ok ? result.reverse : null;
    await redo!.reverse(ports);
    expect(calls[1]).toEqual({
      channel: 'tasks.update',
      input: { taskId: 't1', changes: { title: 'New', priority: 50 } },
    });
  });

  it('a status change writes back the status it replaced', async () => {
    const item = undoableOf(
      done(
        'tasks.setStatus',
        { taskId: 't1', statusId: 's-done' },
        { entryId: 2, replaced: { statusId: 's-open' } },
      ),
      'Marked Done',
    )!;
    const { ports, calls } = fakePorts(() => ({
      entryId: null,
      withdrawn: true,
      replaced: { statusId: 's-done' },
    }));
    expect(await item.reverse(ports)).toMatchObject({ ok: true, note: 'nothing was sent' });
    // Marked as an undo: a waiting change with a message is withdrawn with its message.
    expect(calls).toEqual([
      { channel: 'tasks.setStatus', input: { taskId: 't1', statusId: 's-open', undo: true } },
    ]);
  });

  it('a status change with a message, reverted once sent, says its message stays', async () => {
    const item = undoableOf(
      done(
        'tasks.setStatus',
        { taskId: 't1', statusId: 's-done', message: 'Shipped' },
        { entryId: 2, replaced: { statusId: 's-open' } },
      ),
      'Marked Done',
    )!;
    const sent = fakePorts(() => ({ entryId: 9, replaced: { statusId: 's-done' } }));
    const result = await item.reverse(sent.ports);
    expect(result).toMatchObject({ ok: true, note: 'its message stays on the task' });
    // The redo sets the status again, without posting the message a second time.
    const redo = result.ok ? result.reverse : null;
    await redo!.reverse(sent.ports);
    expect(sent.calls[1]).toEqual({
      channel: 'tasks.setStatus',
      input: { taskId: 't1', statusId: 's-done', undo: true },
    });
    // Still waiting: withdrawn with its message, nothing to warn of.
    const waiting = fakePorts(() => ({ entryId: null, withdrawn: true, replaced: { statusId: 's-done' } }));
    expect(await item.reverse(waiting.ports)).toMatchObject({ ok: true, note: 'nothing was sent' });
  });

  it('quotes a title whole when short, cut at a word with an ellipsis when long', () => {
    expect(quoted('Write the brief')).toBe("'Write the brief'");
    expect(quoted('  Write   the brief ')).toBe("'Write the brief'");
    const long = quoted('Prepare the quarterly customer satisfaction survey, with follow-ups');
    expect(long).toBe("'Prepare the quarterly customer…'");
    expect(long.length).toBeLessThanOrEqual(QUOTED_TITLE_MAX + 2);
    expect(quoted('x'.repeat(60))).toBe(`'${'x'.repeat(QUOTED_TITLE_MAX - 1)}…'`);
  });

  it('an event edit: discarded while its create waits, else edited back to the old event', async () => {
    const input = {
      eventType: 'company-event',
      name: 'New',
      startDate: '2026-12-07',
      endDate: '2026-12-08',
    } as const;
    const old = { ...input, name: 'Old' };
    const item = undoableOf(
      done('events.edit', { eventId: 'e1', input }, { id: 'local-e2', entryId: 7, replaced: old }),
      'Changed the event',
    )!;
    const waiting = fakePorts((channel) =>
      channel === 'outbox.pending' ? [{ id: 7, state: 'pending' }] : { pending: 0 },
    );
    expect(await item.reverse(waiting.ports)).toMatchObject({ ok: true, note: 'nothing was sent' });
    expect(waiting.calls.map((c) => c.channel)).toEqual(['outbox.pending', 'outbox.discard']);
    const sent = fakePorts((channel) =>
      channel === 'outbox.pending' ? [] : { id: 'local-e3', entryId: 9, replaced: input },
    );
    const result = await item.reverse(sent.ports);
    expect(sent.calls[1]).toEqual({ channel: 'events.edit', input: { eventId: 'local-e2', input: old } });
    // Its redo is the edit the other way again.
    await (result.ok ? result.reverse : null)!.reverse(sent.ports);
    expect(sent.calls[3]).toEqual({ channel: 'events.edit', input: { eventId: 'local-e3', input } });
  });

  it('a project, contact or account edit writes back what it replaced', async () => {
    const cases = [
      done(
        'projects.update',
        { projectId: 'p1', changes: { name: 'New' } },
        { entryId: 1, replaced: { name: 'Old' } },
      ),
      done(
        'crm.updateContact',
        { contactId: 'c1', changes: { email: 'new@x.test' } },
        { entryId: 2, replaced: { email: '' } },
      ),
      done(
        'crm.updateAccount',
        { accountId: 'a1', changes: { name: 'New' } },
        { entryId: 3, replaced: { name: 'Old' } },
      ),
    ];
    const { ports, calls } = fakePorts(() => ({ entryId: 4 }));
    for (const write of cases) await undoableOf(write, 'Changed')!.reverse(ports);
    expect(calls).toEqual([
      { channel: 'projects.update', input: { projectId: 'p1', changes: { name: 'Old' } } },
      { channel: 'crm.updateContact', input: { contactId: 'c1', changes: { email: '' } } },
      { channel: 'crm.updateAccount', input: { accountId: 'a1', changes: { name: 'Old' } } },
    ]);
    // Nothing replaced (nothing changed): nothing to undo.
    expect(
      undoableOf(done('projects.update', { projectId: 'p1', changes: {} }, { entryId: null }), 'x'),
    ).toBeNull();
  });

  it('custom fields write back the values they replaced (null: the field was empty)', async () => {
    const item = undoableOf(
      done(
        'tasks.setCustomFields',
        { taskId: 't1', values: [{ id: 'cf1', value: 'x' }] },
        { entryId: 6, replaced: { cf1: null } },
      ),
      'Custom field changed',
    )!;
    const { ports, calls } = fakePorts(() => ({ entryId: null, withdrawn: true, replaced: { cf1: 'x' } }));
    await item.reverse(ports);
    expect(calls).toEqual([
      { channel: 'tasks.setCustomFields', input: { taskId: 't1', values: [{ id: 'cf1', value: null }] } },
    ]);
  });

  it('a tag added is removed, marked as an undo so a waiting add is withdrawn', async () => {
    const item = undoableOf(done('tasks.addTag', { taskId: 't1', tagId: 'g1' }, { entryId: 3 }), 'Tagged')!;
    const { ports, calls } = fakePorts(() => ({ entryId: null, withdrawn: true }));
    await item.reverse(ports);
    expect(calls).toEqual([{ channel: 'tasks.removeTag', input: { taskId: 't1', tagId: 'g1', undo: true } }]);
  });

  it('a write that changed nothing is not recorded', () => {
    expect(
      undoableOf(done('tasks.addTag', { taskId: 't1', tagId: 'g1' }, { entryId: null }), 'x'),
    ).toBeNull();
    expect(
      undoableOf(done('tasks.update', { taskId: 't1', changes: { title: 'Same' } }, { entryId: null }), 'x'),
    ).toBeNull();
    expect(
      undoableOf(done('tasks.comment', { taskId: 't1', message: 'hi' }, { entryId: 5 }), 'x'),
    ).toBeNull();
  });

  it('a delete is undone by discarding its waiting entry, within its window only; redo deletes again', async () => {
    let now = 1_000;
    const item = undoableOf(done('tasks.delete', { taskId: 't1' }, { entryId: 7 }), 'Deleted', () => now)!;
    expect(item.until).toBeLessThan(1_000 + TASK_DELETE_HOLD_MS);
    expect(item.until).toBeGreaterThan(1_000);
    const { ports, calls } = fakePorts((channel) => (channel === 'tasks.delete' ? { entryId: 9 } : {}));
    const result = await item.reverse(ports);
    expect(calls).toEqual([{ channel: 'outbox.discard', input: { id: 7 } }]);
    now = 5_000;
    const redo = result.ok ? result.reverse : null;
    const again = await redo!.reverse(ports);
    expect(calls[1]).toEqual({ channel: 'tasks.delete', input: { taskId: 't1' } });
    // The new delete has its own entry and window.
    const undoAgain = again.ok ? again.reverse : null;
    expect(undoAgain?.until).toBeGreaterThan(5_000);
  });

  it('a delete whose entry is gone (sent) cannot be undone, and says why', async () => {
    const item = undoableOf(done('tasks.delete', { taskId: 't1' }, { entryId: 7 }), 'Deleted')!;
    const { ports } = fakePorts(() => {
      throw new Error('No waiting change 7');
    });
    expect(await item.reverse(ports)).toEqual({
      ok: false,
      reason: 'It was already deleted on the service and cannot come back.',
    });
  });

  it('a create still waiting is discarded; once sent it is deleted after the user agrees', async () => {
    const item = undoableOf(
      done('tasks.create', { projectId: 'p1', title: 'New' }, { entryId: 3, id: 'local-1' }),
      'Created',
    )!;
    const waiting = fakePorts((channel) =>
      channel === 'outbox.pending' ? [{ id: 3, state: 'pending' }] : {},
    );
    const withdrawn = await item.reverse(waiting.ports);
    expect(withdrawn).toEqual({ ok: true, reverse: expect.objectContaining({ label: 'Created' }) });
    expect(waiting.calls.map((c) => c.channel)).toEqual(['outbox.pending', 'outbox.discard']);
    expect(waiting.asked).toEqual([]);
    // Its redo makes the task again from what the user typed.
    const remade = fakePorts(() => ({ entryId: 4, id: 'local-2' }));
    const redone = await (withdrawn.ok ? withdrawn.reverse : null)!.reverse(remade.ports);
    expect(remade.calls).toEqual([{ channel: 'tasks.create', input: { projectId: 'p1', title: 'New' } }]);
    // Nothing had been sent, so nothing is said: the task is simply back.
    expect(redone).toEqual({ ok: true, reverse: expect.objectContaining({ label: 'Created' }) });

    const sent = fakePorts((channel) => (channel === 'outbox.pending' ? [] : { entryId: 8 }));
    // The toast says the undo was a delete on the service, not a withdrawal.
    const deleted = await item.reverse(sent.ports);
    expect(deleted).toEqual({
      ok: true,
      reverse: expect.objectContaining({ label: 'Created' }),
      note: 'the task was deleted on the service',
    });
    expect(sent.asked[0]).toMatch(/^Delete the task you created\?/);
    expect(sent.calls[1]).toEqual({ channel: 'tasks.delete', input: { taskId: 'local-1' } });
    // Its redo makes a new task; that one's undo deletes the new one.
    const again = fakePorts((channel) => (channel === 'outbox.pending' ? [] : { entryId: 9, id: 't-new' }));
    const made = await (deleted.ok ? deleted.reverse : null)!.reverse(again.ports);
    expect(again.calls[0]).toEqual({ channel: 'tasks.create', input: { projectId: 'p1', title: 'New' } });
    expect(made).toMatchObject({ ok: true, note: 'it was made again as a new task' });
    await (made.ok ? made.reverse : null)!.reverse(again.ports);
    expect(again.calls.at(-1)).toEqual({ channel: 'tasks.delete', input: { taskId: 't-new' } });

    const declined = fakePorts((channel) => (channel === 'outbox.pending' ? [] : { entryId: 8 }), false);
    expect(await item.reverse(declined.ports)).toEqual({ ok: false });
    expect(declined.calls.map((c) => c.channel)).toEqual(['outbox.pending']);
  });

  it('a status change with a message withdrawn by its undo is redone with its message', async () => {
    const item = undoableOf(
      done(
        'tasks.setStatus',
        { taskId: 't1', statusId: 's-done', message: 'Shipped' },
        { entryId: 2, replaced: { statusId: 's-open' } },
      ),
      'Marked Done',
    )!;
    const { ports, calls } = fakePorts((_c, input) =>
      (input as { undo?: boolean }).undo
        ? { entryId: null, withdrawn: true, replaced: { statusId: 's-done' } }
        : { entryId: 11, replaced: { statusId: 's-open' } },
    );
    const result = await item.reverse(ports);
    expect(result).toMatchObject({ ok: true, note: 'nothing was sent' });
    // Nothing was posted, so doing it again posts the message as the user wrote it.
    const redo = result.ok ? result.reverse : null;
    const again = await redo!.reverse(ports);
    expect(calls[1]).toEqual({
      channel: 'tasks.setStatus',
      input: { taskId: 't1', statusId: 's-done', message: 'Shipped' },
    });
    // And the redo is itself undone as the first change was.
    const undoAgain = again.ok ? again.reverse : null;
    await undoAgain!.reverse(ports);
    expect(calls[2]).toEqual({
      channel: 'tasks.setStatus',
      input: { taskId: 't1', statusId: 's-open', undo: true },
    });
  });

  it('creates of events, contacts, accounts, projects and folders: withdrawn while waiting', async () => {
    const creates = [
      done(
        'events.create',
        { eventType: 'project-milestone', name: 'Launch', startDate: '2026-12-01', projectId: 'p1' },
        { entryId: 3, id: 'local-e' },
      ),
      done('crm.createContact', { firstName: 'Ada' }, { entryId: 3, id: 'local-c' }),
      done('crm.createAccount', { name: 'Acme' }, { entryId: 3, id: 'local-a' }),
      done('projects.create', { name: 'Site', projectTemplateId: 'tpl' }, { entryId: 3, id: 'local-p' }),
      done('projects.createFolder', { name: 'Archive' }, { entryId: 3, id: 'local-f' }),
    ];
    for (const write of creates) {
      const item = undoableOf(write, 'Created')!;
      const waiting = fakePorts((channel) =>
        channel === 'outbox.pending' ? [{ id: 3, state: 'pending', entityKey: 'x:1' }] : {},
      );
      expect(await item.reverse(waiting.ports)).toEqual({
        ok: true,
        reverse: expect.objectContaining({ label: 'Created' }),
      });
      expect(waiting.calls).toEqual([
        { channel: 'outbox.pending', input: {} },
        { channel: 'outbox.discard', input: { id: 3 } },
      ]);
    }
  });

  it('a create once sent is deleted by the delete of its kind; a project cannot be, and says so', async () => {
    const cases = [
      ['events.create', { eventId: 'e9' }, 'events.delete', 'event'],
      ['crm.createContact', { contactId: 'e9' }, 'crm.deleteContact', 'contact'],
      ['crm.createAccount', { accountId: 'e9' }, 'crm.deleteAccount', 'account'],
    ] as const;
    for (const [channel, input, remove, noun] of cases) {
      const item = undoableOf(
        { channel, input: {} as never, value: { entryId: 3, id: 'e9' } } as DoneWrite,
        'Created',
      )!;
      const sent = fakePorts((c) => (c === 'outbox.pending' ? [] : { entryId: 8 }));
      expect(await item.reverse(sent.ports)).toEqual({
        ok: true,
        reverse: expect.objectContaining({ label: 'Created' }),
        note: `the ${noun} was deleted on the service`,
      });
      expect(sent.asked).toEqual([
        `Delete the ${noun} you created? It was sent already, so it cannot come back.`,
      ]);
      expect(sent.calls[1]).toEqual({ channel: remove, input });
    }
    const project = undoableOf(
      done('projects.create', { name: 'Site', projectTemplateId: 'tpl' }, { entryId: 3, id: 'p9' }),
      'Created',
    )!;
    const sent = fakePorts((c) => (c === 'outbox.pending' ? [] : { entryId: 8 }));
    expect(await project.reverse(sent.ports)).toEqual({
      ok: false,
      reason: 'It was sent already, and this service cannot delete a project.',
    });
    expect(sent.asked).toEqual([]);
  });

  it('a contact or account delete is withdrawn within its window; redo deletes again', async () => {
    for (const write of [
      done('crm.deleteContact', { contactId: 'c1' }, { entryId: 7 }),
      done('crm.deleteAccount', { accountId: 'a1' }, { entryId: 7 }),
    ]) {
      let now = 1_000;
      const item = undoableOf(write, 'Deleted', () => now)!;
      expect(item.until).toBeGreaterThan(1_000);
      expect(item.until).toBeLessThan(1_000 + TASK_DELETE_HOLD_MS);
      const { ports, calls } = fakePorts((channel) => (channel === 'outbox.discard' ? {} : { entryId: 9 }));
      const result = await item.reverse(ports);
      expect(calls).toEqual([{ channel: 'outbox.discard', input: { id: 7 } }]);
      now = 9_000;
      await (result.ok ? result.reverse : null)!.reverse(ports);
      expect(calls[1]).toEqual({ channel: write.channel, input: write.input });
      // Sent: the service has no undelete.
      const gone = fakePorts(() => {
        throw new Error('No waiting change 7');
      });
      expect(await item.reverse(gone.ports)).toEqual({
        ok: false,
        reason: 'It was already deleted on the service and cannot come back.',
      });
    }
  });

  it('an event delete is withdrawn while it waits, else the event is made again from what it replaced', async () => {
    const old = { eventType: 'project-milestone', name: 'Launch', startDate: '2026-12-01', projectId: 'p1' };
    const item = undoableOf(
      done('events.delete', { eventId: 'e1' }, { entryId: 7, replaced: old }),
      'Deleted the event',
    )!;
    expect(item.until).toBeUndefined();
    const waiting = fakePorts((channel) =>
      channel === 'outbox.pending' ? [{ id: 7, state: 'pending', entityKey: 'event:e1' }] : {},
    );
    const withdrawn = await item.reverse(waiting.ports);
    expect(withdrawn).toMatchObject({ ok: true, note: 'nothing was sent' });
    expect(waiting.calls.map((c) => c.channel)).toEqual(['outbox.pending', 'outbox.discard']);

    const sent = fakePorts((channel) =>
      channel === 'outbox.pending'
        ? []
        : channel === 'events.create'
          ? { entryId: 12, id: 'local-2' }
          : { entryId: 13 },
    );
    const made = await item.reverse(sent.ports);
    expect(made).toMatchObject({ ok: true, note: expect.stringMatching(/new event; links .* not restored/) });
    expect(sent.calls[1]).toEqual({ channel: 'events.create', input: old });
    // The redo deletes the event made again, under its new id.
    await (made.ok ? made.reverse : null)!.reverse(sent.ports);
    expect(sent.calls[2]).toEqual({ channel: 'events.delete', input: { eventId: 'local-2' } });

    const busy = fakePorts((channel) =>
      channel === 'outbox.pending' ? [{ id: 7, state: 'in_flight', entityKey: 'event:e1' }] : {},
    );
    expect(await item.reverse(busy.ports)).toMatchObject({ ok: false, reason: /being sent/ });
  });

  it("a project's custom fields write back what they replaced", async () => {
    const item = undoableOf(
      done(
        'projects.setCustomFields',
        { projectId: 'p1', values: [{ id: 'cf1', value: 'B' }] },
        { entryId: 4, replaced: { cf1: null } },
      ),
      'Custom field changed',
    )!;
    const { ports, calls } = fakePorts(() => ({ entryId: null, withdrawn: true }));
    await item.reverse(ports);
    expect(calls).toEqual([
      {
        channel: 'projects.setCustomFields',
        input: { projectId: 'p1', values: [{ id: 'cf1', value: null }] },
      },
    ]);
  });

  it('a membership change is discarded while it is the last waiting change of its project', async () => {
    const item = undoableOf(
      done(
        'members.add',
        { projectId: 'p1', userId: 'u2', access: 2 },
        { entryId: 5, replaced: { access: null } },
      ),
      'Added Bo',
    )!;
    const waiting = fakePorts((channel) =>
      channel === 'outbox.pending' ? [{ id: 5, state: 'pending', entityKey: 'project:p1' }] : {},
    );
    const result = await item.reverse(waiting.ports);
    expect(result).toMatchObject({ ok: true, note: 'nothing was sent' });
    expect(waiting.calls.map((c) => c.channel)).toEqual(['outbox.pending', 'outbox.discard']);
    // Redo adds the member again, expecting them still not a member.
    await (result.ok ? result.reverse : null)!.reverse(waiting.ports);
    expect(waiting.calls[2]).toEqual({
      channel: 'members.add',
      input: { projectId: 'p1', userId: 'u2', access: 2, expectAccess: null },
    });
    // A later change of the project waits behind it: the inverse is queued instead.
    const behind = fakePorts((channel) =>
      channel === 'outbox.pending'
        ? [
            { id: 5, state: 'pending', entityKey: 'project:p1' },
            { id: 6, state: 'pending', entityKey: 'project:p1' },
          ]
        : { entryId: 9 },
    );
    await item.reverse(behind.ports);
    expect(behind.calls[1]).toEqual({
      channel: 'members.remove',
      input: { projectId: 'p1', userId: 'u2', expectAccess: 2 },
    });
  });

  it('a membership change once sent queues the access the user had before, expecting what it set', async () => {
    const sent = fakePorts((channel) => (channel === 'outbox.pending' ? [] : { entryId: 9 }));
    const access = undoableOf(
      done(
        'members.setAccess',
        { projectId: 'p1', userId: 'u2', access: 3 },
        { entryId: 5, replaced: { access: 1 } },
      ),
      'Access changed',
    )!;
    await access.reverse(sent.ports);
    expect(sent.calls[1]).toEqual({
      channel: 'members.setAccess',
      input: { projectId: 'p1', userId: 'u2', access: 1, expectAccess: 3 },
    });
    const removed = undoableOf(
      done('members.remove', { projectId: 'p1', userId: 'u2' }, { entryId: 5, replaced: { access: 2 } }),
      'Removed Bo',
    )!;
    await removed.reverse(sent.ports);
    expect(sent.calls[3]).toEqual({
      channel: 'members.add',
      input: { projectId: 'p1', userId: 'u2', access: 2, expectAccess: null },
    });
    // A read-only member comes back in two steps: the service adds with access 1-3 only.
    const readOnly = undoableOf(
      done('members.remove', { projectId: 'p1', userId: 'u3' }, { entryId: 5, replaced: { access: -10 } }),
      'Removed Cy',
    )!;
    await readOnly.reverse(sent.ports);
    expect(sent.calls.slice(5)).toEqual([
      { channel: 'members.add', input: { projectId: 'p1', userId: 'u3', access: 1, expectAccess: null } },
      {
        channel: 'members.setAccess',
        input: { projectId: 'p1', userId: 'u3', access: -10, expectAccess: 1 },
      },
    ]);
  });
});

/** An edit that records its reversals in `log`, and its redo likewise. */
function edit(name: string, log: string[], fails = false): Parameters<UndoHistory['push']>[0] {
  return {
    label: name,
    async reverse() {
      if (fails) return { ok: false, reason: 'refused' };
      log.push(`undo ${name}`);
      return {
        ok: true,
        reverse: {
          label: name,
          async reverse() {
            log.push(`redo ${name}`);
            return { ok: true, reverse: edit(name, log) };
          },
        },
      };
    },
  };
}

describe('UndoHistory', () => {
  const { ports } = fakePorts(() => ({}));

  it('undoes the latest first and redoes in turn; a new edit clears what could be redone', async () => {
    const log: string[] = [];
    const history = new UndoHistory(ports);
    history.push(edit('a', log));
    history.push(edit('b', log));
    expect(await history.undo()).toMatchObject({ done: 'undo', label: 'b' });
    expect(await history.undo()).toMatchObject({ done: 'undo', label: 'a' });
    expect(await history.undo()).toEqual({ done: 'nothing', direction: 'undo' });
    expect(await history.redo()).toMatchObject({ done: 'redo', label: 'a' });
    expect(history.canRedo).toBe(true);
    history.push(edit('c', log));
    expect(history.canRedo).toBe(false);
    expect(await history.undo()).toMatchObject({ done: 'undo', label: 'c' });
    expect(await history.undo()).toMatchObject({ done: 'undo', label: 'a' });
    expect(log).toEqual(['undo b', 'undo a', 'redo a', 'undo c', 'undo a']);
  });

  it("a toast's Undo takes back its own edit wherever it is", async () => {
    const log: string[] = [];
    const history = new UndoHistory(ports);
    const first = edit('first', log);
    history.push(first);
    history.push(edit('second', log));
    await history.undo(first);
    expect(log).toEqual(['undo first']);
    expect(await history.undo(first)).toEqual({ done: 'nothing', direction: 'undo' });
    expect(await history.undo()).toMatchObject({ done: 'undo', label: 'second' });
  });

  it('runs steps one at a time in the order asked (keys pressed quickly)', async () => {
    const log: string[] = [];
    const history = new UndoHistory(ports);
    history.push(edit('a', log));
    history.push(edit('b', log));
    await Promise.all([history.undo(), history.undo(), history.redo()]);
    expect(log).toEqual(['undo b', 'undo a', 'redo a']);
  });

  it('an edit whose window closed is too late, and Ctrl+Z goes past it', async () => {
    let now = 0;
    const log: string[] = [];
    const history = new UndoHistory(ports, () => now);
    history.push(edit('kept', log));
    const expiring = { ...edit('deleted', log), until: 100 };
    history.push(expiring);
    now = 200;
    expect(await history.undo(expiring)).toMatchObject({ done: 'failed', label: 'deleted' });
    history.push({ ...edit('deleted again', log), until: 150 });
    expect(await history.undo()).toMatchObject({ done: 'undo', label: 'kept' });
  });

  it('a refused undo says why and leaves the edit out of the history', async () => {
    const history = new UndoHistory(ports);
    history.push(edit('x', [], true));
    expect(await history.undo()).toEqual({
      done: 'failed',
      direction: 'undo',
      label: 'x',
      reason: 'refused',
    });
    expect(history.canUndo).toBe(false);
  });

  it('a group is undone as one, last first, and redone as one', async () => {
    const log: string[] = [];
    const group = undoableGroup('3 tasks changed', [edit('a', log), edit('b', log), edit('c', log)])!;
    const history = new UndoHistory(ports);
    history.push(group);
    expect(await history.undo()).toMatchObject({ done: 'undo', label: '3 tasks changed' });
    expect(await history.redo()).toMatchObject({ done: 'redo', label: '3 tasks changed' });
    expect(log).toEqual(['undo c', 'undo b', 'undo a', 'redo a', 'redo b', 'redo c']);
    expect(undoableGroup('none', [])).toBeNull();
  });
});

describe('undo keys', () => {
  const press = (
    key: string,
    mods: Partial<Record<'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey', boolean>> = {},
  ) => ({
    key,
    ctrlKey: false,
    metaKey: false,
    shiftKey: false,
    altKey: false,
    ...mods,
  });

  it('Ctrl+Z, Ctrl+Shift+Z and Ctrl+Y off macOS; Cmd on macOS, where Cmd+Y is not redo', () => {
    expect(undoKeyOf(press('z', { ctrlKey: true }), false)).toBe('undo');
    expect(undoKeyOf(press('Z', { ctrlKey: true, shiftKey: true }), false)).toBe('redo');
    expect(undoKeyOf(press('y', { ctrlKey: true }), false)).toBe('redo');
    expect(undoKeyOf(press('z', { metaKey: true }), true)).toBe('undo');
    expect(undoKeyOf(press('z', { metaKey: true, shiftKey: true }), true)).toBe('redo');
    expect(undoKeyOf(press('y', { metaKey: true }), true)).toBeUndefined();
    expect(undoKeyOf(press('z', { ctrlKey: true }), true)).toBeUndefined();
    expect(undoKeyOf(press('z'), false)).toBeUndefined();
    expect(undoKeyOf(press('z', { ctrlKey: true, altKey: true }), false)).toBeUndefined();
  });
});
