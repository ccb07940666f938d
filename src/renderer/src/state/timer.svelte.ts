// The running timer as the views see it (status bar, a task's Time section, the palette, the T
// key) and the stop confirm. The timer itself lives in the core (per account, in its cache), so
// a reload or a restart finds it running; here it is read back, and followed through the core's
// `time.onDidChangeTimer` (any window) and the real id a task created offline gets.
import type { TimerView } from '@shared/ipc/time';
import type { ChannelInput } from '@shared/ipc/contract';
import type { Bridge } from '../lib/bridge';
import { onCacheBurst } from '../lib/cache-events';
import { describeError } from '../lib/errors';
import { formatDuration } from '../lib/duration';
import { createRunWrite, type RunWrite, type WriteOutcome } from '../lib/run-write';
import { toasts } from '../lib/toasts.svelte';

/** A task a timer may be started on. */
export interface TimerTarget {
  taskId: string;
  taskName: string;
}

/** The stop confirm, when open: the run it stops, and the task to start on after it (a switch). */
export interface TimerConfirm {
  startedAt: number;
  then?: TimerTarget | undefined;
}

/** What the stop confirm logs (the run is the confirm's). */
export type TimerReport = Omit<ChannelInput<'time.timerStop'>, 'startedAt'>;

export class TimerState {
  #timer = $state.raw<TimerView | null>(null);
  #error = $state<string | undefined>();
  #confirm = $state.raw<TimerConfirm | undefined>();
  #seq = 0;
  readonly #bridge: Bridge;
  readonly #runWrite: RunWrite;

  constructor(bridge: Bridge) {
    this.#bridge = bridge;
    this.#runWrite = createRunWrite(bridge, toasts);
  }

  /** The running timer, or null. */
  get timer(): TimerView | null {
    return this.#timer;
  }
  get error(): string | undefined {
    return this.#error;
  }
  /** The stop confirm while it is open for the running timer. */
  get confirm(): TimerConfirm | undefined {
    const confirm = this.#confirm;
    return confirm && confirm.startedAt === this.#timer?.startedAt ? confirm : undefined;
  }

  /** Reads the timer and follows it; returns the unsubscribe. */
  start(): () => void {
    void this.load();
    const stops = [
      this.#bridge.on('time.onDidChangeTimer', ({ timer }) => this.#set(timer)),
      // A task created offline got its real id: the core moved the timer with it.
      this.#bridge.on('outbox.onDidRemapId', ({ tempId }) => {
        if (this.#timer?.taskId === tempId) void this.load();
      }),
      // The task was renamed, moved or removed.
      onCacheBurst(this.#bridge, ['tasks', 'projects'], 150, () => {
        if (this.#timer) void this.load();
      }),
      // A timer started or stopped (in another window) while the connection to the core was
      // lost was missed.
      this.#bridge.onConnection((connected) => {
        if (connected) void this.load();
      }),
    ];
    return () => stops.forEach((stop) => stop());
  }

  async load(): Promise<void> {
    const seq = ++this.#seq;
    try {
      const timer = await this.#bridge.invoke('time.timer', {});
      if (seq !== this.#seq) return;
      this.#timer = timer;
      this.#error = undefined;
    } catch (err) {
      if (seq === this.#seq) this.#error = describeError(err);
    }
  }

  #set(timer: TimerView | null): void {
    // An answer read before this change must not put the old timer back.
    this.#seq++;
    this.#timer = timer;
  }

  /** Whether the timer runs on this task. */
  runsOn(taskId: string): boolean {
    return this.#timer?.taskId === taskId;
  }

  /**
   * The one action of T, the palette and a task's Start button: starts the timer on the task;
   * on the task it runs on, asks to stop it; running on another task, asks to stop that one
   * (logging it as a stop does, or discarding it) and then starts on this one.
   */
  async toggle(target: TimerTarget): Promise<void> {
    const running = this.#timer;
    if (running?.taskId === target.taskId) this.askStop();
    else if (running) this.#confirm = { startedAt: running.startedAt, then: target };
    else await this.startOn(target);
  }

  async startOn(target: TimerTarget): Promise<boolean> {
    const outcome = await this.#runWrite(
      'time.timerStart',
      { taskId: target.taskId },
      { failure: `Could not start the timer on '${target.taskName}'` },
    );
    if (outcome.ok) this.#set(outcome.value);
    return outcome.ok;
  }

  /** Opens the stop confirm for the running timer. */
  askStop(): void {
    if (this.#timer) this.#confirm = { startedAt: this.#timer.startedAt };
  }
  closeConfirm(): void {
    this.#confirm = undefined;
  }

  /**
   * Logs the run the confirm is open for (through the outbox, offline too) and, for a switch,
   * starts on the next task. A refusal is answered for the confirm to show at its field.
   */
  async stop(report: TimerReport): Promise<WriteOutcome<unknown>> {
    const confirm = this.confirm;
    const running = this.#timer;
    if (!confirm || !running) return { ok: false, error: new Error('No timer is running') };
    const outcome = await this.#runWrite(
      'time.timerStop',
      { startedAt: confirm.startedAt, ...report },
      { success: `Logged ${formatDuration(report.minutes)} on '${running.taskName}'` },
    );
    if (outcome.ok) await this.#after(confirm);
    return outcome;
  }

  /** Stops the run the confirm is open for and logs nothing (then starts on the next task, for a switch). */
  async discard(): Promise<void> {
    const confirm = this.confirm;
    if (!confirm) return;
    const outcome = await this.#runWrite(
      'time.timerDiscard',
      { startedAt: confirm.startedAt },
      { failure: 'Could not discard the timer' },
    );
    if (outcome.ok) await this.#after(confirm);
  }

  async #after(confirm: TimerConfirm): Promise<void> {
    this.#confirm = undefined;
    this.#set(null);
    if (confirm.then) await this.startOn(confirm.then);
  }

  /** Changes the running timer's note (kept with it, offered again when it is stopped). */
  async setNote(note: string): Promise<void> {
    const running = this.#timer;
    if (!running || running.note === note) return;
    const outcome = await this.#runWrite(
      'time.timerUpdate',
      { startedAt: running.startedAt, note },
      { failure: "Could not keep the timer's note" },
    );
    if (outcome.ok) this.#set(outcome.value);
  }
}
