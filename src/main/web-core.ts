// The web host's core on a thread of its own: src/main/web.ts starts it (a `worker_threads`
// worker running src/main/web-core-worker.ts) as soon as its port listens, so the core's code is
// compiled and run, and the account's cache opened, while the host prints its address and serves
// the page, and while the browser evaluates the page's script: on two free cores the two loads
// overlap instead of taking turns on one thread. The page's calls wait for the core's account to
// be open (`opened`), then cross to the worker and back; its events come back the same way.
//
// This module is loaded before the address is printed: it imports no schema (zod) and none of the
// core's code, only types and the event fan-out.
import { Worker } from 'node:worker_threads';
import type { IpcResult } from '../shared/ipc/channel';
import type { EventName } from '../shared/ipc/events';
import { EventHub } from './core/event-hub';
import type { CoreFacade } from './core/web-host';

/** What the worker needs to open the host's session (its `workerData`). */
export interface WebCoreStart {
  dataDir: string;
  version: string;
}

/** Host → worker. */
export type ToWebCore =
  | { type: 'call'; id: number; channel: unknown; arg: unknown }
  /** The page has its files: read its first views ahead (see `Session.readAhead`). */
  | { type: 'readAhead' }
  | { type: 'close' };

/** Worker → host. */
export type FromWebCore =
  | { type: 'ready' }
  | { type: 'failed'; message: string }
  | { type: 'result'; id: number; result: IpcResult<unknown> }
  | { type: 'event'; name: string; payload: unknown }
  | { type: 'closed' };

export interface WebCore {
  /** The core once its account is open; rejects with the reason it could not open. */
  opened: Promise<CoreFacade>;
  /** Reads the page's first views ahead, once the account is open. */
  readAhead(): void;
  /** Closes the account (its cache is marked closed cleanly) and ends the worker. */
  close(): Promise<void>;
}

export interface WebCoreOptions extends WebCoreStart {
  /**
   * Told once if the worker stops other than by `close` (an uncaught error in the core) after
   * it opened: the host cannot go on without it, as it could not when the core ran on its thread.
   */
  onStopped(reason: string): void;
  log(message: string): void;
}

/**
 * The worker's entry: the bundle's `web-core-worker.mjs` beside `web.mjs`, or, when the host runs
 * from its TypeScript source (through tsx), `web-core-worker.ts` with tsx registered in the worker
 * first (a worker does not take the parent's `--import tsx` for its own entry under Node 20).
 */
function workerOf(start: WebCoreStart): Worker {
  const fromSource = import.meta.url.endsWith('.ts');
  const entry = new URL(fromSource ? './web-core-worker.ts' : './web-core-worker.mjs', import.meta.url);
  if (!fromSource) return new Worker(entry, { workerData: start });
  const tsx = import.meta.resolve('tsx/esm/api');
  const boot = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); })`;
  return new Worker(boot, { eval: true, workerData: start });
}

export function startWebCore(options: WebCoreOptions): WebCore {
  const { dataDir, version } = options;
  const worker = workerOf({ dataDir, version });
  const events = new EventHub(options.log);
  const pending = new Map<number, (result: IpcResult<unknown>) => void>();
  let nextId = 1;
  let state: 'opening' | 'open' | 'closing' | 'stopped' = 'opening';
  let closed: (() => void) | undefined;

  let settle: { done(core: CoreFacade): void; fail(err: Error): void } | undefined;
  /** The workspace reached 'ready' (a close after it is a close, not a failed open). */
  let isOpen = false;
  /** The promise of the close asked for, if any. */
  let closing: Promise<void> | undefined;
  const opened = new Promise<CoreFacade>((done, fail) => (settle = { done, fail }));
  // Whoever awaits `opened` reports a failure; this keeps an unawaited rejection quiet.
  opened.catch(() => undefined);

  const facade: CoreFacade = {
    events,
    dispatch(channel, arg) {
      if (state !== 'open')
        return Promise.resolve({
          ok: false,
          error: {
            type: 'internal',
            message: 'The workspace is not open (it is closing, or its core stopped)',
          },
        });
      const id = nextId++;
      return new Promise((resolve) => {
        pending.set(id, resolve);
        worker.postMessage({ type: 'call', id, channel, arg } satisfies ToWebCore);
      });
    },
  };

  /** The worker is gone: every call it had is answered, and the host is told. */
  function stopped(reason: string): void {
    const was = state;
    state = 'stopped';
    for (const answer of pending.values())
      answer({ ok: false, error: { type: 'internal', message: `The core stopped: ${reason}` } });
    pending.clear();
    // Closed while it opened, and the open then failed: whoever waits for it is told too.
    if (was === 'opening' || (was === 'closing' && !isOpen)) settle?.fail(new Error(reason));
    else if (was === 'open') options.onStopped(reason);
    // (Closing: the close asked for it, and `closed` tells whoever asked.)
    closed?.();
  }

  worker.on('message', (message: FromWebCore) => {
    switch (message.type) {
      case 'ready':
        // A close asked for while it opened stays asked for.
        if (state === 'opening') state = 'open';
        isOpen = true;
        settle?.done(facade);
        return;
      case 'failed':
        stopped(message.message);
        void worker.terminate();
        return;
      case 'result':
        pending.get(message.id)?.(message.result);
        pending.delete(message.id);
        return;
      case 'event':
        // Emitted by the core's own event hub on the other side: a name it declares.
        events.emit(message.name as EventName, message.payload as never);
        return;
      case 'closed':
        stopped('the workspace was closed');
        void worker.terminate();
        return;
    }
  });
  worker.on('error', (err) => stopped(err.stack ?? err.message));
  worker.on('exit', (code) => {
    if (state !== 'stopped') stopped(`its thread ended (exit code ${code})`);
  });

  return {
    opened,
    readAhead: () => worker.postMessage({ type: 'readAhead' } satisfies ToWebCore),
    close() {
      if (state === 'stopped') return Promise.resolve();
      // Asked again while it closes: the same promise.
      if (closing) return closing;
      const done = new Promise<void>((resolve) => (closed = resolve));
      closing = done;
      // Opening or open: the worker closes the session once it has it (or finds it failed).
      state = 'closing';
      worker.postMessage({ type: 'close' } satisfies ToWebCore);
      return done;
    },
  };
}
