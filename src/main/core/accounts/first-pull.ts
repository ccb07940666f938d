import type { Sync } from '../sync/sync';

/** How long the window's reads must have paused before the first pull starts. */
export const FIRST_PULL_QUIET_MS = 300;
/** The latest the first pull starts after the account opens, whether a window read or not. */
export const FIRST_PULL_LATEST_MS = 3_000;

/** The first pull of an account just opened, waiting for the window's first views. */
export interface FirstPull {
  /**
   * A read from a window was just answered (on `channel`): the pull waits until they pause.
   * `app.info` does not count: a window asks it before anything else and draws its first view
   * only after, so the pause after it is the window loading, not its views read.
   */
  read(channel?: string): void;
  /** The account closes: the pull is not started. */
  cancel(): void;
}

/**
 * Starts the first pull of an account whose cache was synced before only once the window's
 * start-up reads have paused (`quietMs` after the last answer; its first views are shown from
 * the cache by then), or `latestMs` after opening at the latest: the pull's downloads and
 * writes then never stand between the user and the first rows. A cache never synced has
 * nothing to show: its pull starts at once. `sync.start` runs a pull once however often called.
 */
export function scheduleFirstPull(
  sync: Pick<Sync, 'start' | 'status'>,
  { quietMs = FIRST_PULL_QUIET_MS, latestMs = FIRST_PULL_LATEST_MS } = {},
): FirstPull {
  let quiet: ReturnType<typeof setTimeout> | undefined;
  let latest: ReturnType<typeof setTimeout> | undefined;
  let done = false;
  const stop = (): void => {
    done = true;
    clearTimeout(quiet);
    clearTimeout(latest);
  };
  const start = (): void => {
    if (done) return;
    stop();
    sync.start();
  };
  if (sync.status().lastSyncedAt === null) start();
  else latest = setTimeout(start, latestMs);
  return {
    read(channel) {
      if (done || channel === 'app.info') return;
      clearTimeout(quiet);
      quiet = setTimeout(start, quietMs);
    },
    cancel: stop,
  };
}
