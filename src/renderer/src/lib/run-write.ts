// The renderer's one write path. Every change a view asks of the core (a task, a project, a CRM
// record, an event, a dependency, time, a queued change) goes through `runWrite`: one bridge call
// whose argument type is the channel's own (`ChannelInput`, from the IPC contract), one outcome
// shape, and one way to tell the user: a toast `failure: reason` (naming the field) when asked
// for, else the refusal for the form to show next to its field. The core applies an accepted
// write to the cache at once and queues it, so views update through cache events.
//
// This module only types its collaborators, so it runs without a window: `state/writes.ts`
// binds it to the app's bridge and toasts for the domains' write modules, and a state given its
// bridge (inbox, outbox, settings, ...) binds its own to that bridge.
import type { ChannelInput, ChannelName, ChannelOutput } from '@shared/ipc/contract';

/** What every write answers: the channel's value, or the refusal (a `BridgeError` naming the field). */
export type WriteOutcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

export interface WriteOptions {
  /** Shown as a success toast when the core accepts the write. */
  success?: string | undefined;
  /**
   * What was being done ("Could not delete 'Plan'"), shown as `failure: reason` in an error toast
   * when the write is refused. Leave it out when a form shows the refusal itself.
   */
  failure?: string | undefined;
  /**
   * What the edit does, in words ("Marked Done", "Moved to Website"), for its undo: Ctrl/Cmd+Z
   * and, with `undoToast`, a toast with an Undo button. Writes without it are still recorded,
   * under a label the recorder chooses.
   */
  undoLabel?: string | undefined;
  /** Show the edit in a toast with an Undo button (status, move, delete, bulk edits). */
  undoToast?: boolean | undefined;
}

/** Told of every accepted write, to record it for undo (`state/undo.ts`). */
export type WriteRecorder = <C extends ChannelName>(
  write: { channel: C; input: ChannelInput<C>; value: ChannelOutput<C> },
  options: WriteOptions,
) => void;

/**
 * A write's argument, or how to get it when it needs a read first (a task's linked contacts
 * before one is added): a failing read is refused and told as the write would be.
 */
export type WriteInput<C extends ChannelName> = ChannelInput<C> | (() => Promise<ChannelInput<C>>);

/** The one bridge method a write needs. */
export interface WriteBridge {
  invoke<C extends ChannelName>(channel: C, arg: ChannelInput<C>): Promise<ChannelOutput<C>>;
}

/** Where a write tells the user (the app's toasts). */
export interface WriteNotices {
  show(message: string, kind: 'success'): unknown;
  error(action: string, error: unknown): void;
}

export type RunWrite = <C extends ChannelName>(
  channel: C,
  input: WriteInput<C>,
  options?: WriteOptions,
) => Promise<WriteOutcome<ChannelOutput<C>>>;

export function createRunWrite(bridge: WriteBridge, notices: WriteNotices, record?: WriteRecorder): RunWrite {
  return async (channel, input, options = {}) => {
    try {
      const arg = typeof input === 'function' ? await input() : input;
      const value = await bridge.invoke(channel, arg);
      if (options.success) notices.show(options.success, 'success');
      try {
        record?.({ channel, input: arg, value }, options);
      } catch (error) {
        // The write was accepted: a failure to record its undo must not tell it as refused.
        console.error('undo: could not record the write', error);
      }
      return { ok: true, value };
    } catch (error) {
      if (options.failure) notices.error(options.failure, error);
      return { ok: false, error };
    }
  };
}
