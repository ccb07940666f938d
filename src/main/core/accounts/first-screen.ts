// The first-screen record: the answers to the window's first reads (the tree, My Work's counts,
// the inbox's first rows, the organisation's lists, `app.info`), written by the core when it
// closes the account's cache (first-screen-write.ts) into `first-screen.json` in the data
// folder, with the identity of the cache file as closed. At the next start the host's own thread
// (the web host's, the desktop shell's) answers the window's first reads from it while the core
// loads, as desktop apps show their last state at once, and once the core is open tells the
// window to read everything again from the core.
//
// It is served only while it is exactly what the cache holds: the same app version, the same
// active account, the cache file unchanged since the record was written (its inode, size and
// modification time: any write by SQLite or anything else changes them) and no write-ahead log
// beside it. A record missing, damaged or out of date is not served: the window waits for the
// core, as it did before, and the host's log names the file and why.
//
// Loaded before the web host prints its address: no schema (zod) and none of the core's code.
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join, normalize } from 'node:path';
import type { IpcResult } from '../../../shared/ipc/channel';
import { fileIdentity } from '../cache/file-identity';
import { callKey, DROPS_ONE } from './call-key';

/** The record's name in the data folder. */
export const FIRST_SCREEN_FILE = 'first-screen.json';

/** Bumped when the record's shape changes: a record of another format is not served. */
// 2: the window's place (`app.lastPlace`) is among the answers; the window waits for it.
export const FIRST_SCREEN_FORMAT = 2;

/** One answer the window will ask for at start, as the core gave it when it closed. */
export interface FirstScreenAnswer {
  channel: string;
  arg: Record<string, unknown>;
  value: unknown;
}

export interface FirstScreenRecord {
  format: typeof FIRST_SCREEN_FORMAT;
  /** The app version that wrote it: another version's answers may have another shape. */
  appVersion: string;
  /** The account whose cache was read (the settings' active account at the next start must match). */
  accountId: string;
  /** That account's cache file, relative to the data folder. */
  cacheFile: string;
  /** The cache file's identity once closed (`fileIdentity`): any later write changes it. */
  cacheIdentity: string;
  /** When it was written (ISO time), for the log. */
  writtenAt: string;
  answers: FirstScreenAnswer[];
  /**
   * The channels that change nothing (`READS` in read-ahead.ts): while the window sends only
   * these, the answers hold; any other call (a write, a switch) ends them.
   */
  reads: string[];
  /** The `cache.onDidChange` sent once the core is open, so every view reads from the core. */
  refresh: { entities: string[] };
}

/** The record as a host serves it until its core is open. */
export interface FirstScreen {
  /** The record's path, for the log. */
  readonly file: string;
  /**
   * The recorded answer to this call, or undefined: not recorded, the core already open, or
   * the window sent a call other than a read since (the answers may then no longer hold).
   */
  answer(channel: unknown, arg: unknown): IpcResult<unknown> | undefined;
  /**
   * The core is open: no more answers from the record. Answers the cache change to send the
   * window when any answer came from the record (its views read again, now from the core).
   */
  coreOpened(): { entities: string[] } | undefined;
}

export interface LoadFirstScreenOptions {
  dataDir: string;
  /** The running app's version. */
  version: string;
  /**
   * The host reading it: the desktop and the web host may share a data folder, and the
   * recorded `app.info` names the one that wrote it (shown in Home and Settings).
   */
  transport?: 'electron' | 'web';
  log(message: string): void;
}

/** Why a record is not served; thrown by `checkRecord`, logged by `loadFirstScreen`. */
class NotServed extends Error {}

/**
 * Reads and checks the data folder's record; undefined (the reason logged, naming the file) when
 * it is missing, damaged or no longer what the cache holds. Call it before the core opens the
 * cache (opening it may write to it).
 */
export function loadFirstScreen({
  dataDir,
  version,
  transport,
  log,
}: LoadFirstScreenOptions): FirstScreen | undefined {
  const file = join(dataDir, FIRST_SCREEN_FILE);
  if (!existsSync(file)) {
    log(`First screen: no record at ${file}; the window waits for the core.`);
    return undefined;
  }
  let record: FirstScreenRecord;
  try {
    record = parseRecord(readFileSync(file, 'utf8'));
  } catch (err) {
    log(`First screen: ${file} is damaged (${describe(err)}); the window waits for the core.`);
    return undefined;
  }
  try {
    checkRecord(record, dataDir, version, transport);
  } catch (err) {
    const why = err instanceof NotServed ? err.message : `it could not be checked (${describe(err)})`;
    log(
      `First screen: ${file} (written ${record.writtenAt}) is not served: ${why}; the window waits for the core.`,
    );
    return undefined;
  }
  log(
    `First screen: the window's first reads are answered from ${file} (written ${record.writtenAt}) until the core is open.`,
  );
  return serveRecord(file, record);
}

