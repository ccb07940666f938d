// Notices when a task becomes action-required for the acting user: after the first read (which
// only sets what is already known), every task that newly appears in the acting user's Action
// required list raises a toast. The shell raises the system notification from the core. After a
// switch of account the new account's list is a baseline again, not news.
import type { Bridge } from '../lib/bridge';
import { bridge } from '../lib/bridge';
import { onCacheChange } from '../lib/cache-events';
import { toasts } from '../lib/toasts.svelte';
import { focusPlace } from '../lib/focus-place';
import { oneAtATime } from '../lib/one-at-a-time';
import { nav, settings } from './app';

/** The most tasks compared per read; a user with more waiting is told about the newest. */
const WATCH_LIMIT = 500;

/** Tasks in `next` that were not in `known`. */
export function newlyRequired<T extends { id: string }>(known: ReadonlySet<string>, next: readonly T[]): T[] {
  return next.filter((task) => !known.has(task.id));
}

export class ActionRequiredWatch {
  #known: Set<string> | undefined;
  /** The account whose tasks `#known` holds. */
  #knownFor: string | null | undefined;
  /** The active account the last accounts event named (undefined before the first). */
  #announced: string | null | undefined;
  /** Counts account changes: a read begun before one is dropped, its rows may be either account's. */
  #accountChanges = 0;
  readonly #bridge: Bridge;

  readonly #open: (taskId: string) => void;
  readonly #showAll: () => void;

  /** `open` shows a task and `showAll` the Action required list: where a notice's button leads. */
  constructor(bridgeToUse: Bridge, lead: { open: (taskId: string) => void; showAll: () => void }) {
    this.#bridge = bridgeToUse;
    this.#open = lead.open;
    this.#showAll = lead.showAll;
  }

  /** Reads now and after every task change; returns the unsubscribe. */
  start(): () => void {
    this.#known = undefined;
    void this.#read();
    const offTasks = onCacheChange(this.#bridge, ['tasks'], () => void this.#read());
    const offAccounts = this.#bridge.on('accounts.onDidChange', (state) => {
      this.#accountChanges += 1;
      // A switch lists the new account before its core answers: a read between the two saw the
      // new id with the old account's tasks, so what is known is dropped at the switch itself.
      if (state.activeId !== this.#announced) this.#known = undefined;
      this.#announced = state.activeId;
      void this.#read();
    });
    return () => {
      offTasks();
      offAccounts();
    };
  }

  // Cache events come in bursts during a sync: one read at a time, and one more after it.
  readonly #read = oneAtATime(() => this.#readOnce());

  async #readOnce(): Promise<void> {
    const accountChanges = this.#accountChanges;
    let rows;
    let firstSyncDone;
    let account;
    try {
      // Until the account's first sync completes, the cache is still filling: what arrives then
      // is the baseline, not news (a first sync would otherwise announce every waiting task).
      firstSyncDone = (await this.#bridge.invoke('sync.status', {})).lastSyncedAt !== null;
      // A host without accounts (a single core) does not answer this: its one account is null.
      account = await this.#bridge.invoke('accounts.list', {}).then(
        (state) => state.activeId,
        () => null,
      );
      // Ids and names only: this runs at the window's start, as the first view draws, and after
      // every burst of task changes, and whole rows were 300 KB a read.
      rows = await this.#bridge.invoke('tasks.myWorkNames', {
        kind: 'actionRequired',
        limit: WATCH_LIMIT,
        sort: { by: 'recentActivityMoment', dir: 'desc' },
      });
    } catch {
      // The Action required list shows the read error; a notice is not worth a second one.
      return;
    }
    // The account changed while this read ran: the read after the change sets the baseline.
    if (accountChanges !== this.#accountChanges) return;
    // Another account's tasks are not news: its list is the baseline.
    if (account !== this.#knownFor) this.#known = undefined;
    // The user may have turned these toasts off (Settings, Notices).
    const wanted = settings.preferences?.notifications.actionRequired.toast ?? true;
    if (this.#known && firstSyncDone && wanted) {
      const fresh = newlyRequired(this.#known, rows);
      for (const task of fresh.slice(0, 3))
        toasts.show(`Your action is required: “${task.name}”`, 'info', 8000, {
          label: 'Open',
          run: () => this.#open(task.id),
        });
      if (fresh.length > 3)
        toasts.show(`${fresh.length - 3} more tasks need your action`, 'info', 8000, {
          label: 'Show',
          run: () => this.#showAll(),
        });
    }
    this.#known = new Set(rows.map((task) => task.id));
    this.#knownFor = account;
  }
}

export const actionRequiredWatch = new ActionRequiredWatch(bridge, {
  // The toast's button goes with the toast: the focus goes into the task it opens.
  open: (taskId) => {
    nav.openTask(taskId);
    void focusPlace();
  },
  showAll: () => {
    nav.go({ kind: 'mywork', tab: 'action' });
    void focusPlace();
  },
});
