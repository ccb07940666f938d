import { InitialSyncProgress, type SyncPhase, type SyncStatus } from '../../../shared/ipc/sync';
import { AbortedError, UnauthorizedError, isOffline } from '../api/errors';
import { createGate, stamp, type Gate, type Progress, type SyncDeps } from './context';
import { turnSpent } from '../loop-turns';
import { createWarmUp, type WarmUpOptions } from './warm-up';
import { createOnDemand, type OnDemand } from './on-demand';
import { DEFAULT_EVENT_WINDOW, pull, type EventWindow, type PullPart } from './pull';
import { createDocumentIndexer, documentReads, type DocumentIndexReport } from './document-index';
import { createReadProblems } from './read-problems';
import { DEFAULT_RETRY } from './retry';
import { Listeners } from '../listeners';
import { customFieldEndpoints } from '../../../shared/api/custom-fields';

export interface SyncOptions extends Omit<SyncDeps, 'retry'> {
  retry?: SyncDeps['retry'];
  /** Requests in flight at once (default 6). */
  concurrency?: number;
  /** Time between scheduled pulls while online (default 5 minutes). */
  intervalMs?: number;
  /** Time between reachability probes while offline (default 15 seconds). */
  probeIntervalMs?: number;
  eventWindow?: EventWindow;
  /** The parts of a full pull: every resource's (`PULL_PARTS` of `core/entities`). */
  pullParts: readonly PullPart[];
  /**
   * The first run's warm-up of the list reader (`warm-up.ts`): false leaves it out; its hooks are
   * told when it begins and how many sample elements it read.
   */
  warmUp?: false | Pick<WarmUpOptions, 'elements' | 'onBegin' | 'onEnd'>;
}

export interface Sync {
  status(): SyncStatus;
  /** Listens to status changes; returns the unsubscribe. */
  onStatus(listener: (status: SyncStatus) => void): () => void;
  /** Starts a pull, or joins the running one; resolves with the status after it ends. */
  now(): Promise<SyncStatus>;
  /** Pull now, then on the interval, and on reconnect. */
  start(): void;
  /** Cancels the running pull (it ends with lastError "cancelled"). */
  cancel(): void;
  /** The shell learned the network is back: probe at once. */
  notifyOnline(): void;
  /**
   * A request outside sync (the outbox's send) failed for a network reason: the status says
   * Offline at once and probes begin, rather than after the next scheduled pull.
   */
  notifyOffline(err: unknown): void;
  /** Fetches of what a view opens. Offline errors also mark the status offline. */
  onDemand: OnDemand;
  /** Emits the status again: what the outbox reports in it (pending, token needed) changed. */
  refresh(): void;
  /**
   * Fetches the text of documents the last pull listed without it, for the search (run after
   * each successful pull); resolves when done, joining a run already going.
   */
  indexDocuments(): Promise<DocumentIndexReport>;
  stop(): Promise<void>;
}

/**
 * The sync schedule and status around `pull`: one run at a time, cancellable, progress events,
 * a timer while online, probes while offline and a pull as soon as a probe succeeds.
 */
