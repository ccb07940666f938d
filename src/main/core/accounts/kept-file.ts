import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DataNotice } from '../../../shared/ipc/app';
import { fileStamp } from '../cache/recovery';

/**
 * A small JSON file of the user's (settings, secrets) that is read whole and written atomically
 * (temp file + rename), with a copy of the last content that was read or written valid beside it
 * (`<file>.last-good`). A file that cannot be parsed is moved aside as `<file>.corrupt-<time>`,
 * the last good copy (else the defaults) takes its place, and a notice says so: the app starts.
 */
export interface KeptFile<T> {
  read(): T;
  write(value: T): void;
  /** What was found damaged and done about it (at most one notice per run). */
  notices(): DataNotice[];
}

export interface KeptFileOptions<T> {
  file: string;
  /** What the file is, for the notice: "settings", "stored tokens". */
  what: string;
  /** Parses a JSON value; throws (naming the field) when it is not valid. */
  parse(raw: unknown): T;
  fallback(): T;
  /** Said after "…was moved aside and" in the notice; e.g. what the user must do again. */
  consequence: (restored: boolean) => string;
  mode?: number;
  clock?: () => Date;
}

export function keptFile<T>(options: KeptFileOptions<T>): KeptFile<T> {
  const { file, mode = 0o600 } = options;
  const lastGood = `${file}.last-good`;
  const clock = options.clock ?? (() => new Date());
  const notices: DataNotice[] = [];
  let goodCopied = false;

  function atomicWrite(target: string, text: string): void {
    mkdirSync(dirname(target), { recursive: true, mode: 0o700 });
    const temp = `${target}.${process.pid}.tmp`;
    writeFileSync(temp, text, { mode });
    chmodSync(temp, mode);
    renameSync(temp, target);
  }

  function parseText(text: string): T {
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      throw new Error(`${file} is not valid JSON`);
    }
    return options.parse(raw);
  }

  function recover(reason: string): T {
    const movedTo = `${file}.corrupt-${fileStamp(clock())}`;
    renameSync(file, movedTo);
    let restored: T | undefined;
    try {
      if (existsSync(lastGood)) restored = parseText(readFileSync(lastGood, 'utf8'));
    } catch {
      restored = undefined;
    }
    const value = restored ?? options.fallback();
    atomicWrite(file, JSON.stringify(value, null, 2));
    notices.push({
      id: `kept-file:${file}:${clock().getTime()}`,
      level: 'warning',
      title: `The ${options.what} file was damaged`,
      message: `${reason}. It was moved aside and ${restored !== undefined ? 'the last good copy' : 'the defaults'} put in its place; ${options.consequence(restored !== undefined)} The damaged file is kept at ${movedTo}.`,
      file: movedTo,
    });
    return value;
  }

  return {
    read() {
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return options.fallback();
        throw err;
      }
      let value: T;
      try {
        value = parseText(text);
      } catch (err) {
        return recover(err instanceof Error ? err.message : String(err));
      }
      if (!goodCopied) {
        goodCopied = true;
        // At every start: written (a synced rename) only when it differs, as it rarely does.
        if (!sameText(lastGood, text)) atomicWrite(lastGood, text);
      }
      return value;
    },
    write(value) {
      const text = JSON.stringify(value, null, 2);
      atomicWrite(file, text);
      atomicWrite(lastGood, text);
      goodCopied = true;
    },
    notices: () => [...notices],
  };
}

/** Whether `file` holds exactly `text` (false when it cannot be read). */
function sameText(file: string, text: string): boolean {
  try {
    return readFileSync(file, 'utf8') === text;
  } catch {
    return false;
  }
}
