// The host's side of the core in a process of its own: the same `dispatch` and events as an
// in-process core, carried over a message channel with request ids. The keychain and system
// notifications stay with the host and are reached by the child through `HostRequest` only.
import type { IpcResult } from '../../../shared/ipc/channel';
import type { ChannelArg } from '../../../shared/ipc/contract';
import type { StageResult } from '../../../shared/ipc/attachments';
import { isEventName } from '../../../shared/ipc/events';
import { CACHE_ENTITIES } from '../../../shared/entities';
import type { Dispatch } from '../dispatch';
import { EventHub } from '../event-hub';
import { settledWithin } from '../wait-at-most';
import type { Notifier } from '../notifier';
import type { SecretStore } from '../accounts/secret-store';
import type { FirstScreen } from '../accounts/first-screen';
import { CoreMessage, readMessage, type ChildLink, type CoreStart, type HostMessage } from './messages';

export interface CoreProcessOptions {
  /** Starts one child running `runCoreChild` (Electron's utilityProcess, or Node's fork). */
  spawn(): ChildLink;
  start: Omit<CoreStart, 'secrets'>;
  /** The host's store: authoritative; the child's copy reports each change to it. */
  secrets: SecretStore;
  /**
   * The keys whose secrets the child may read (a store has no listing): the accounts' ids in the
   * settings and the local workspace's.
   */
  secretKeys(): readonly string[];
  notifier?: Notifier;
  log(message: string): void;
  /** The first wait before a child that died is started again (doubles up to 5 s). */
  restartDelayMs?: number;
  /**
   * The first-screen record (accounts/first-screen.ts), loaded before the child starts: given,
   * `startCoreProcess` resolves at once, the window's first reads are answered from it while the
   * child loads, and once it is ready every view is told to read again (`cache.onDidChange`).
   * A first start that fails then rejects `opened` instead.
   */
  firstScreen?: FirstScreen;
}

export interface CoreProcess {
  dispatch: Dispatch;
  events: EventHub;
  stageDroppedPaths(paths: readonly string[]): Promise<IpcResult<StageResult>>;
  /** Makes a received file local in the core and answers its path on disk. */
  localPath(arg: ChannelArg<'attachments.fetch'>): Promise<IpcResult<string>>;
  /** How many times the child was started again after it died. */
  readonly restarts: number;
  /** The first start: resolves once the child is ready, rejects if it could not start. */
  readonly opened: Promise<void>;
  close(): Promise<void>;
}

type Pending = (result: IpcResult<unknown>) => void;

const LIVED_LONG_MS = 30_000;

/**
 * Starts the core in a child and resolves once it is ready (rejects if the first start fails).
 * A child that dies is started again; calls made meanwhile wait for it, and calls it was
 * answering get an error saying a change may have been saved (the outbox is durable). The
 * window is told with an `app.onDidNotice`.
 */