/** The record's answers, until the core is open or the window does more than read. */
export function serveRecord(file: string, record: FirstScreenRecord): FirstScreen {
  const answers = new Map<string, unknown>();
  for (const { channel, arg, value } of record.answers) {
    const key = callKey(channel, arg);
    if (key !== undefined) answers.set(key, value);
  }
  const reads = new Set(record.reads);
  let open = false;
  let served = false;
  return {
    file,
    answer(channel, arg) {
      if (open) return undefined;
      const dropsOne = typeof channel === 'string' ? DROPS_ONE.get(channel) : undefined;
      if (dropsOne !== undefined) {
        answers.delete(dropsOne);
        return undefined;
      }
      if (typeof channel !== 'string' || !reads.has(channel)) {
        // A write (or a switch) may change what the answers show: none is given from now on.
        answers.clear();
        return undefined;
      }
      const key = callKey(channel, arg);
      if (key === undefined || !answers.has(key)) return undefined;
      served = true;
      return { ok: true, value: answers.get(key) };
    },
    coreOpened() {
      open = true;
      answers.clear();
      return served ? record.refresh : undefined;
    },
  };
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The record's shape, checked field by field (no schema library on this thread). */
export function parseRecord(text: string): FirstScreenRecord {
  const raw: unknown = JSON.parse(text);
  if (!isObject(raw)) throw new Error('not a JSON object');
  if (raw['format'] !== FIRST_SCREEN_FORMAT)
    throw new Error(`format: expected ${FIRST_SCREEN_FORMAT}, got ${JSON.stringify(raw['format'])}`);
  for (const field of ['appVersion', 'accountId', 'cacheFile', 'cacheIdentity', 'writtenAt'] as const) {
    if (typeof raw[field] !== 'string' || raw[field] === '') throw new Error(`${field}: expected a text`);
  }
  const answers = raw['answers'];
  if (!Array.isArray(answers)) throw new Error('answers: expected a list');
  answers.forEach((answer: unknown, i) => {
    if (
      !isObject(answer) ||
      typeof answer['channel'] !== 'string' ||
      !isObject(answer['arg']) ||
      !('value' in answer)
    )
      throw new Error(`answers[${i}]: expected { channel, arg, value }`);
  });
  const reads = raw['reads'];
  if (!Array.isArray(reads) || !reads.every((r) => typeof r === 'string'))
    throw new Error('reads: expected a list of channel names');
  const refresh = raw['refresh'];
  if (
    !isObject(refresh) ||
    !Array.isArray(refresh['entities']) ||
    !refresh['entities'].every((e) => typeof e === 'string')
  )
    throw new Error('refresh: expected { entities: [names] }');
  return raw as unknown as FirstScreenRecord;
}

/** Throws `NotServed` saying why when the record is not exactly what the cache holds now. */
function checkRecord(
  record: FirstScreenRecord,
  dataDir: string,
  version: string,
  transport: string | undefined,
): void {
  if (record.appVersion !== version)
    throw new NotServed(`written by version ${record.appVersion}, this is ${version}`);
  const info = record.answers.find((answer) => answer.channel === 'app.info')?.value;
  const wroteIt = isObject(info) ? info['transport'] : undefined;
  if (transport !== undefined && wroteIt !== transport)
    throw new NotServed(`written by the ${String(wroteIt)} host, this is the ${transport} host`);
  const active = activeAccountOf(join(dataDir, 'settings.json'));
  if (active !== record.accountId)
    throw new NotServed(
      `the active account is ${JSON.stringify(active)}, the record's ${JSON.stringify(record.accountId)}`,
    );
  const relative = normalize(record.cacheFile);
  if (isAbsolute(relative) || relative.startsWith('..'))
    throw new NotServed(`its cache file ${JSON.stringify(record.cacheFile)} is outside the data folder`);
  const cache = join(dataDir, relative);
  if (!existsSync(cache)) throw new NotServed(`its cache file ${cache} is gone`);
  if (existsSync(`${cache}-wal`))
    throw new NotServed(`its cache file ${cache} was not closed cleanly (a log is beside it)`);
  if (fileIdentity(cache) !== record.cacheIdentity)
    throw new NotServed(`its cache file ${cache} changed since`);
}

/** The settings' active account id (the settings store's own file, read as plain JSON). */
function activeAccountOf(settingsFile: string): string | null {
  try {
    const settings: unknown = JSON.parse(readFileSync(settingsFile, 'utf8'));
    const id = isObject(settings) ? settings['activeAccountId'] : undefined;
    return typeof id === 'string' ? id : null;
  } catch {
    return null;
  }
}
