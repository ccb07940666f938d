// Local changes on their way to the service: the counts for the status bar, and the pending,
// failed, stuck (needing attention) and conflicting changes for the Changes view. Fed by `outbox.onDidChange`.
import type { ConflictView, EditableFields, OutboxEntryView, OutboxStatus } from '@shared/ipc/outbox';
import type { ChannelInput } from '@shared/ipc/contract';
import type { Bridge } from '../lib/bridge';
import { BridgeError } from '../lib/bridge';
import { ListReadError } from '../lib/list-read-error.svelte';
import { createRunWrite, type RunWrite } from '../lib/run-write';
import { toasts } from '../lib/toasts.svelte';

/** The actions on a queued change; each answers the outbox's new status. */
type OutboxAction =
  'outbox.retry' | 'outbox.discard' | 'outbox.tryAgain' | 'outbox.reload' | 'conflicts.resolve';

export class OutboxState {
  #status = $state<OutboxStatus | undefined>();
  #pending = $state.raw<OutboxEntryView[]>([]);
  #failed = $state.raw<OutboxEntryView[]>([]);
  #stuck = $state.raw<OutboxEntryView[]>([]);
  #conflicts = $state.raw<ConflictView[]>([]);
  #available = $state(true);
  readonly #readError = new ListReadError();
  #listsWanted = 0;
  /** Whether the lists were read since a view began to show them (what a failed read keeps). */
  #listsRead = false;
  /** Conflicts told already (a toast each); bookkeeping only, nothing renders from it. */
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  readonly #told = new Set<number>();
  #conflictsRead = false;
  /** Told each conflict recorded since the app started, once, as soon as the core reports it. */
  onNewConflict: ((conflict: ConflictView) => void) | undefined;
  readonly #bridge: Bridge;
  /** Writes go on the write path through the same bridge. */
  readonly #runWrite: RunWrite;

  constructor(bridge: Bridge) {
    this.#bridge = bridge;
    this.#runWrite = createRunWrite(bridge, toasts);
  }

  get status(): OutboxStatus | undefined {
    return this.#status;
  }
  get available(): boolean {
    return this.#available;
  }
  get pending(): readonly OutboxEntryView[] {
    return this.#pending;
  }
  get failed(): readonly OutboxEntryView[] {
    return this.#failed;
  }
  /** Applied by the service, their answer never stored here: they wait for the user. */
  get stuck(): readonly OutboxEntryView[] {
    return this.#stuck;
  }
  get conflicts(): readonly ConflictView[] {
    return this.#conflicts;
  }
  /** The error in place of the Changes view's lists: their first read for it failed. */
  get error(): string | undefined {
    return this.#readError.shown;
  }
  /**
   * Reading the lists again failed (the core lost for a moment, a refresh that failed): the
   * lists last read stay on screen with this note above them.
   */
  get keptError(): string | undefined {
    return this.#readError.kept;
  }

  start(): () => void {
    const off = this.#bridge.on('outbox.onDidChange', (status) => {
      const before = this.#status?.conflicts;
      this.#status = status;
      if (this.#listsWanted) void this.loadLists();
      // A conflict shows the moment it is recorded: in Changes, on its item, and in a toast.
      else if (status.conflicts !== before) void this.loadConflicts();
    });
    // The outbox's changes sent while the connection to the core was lost were missed.
    const offConnection = this.#bridge.onConnection((connected) => {
      if (connected) void this.#loadStatus();
    });
    void this.#loadStatus();
    return () => {
      off();
      offConnection();
    };
  }

  /** Reads the status, then the lists a view shows (or the conflicts alone). */
  #loadStatus(): Promise<void> {
    return this.#bridge
      .invoke('outbox.status', {})
      .then((status) => {
        this.#status = status;
        void (this.#listsWanted ? this.loadLists() : this.loadConflicts());
      })
      .catch((err: unknown) => {
        if (err instanceof BridgeError && err.type === 'unknown-channel') this.#available = false;
      });
  }

  /** While a view shows the lists, they follow every change; returns the stop. */
  watchLists(): () => void {
    // Lists read for an earlier visit are not kept under a failed first read of this one.
    if (this.#listsWanted === 0) this.#listsRead = false;
    this.#listsWanted += 1;
    void this.loadLists();
    return () => {
      this.#listsWanted -= 1;
    };
  }

  async loadLists(): Promise<void> {
    try {
      const [pending, failed, stuck, conflicts] = await Promise.all([
        this.#bridge.invoke('outbox.pending', {}),
        this.#bridge.invoke('outbox.failed', {}),
        this.#bridge.invoke('outbox.stuck', {}),
        this.#bridge.invoke('conflicts.list', {}),
      ]);
      this.#pending = pending;
      this.#failed = failed;
      this.#stuck = stuck;
      this.#setConflicts(conflicts);
      this.#listsRead = true;
      this.#readError.cleared();
    } catch (err) {
      if (err instanceof BridgeError && err.type === 'unknown-channel') this.#available = false;
      else this.#readError.failed(err, this.#listsRead);
    }
  }

  /** The open conflicts alone (every view that shows one, and the toasts, read them). */
  async loadConflicts(): Promise<void> {
    try {
      this.#setConflicts(await this.#bridge.invoke('conflicts.list', {}));
    } catch (err) {
      if (err instanceof BridgeError && err.type === 'unknown-channel') this.#available = false;
    }
  }

  /** The open conflicts about one item (`entity`, its id). */
  conflictsOf(entity: string, id: string): ConflictView[] {
    return this.#conflicts.filter((c) => c.entity === entity && c.entityId === id);
  }

  #setConflicts(conflicts: ConflictView[]): void {
    this.#conflicts = conflicts;
    // Those open when the app started were told before; only new ones get a toast.
    const first = !this.#conflictsRead;
    this.#conflictsRead = true;
    for (const conflict of conflicts) {
      if (this.#told.has(conflict.id)) continue;
      this.#told.add(conflict.id);
      if (!first) this.onNewConflict?.(conflict);
    }
  }

  /** One action on a queued change: on the one write path, then the lists read again. */
  async #act<C extends OutboxAction>(channel: C, input: ChannelInput<C>, failure: string): Promise<void> {
    const outcome = await this.#runWrite(channel, input, { failure });
    if (!outcome.ok) return;
    this.#status = outcome.value;
    await this.loadLists();
  }

  retry(id: number): Promise<void> {
    return this.#act('outbox.retry', { id }, 'Could not retry the change');
  }
  discard(id: number): Promise<void> {
    return this.#act('outbox.discard', { id }, 'Could not discard the change');
  }
  /**
   * Sends a refused or waiting change (an update or a create) again with some fields corrected.
   * A correction the core refuses is answered, so the form can say why next to the field.
   */
  async correct(id: number, fields: EditableFields) {
    const outcome = await this.#runWrite('outbox.correct', { id, fields });
    if (outcome.ok) {
      this.#status = outcome.value;
      await this.loadLists();
    }
    return outcome;
  }
  tryAgain(id: number): Promise<void> {
    return this.#act('outbox.tryAgain', { id }, 'Could not try the change again');
  }
  reload(id: number): Promise<void> {
    return this.#act('outbox.reload', { id }, 'Could not reload the item from the service');
  }
  resolve(id: number, choice: 'mine' | 'theirs'): Promise<void> {
    return this.#act('conflicts.resolve', { id, choice }, 'Could not resolve the conflict');
  }
}
