import type { IpcResult } from '../../../shared/ipc/channel';
import { INBOX_FIRST_PAGE } from '../../../shared/ipc/inbox';
import { yieldToLoop } from '../loop-turns';
import { callKey, DROPS_ONE } from './call-key';

/**
 * The cache reads a window makes first, with the arguments it sends (the renderer's states at
 * start: the tree, the organisation's lists, My Work's counts, the inbox's first screen). While
 * the window loads its page (0.4-0.8 s in a browser), the host reads them ahead, so the page's
 * first calls are answered at once. A read whose arguments differ is simply read again.
 */
export const FIRST_READS: readonly (readonly [channel: string, arg: Record<string, unknown>])[] = [
  // Where the window reopens (handlers/places.ts): the view it draws first waits for it.
  ['app.lastPlace', {}],
  ['inbox.list', { first: INBOX_FIRST_PAGE }],
  ['projects.tree', { includeArchived: true }],
  ['tasks.myWork', { kind: 'actionRequired', limit: 1 }],
  ['tasks.myWork', { kind: 'assigned', limit: 1 }],
  ['org.users', {}],
  ['org.statuses', {}],
  ['org.taskTypes', {}],
  ['org.customFields', {}],
  ['org.tags', {}],
  ['updates.list', {}],
];

/**
 * Channels that change nothing a read ahead shows: the rest of a window's first calls. Any other
 * channel (a write, a mark read, an account switch) throws the reads ahead away (and ends the
 * first-screen record's answers: see first-screen.ts).
 */
export const READS: ReadonlySet<string> = new Set([
  ...FIRST_READS.map(([channel]) => channel),
  'app.info',
  'app.notices',
  'sync.status',
  'accounts.list',
  'settings.get',
  'outbox.status',
  'attachments.status',
  'attachments.limits',
  'time.timer',
  'conflicts.list',
  // The Action required watch's first read, as the first views draw.
  'tasks.myWorkNames',
  // Home's reads of the user's day (the cache's; `time.mine` of the synced weeks fetches nothing).
  'tasks.due',
  'events.list',
  'time.mine',
]);

/** How long an answer read ahead is kept for the window (it loads in well under this). */
export const READ_AHEAD_KEEP_MS = 5_000;

export interface ReadAhead {
  /**
   * The answer read ahead for this call, handed out once, or undefined: none was read, it is
   * older than `READ_AHEAD_KEEP_MS`, or the core changed something since (an event, a write).
   * Every dispatched call passes here, so that a write throws the answers away.
   */
  take(channel: unknown, arg: unknown): Promise<IpcResult<unknown>> | undefined;
  /** The core emitted an event: what was read ahead may no longer be so. */
  changed(): void;
}

/**
 * Reads `FIRST_READS` through `dispatch`, one at a time with a turn of the event loop between
 * them (the page's own files are served meanwhile), and keeps the answers for the window.
 */
export function readAhead(
  dispatch: (channel: string, arg: unknown) => Promise<IpcResult<unknown>>,
  { now = () => Date.now(), keepMs = READ_AHEAD_KEEP_MS } = {},
): ReadAhead {
  const kept = new Map<string, { answer: Promise<IpcResult<unknown>>; at: number }>();
  let stopped = false;
  const drop = (): void => {
    stopped = true;
    kept.clear();
  };
  void (async () => {
    for (const [channel, arg] of FIRST_READS) {
      // In the core's shared turns (loop-turns.ts): after the work that asked first.
      await yieldToLoop();
      if (stopped) return;
      const key = callKey(channel, arg)!;
      if (kept.has(key)) continue;
      const answer = dispatch(channel, arg);
      kept.set(key, { answer, at: now() });
      // The next read waits for this one: they would only queue on the same thread.
      await answer.catch(() => undefined);
    }
  })();
  return {
    take(channel, arg) {
      const dropsOne = typeof channel === 'string' ? DROPS_ONE.get(channel) : undefined;
      if (dropsOne !== undefined) {
        kept.delete(dropsOne);
        return undefined;
      }
      if (typeof channel !== 'string' || !READS.has(channel)) {
        drop();
        return undefined;
      }
      const key = callKey(channel, arg);
      const entry = key === undefined ? undefined : kept.get(key);
      if (!entry) return undefined;
      kept.delete(key!);
      if (now() - entry.at > keepMs) return undefined;
      // A read that failed ahead (a cache not open yet, say) is tried again for the window.
      return entry.answer.then((answer) => (answer.ok ? answer : dispatch(channel, arg)));
    },
    changed: drop,
  };
}