export async function startCoreProcess(options: CoreProcessOptions): Promise<CoreProcess> {
  const events = new EventHub(options.log);
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let child: ChildLink | undefined;
  let ready: Promise<void>;
  let closing = false;
  let restarts = 0;
  let delay = options.restartDelayMs ?? 250;
  let restartTimer: ReturnType<typeof setTimeout> | undefined;

  function startMessage(): HostMessage {
    const secrets = options.secrets;
    const entries: [string, string][] = [];
    for (const key of new Set([...options.secretKeys(), ...known])) {
      const value = secrets.get(key);
      if (value !== undefined) entries.push([key, value]);
    }
    return {
      type: 'start',
      start: {
        ...options.start,
        secrets: {
          protection: secrets.protection,
          entries,
          notices: secrets.notices?.() ?? [],
        },
      },
    };
  }

  /** Keys the child set this run (an account added since the host listed them). */
  const known = new Set<string>();
  function onHostRequest(request: Extract<CoreMessage, { type: 'host' }>['request']): void {
    const secrets = options.secrets;
    switch (request.op) {
      case 'secret.set':
        known.add(request.key);
        secrets.set(request.key, request.value);
        return;
      case 'secret.delete':
        secrets.delete(request.key);
        return;
      case 'secret.remember':
        secrets.remember?.(request.on);
        return;
      case 'notify':
        options.notifier?.notify({
          title: request.title,
          body: request.body,
          ...(request.taskId ? { taskId: request.taskId } : {}),
        });
        return;
    }
  }

  function spawn(): Promise<void> {
    const link = options.spawn();
    child = link;
    const bornAt = Date.now();
    let settle: { done(): void; fail(err: Error): void } | undefined;
    const started = new Promise<void>((done, fail) => (settle = { done, fail }));
    link.onMessage((raw) => {
      const read = readMessage(CoreMessage, raw);
      if (!read.ok) {
        options.log(`core process: a message from the core was dropped (${read.error})`);
        // A bad answer still settles its call, so nothing waits for ever.
        const id = (raw as { id?: unknown } | null)?.id;
        if (typeof id === 'number') answer(id, internal(`The core answered a bad message (${read.error})`));
        return;
      }
      const message = read.message;
      switch (message.type) {
        case 'ready':
          settle?.done();
          return;
        case 'failed':
          settle?.fail(new Error(`The core could not start: ${message.message}`));
          return;
        case 'result':
          if (!answer(message.id, message.result as IpcResult<unknown>))
            options.log(`core process: an answer with id ${message.id} matches no call; dropped`);
          return;
        case 'event':
          if (!isEventName(message.name)) {
            options.log(
              `core process: an event named "${message.name.slice(0, 80)}" is not in the contract; dropped`,
            );
            return;
          }
          events.emit(message.name, message.payload as never);
          return;
        case 'host':
          onHostRequest(message.request);
          return;
      }
    });
    link.onExit((code) => {
      if (child !== link) return;
      child = undefined;
      settle?.fail(new Error(`The core's process stopped before it was ready (exit code ${code})`));
      for (const [id] of pending) answer(id, stoppedWhileAnswering());
      if (closing) return;
      if (Date.now() - bornAt > LIVED_LONG_MS) delay = options.restartDelayMs ?? 250;
      options.log(`core process: stopped (exit code ${code}); starting it again in ${delay} ms`);
      events.emit('app.onDidNotice', {
        id: `core-restart-${restarts + 1}`,
        level: 'warning',
        title: 'Workdesk’s core stopped and is starting again',
        message:
          'Changes you made are kept (they wait in the outbox). One that was being saved at that moment may need a look.',
        file: null,
        about: 'app',
      });
      restart();
    });
    link.send(startMessage());
    return started;
  }

  /** Wakes the calls waiting for a core while one is being started again. */
  let wakeWaiting: (() => void) | undefined;
  function restart(): void {
    if (!wakeWaiting) ready = new Promise<void>((done) => (wakeWaiting = done));
    restartTimer = setTimeout(() => {
      restartTimer = undefined;
      restarts++;
      spawn().then(
        () => {
          const wake = wakeWaiting;
          wakeWaiting = undefined;
          wake?.();
          // Reads the window made while the core was down were answered with an error: every
          // view reads again from the new core, and the states the window keeps are sent anew.
          events.emit('cache.onDidChange', { entities: [...CACHE_ENTITIES] });
          void resendStates();
        },
        (err: unknown) => {
          // Its exit starts another, a little later; the calls keep waiting.
          options.log(`core process: ${err instanceof Error ? err.message : String(err)}`);
          child?.kill();
        },
      );
      delay = Math.min(delay * 2, 5000);
    }, delay);
  }

  /** The states the window keeps from events, read from a new core and sent as those events. */
  async function resendStates(): Promise<void> {
    const states = [
      ['accounts.list', 'accounts.onDidChange'],
      ['sync.status', 'sync.onDidChangeStatus'],
      ['outbox.status', 'outbox.onDidChange'],
    ] as const;
    for (const [channel, event] of states) {
      const result = await request((id) => ({ type: 'call', id, channel, arg: {} }));
      if (result.ok) events.emit(event, result.value as never);
    }
  }

  function answer(id: number, result: IpcResult<unknown>): boolean {
    const settle = pending.get(id);
    if (!settle) return false;
    pending.delete(id);
    settle(result);
    return true;
  }

  async function request(make: (id: number) => HostMessage): Promise<IpcResult<unknown>> {
    await ready;
    if (closing) return { ok: false, error: { type: 'offline', message: 'Workdesk is closing' } };
    const link = child;
    if (!link) return request(make);
    const id = nextId++;
    return new Promise<IpcResult<unknown>>((settle) => {
      pending.set(id, settle);
      try {
        link.send(make(id));
      } catch (err) {
        answer(id, internal(`The call could not be sent to the core: ${String(err)}`));
      }
    });
  }

  ready = spawn();
  const opened = ready.then(() => {
    const refresh = options.firstScreen?.coreOpened();
    if (refresh) events.emit('cache.onDidChange', refresh as never);
  });
  if (options.firstScreen) {
    // Whoever holds `opened` reports a failed start; the window's calls keep waiting for a core.
    opened.catch(() => options.firstScreen?.coreOpened());
  } else {
    await opened;
  }

  return {
    // Until the child is ready, a read the record holds is answered from it, in this turn.
    dispatch(channel, arg) {
      const early = options.firstScreen?.answer(channel, arg);
      if (early) return Promise.resolve(early);
      return request((id) => ({
        type: 'call',
        id,
        channel: typeof channel === 'string' ? channel : String(channel),
        arg,
      }));
    },
    events,
    stageDroppedPaths: (paths) =>
      request((id) => ({ type: 'stage', id, paths: [...paths] })) as Promise<IpcResult<StageResult>>,
    localPath: (arg) => request((id) => ({ type: 'localPath', id, arg })) as Promise<IpcResult<string>>,
    get restarts() {
      return restarts;
    },
    opened,
    async close() {
      if (restartTimer) clearTimeout(restartTimer);
      // The window may open before the core is ready (the first screen): calls made while it
      // started wait for it, and a change among them is sent before the close, not refused
      // (those waiting go on as soon as it is ready, before this does). Not longer than a stuck
      // start's limit: a core that never gets ready is ended below.
      if (options.firstScreen) {
        await settledWithin(ready, 10_000);
      }
      const link = child;
      if (!link) {
        closing = true;
        // Calls waiting for a core that will not come are answered (offline).
        wakeWaiting?.();
        return;
      }
      const closed = new Promise<void>((done) => link.onExit(() => done()));
      const id = nextId++;
      const answered = new Promise<void>((done) => pending.set(id, () => done()));
      closing = true;
      link.send({ type: 'close', id });
      // The child closes its session (cache, outbox, local service) and leaves; a child that
      // does not leave within 10 s is ended.
      const timer = setTimeout(() => link.kill(), 10_000);
      await Promise.race([answered, closed]);
      await closed;
      clearTimeout(timer);
    },
  };
}

function internal(message: string): IpcResult<never> {
  return { ok: false, error: { type: 'internal', message } };
}

function stoppedWhileAnswering(): IpcResult<never> {
  return {
    ok: false,
    error: {
      type: 'offline',
      message:
        'Workdesk’s core stopped while answering and is starting again: try again in a moment (a change made just then may already be saved)',
    },
  };
}