export function createSync(options: SyncOptions): Sync {
  const problems =
    options.problems ?? createReadProblems({ cache: options.cache, clock: options.clock, log: options.log });
  const deps: SyncDeps = { ...options, retry: options.retry ?? DEFAULT_RETRY, problems };
  const concurrency = options.concurrency ?? 6;
  const intervalMs = options.intervalMs ?? 5 * 60_000;
  const probeIntervalMs = options.probeIntervalMs ?? 15_000;
  const listeners = new Listeners<[status: SyncStatus]>('sync', options.log);
  let state: Omit<SyncStatus, 'pendingCount' | 'tokenNeeded' | 'readProblems'> = {
    probing: false,
    nextProbeAt: null,
    online: true,
    running: false,
    phase: 'idle',
    done: 0,
    total: 0,
    lastSyncedAt: deps.cache.syncState.get('pull')?.fetchedAt ?? null,
    lastError: null,
  };
  let current: { controller: AbortController; promise: Promise<SyncStatus> } | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let started = false;
  let stopped = false;
  let lastProgressEmit = 0;
  /** The list reader is warmed on this sync's first run only (`warm-up.ts`). */
  let warmed = options.warmUp === false;

  // The last request of sync itself was refused for the token (cleared by any success).
  let refused = false;
  const status = (): SyncStatus => ({
    ...state,
    pendingCount: options.pending.pendingCount?.() ?? 0,
    tokenNeeded: refused || (options.pending.tokenNeeded?.() ?? false),
    readProblems: problems.list(),
  });
  const emit = (): void => {
    listeners.emit(status());
  };
  const update = (patch: Partial<typeof state>): void => {
    state = { ...state, ...patch };
    emit();
  };
  // Every list the client reads (the pull's, a view's on-demand fetch, the outbox's look-ups)
  // records or clears its read problems; the status carries them.
  const offListReads = deps.client.onListRead?.((read) => problems.listRead(read));
  const offProblems = problems.onChange(emit);

  function markOffline(err: unknown): void {
    if (isOffline(err) && state.online) {
      update({ online: false });
      schedule();
    }
  }

  function schedule(): void {
    if (timer) clearTimeout(timer);
    timer = null;
    if (!started || stopped) return;
    timer = setTimeout(
      () => void (state.online ? run() : probe()),
      state.online ? intervalMs : probeIntervalMs,
    );
    timer.unref?.();
    const nextProbeAt = state.online ? null : stamp(new Date(deps.clock().getTime() + probeIntervalMs));
    if (nextProbeAt !== state.nextProbeAt) update({ nextProbeAt });
  }

  async function probe(): Promise<void> {
    update({ probing: true, nextProbeAt: null });
    try {
      await deps.client.call(customFieldEndpoints.customFields);
      // Stopped meanwhile (the account closed): its status is no one's now.
      if (stopped) return;
      refused = false;
      update({ online: true, probing: false });
      await run();
    } catch (err) {
      if (err instanceof UnauthorizedError) {
        refused = true;
        update({ online: true, lastError: 'unauthorized: the token was refused' });
      }
      if (stopped) return;
      update({ probing: false });
      schedule();
    }
  }

  function run(): Promise<SyncStatus> {
    if (current) return current.promise;
    const controller = new AbortController();
    const progress: Progress = {
      phase(phase: SyncPhase) {
        update({ phase });
      },
      add(n) {
        state.total += n;
      },
      done() {
        state.done++;
        const t = deps.clock().getTime();
        if (t - lastProgressEmit >= 100 || state.done === state.total) {
          lastProgressEmit = t;
          emit();
        }
      },
      initial(patch) {
        // Checked as the schema says (counts whole, done within total): a wrong count is a bug
        // here, and is thrown where it is made rather than shown.
        update({
          initialSync: InitialSyncProgress.parse({
            ...(state.initialSync ?? {
              treeReady: false,
              myWorkReady: false,
              projectsDone: 0,
              projectsTotal: 0,
            }),
            ...patch,
          }),
        });
      },
    };
    update({ running: true, phase: 'org', done: 0, total: 0 });
    // What this pull stores is recorded for the Updates view (cache `updates`), until it ends.
    deps.cache.updates.capture(deps.clock().getTime());
    const gate = warmingGate(createGate(deps, concurrency, controller.signal, progress), controller.signal);
    const promise = pull(
      deps,
      gate,
      progress,
      controller,
      options.pullParts,
      options.eventWindow ?? DEFAULT_EVENT_WINDOW,
      concurrency * 3,
    )
      .then(
        () => {
          refused = false;
          update({ online: true, lastSyncedAt: stamp(deps.clock()), lastError: null });
          void documentIndex.run();
        },
        (thrown: unknown) => {
          // The first failure aborts the run with itself as the reason; later ones are echoes.
          const reason: unknown = controller.signal.reason;
          const err =
            controller.signal.aborted && reason instanceof Error && reason.name !== 'AbortError'
              ? reason
              : thrown;
          controller.abort(err);
          const message =
            err instanceof AbortedError
              ? 'cancelled'
              : err instanceof UnauthorizedError
                ? 'unauthorized: the token was refused'
                : err instanceof Error
                  ? err.message
                  : String(err);
          if (err instanceof UnauthorizedError) refused = true;
          deps.log(`sync failed: ${message}`);
          if (isOffline(err)) state.online = false;
          update({ lastError: message });
        },
      )
      .then(() => {
        deps.cache.updates.stop();
        current = null;
        problems.flush();
        update({ running: false, phase: 'idle', initialSync: undefined });
        schedule();
        return status();
      });
    current = { controller, promise };
    return promise;
  }

  /**
   * `gate` as the first run uses it: the list reader is warmed while the first answers are
   * awaited (`warm-up.ts`), from the moment the first request is handed to the client until the
   * first answer is in. Later runs use the gate as it is.
   */
  function warmingGate(gate: Gate, signal: AbortSignal): Gate {
    if (warmed) return gate;
    warmed = true;
    const warmUp = createWarmUp({
      signal,
      busy: turnSpent,
      ...(options.warmUp ? options.warmUp : {}),
    });
    return (call, counted) =>
      gate((s) => {
        // Begun after this turn's I/O: the request is on its way first.
        warmUp.begin();
        return call(s).finally(warmUp.stop);
      }, counted);
  }

  const onDemandGate = createGate(
    deps,
    Math.max(2, Math.ceil(concurrency / 2)),
    new AbortController().signal,
    {
      phase() {},
      add() {},
      done() {},
    },
    // What the user opened is sent at once, not after the turns of a sync's queued work.
    { waitsTurn: false },
  );
  const raw = createOnDemand(deps, onDemandGate);
  // Each on-demand read that fails for a network reason also flips the status to offline; one
  // that succeeds while offline brings it back online and starts a pull.
  const onDemand: OnDemand = {
    async run(read) {
      try {
        const result = await raw.run(read);
        if (!state.online) {
          update({ online: true });
          void run();
        }
        return result;
      } catch (err) {
        markOffline(err);
        throw err;
      }
    },
  };
  const documentIndex = createDocumentIndexer(deps, (id) => onDemand.run(documentReads.document(id)));

  return {
    status,
    onStatus: (listener) => listeners.add(listener),
    now: run,
    start() {
      if (started) return;
      started = true;
      void run();
    },
    cancel() {
      current?.controller.abort();
    },
    notifyOnline() {
      if (!state.online && !current) void probe();
    },
    notifyOffline(err) {
      markOffline(err);
    },
    onDemand,
    refresh: emit,
    indexDocuments: () => documentIndex.run(),
    async stop() {
      stopped = true;
      offListReads?.();
      offProblems();
      problems.flush();
      if (timer) clearTimeout(timer);
      const running = current;
      running?.controller.abort();
      await running?.promise;
      await documentIndex.stop();
    },
  };
}
