// The core's side of the first-screen record (see first-screen.ts): read the window's first
// reads from the account's cache just before it is closed, and write them with the identity of
// the cache file as closed, once it is.
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { IpcResult } from '../../../shared/ipc/channel';
import { CACHE_ENTITIES } from '../../../shared/entities';
import { closedStampOf } from '../cache/recovery';
import {
  FIRST_SCREEN_FILE,
  FIRST_SCREEN_FORMAT,
  type FirstScreenAnswer,
  type FirstScreenRecord,
} from './first-screen';
import { FIRST_READS, READS } from './read-ahead';

/** The calls a window makes first: `app.info` (it waits for nothing else) and its first views. */
export const FIRST_SCREEN_CALLS: readonly (readonly [channel: string, arg: Record<string, unknown>])[] = [
  ['app.info', {}],
  ...FIRST_READS,
];

/** Reads `FIRST_SCREEN_CALLS` through the account's core; a call that fails is left out. */
export async function readFirstScreen(
  dispatch: (channel: string, arg: unknown) => Promise<IpcResult<unknown>>,
): Promise<FirstScreenAnswer[]> {
  const answers: FirstScreenAnswer[] = [];
  for (const [channel, arg] of FIRST_SCREEN_CALLS) {
    const result = await dispatch(channel, arg);
    if (result.ok) answers.push({ channel, arg: { ...arg }, value: result.value });
  }
  return answers;
}

/**
 * Removes the data folder's record: called before the cache is closed, so a close that fails
 * (or a crash) never leaves a record of an earlier state.
 */
export function forgetFirstScreen(dataDir: string): void {
  rmSync(join(dataDir, FIRST_SCREEN_FILE), { force: true });
}

export interface WriteFirstScreenArgs {
  dataDir: string;
  version: string;
  accountId: string;
  /** The account's cache file, closed by now. */
  cacheFile: string;
  answers: FirstScreenAnswer[];
  now?: Date;
}

/**
 * Writes the record (a temporary file renamed over it) once the cache file is closed: its
 * identity is the stamp the close left beside it (`stampClosed`). A cache closed with its log
 * still beside it has no stamp, and gets no record. Answers whether one was written.
 */
export function writeFirstScreen(args: WriteFirstScreenArgs): boolean {
  const stamp = closedStampOf(args.cacheFile);
  if (!existsSync(stamp)) return false;
  const record: FirstScreenRecord = {
    format: FIRST_SCREEN_FORMAT,
    appVersion: args.version,
    accountId: args.accountId,
    cacheFile: relative(args.dataDir, args.cacheFile),
    cacheIdentity: readFileSync(stamp, 'utf8'),
    writtenAt: (args.now ?? new Date()).toISOString(),
    answers: args.answers,
    reads: [...READS],
    refresh: { entities: [...CACHE_ENTITIES] },
  };
  const file = join(args.dataDir, FIRST_SCREEN_FILE);
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(record), { mode: 0o600 });
  renameSync(temporary, file);
  return true;
}
