import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CORE_HEAP_FLAGS, applyCoreHeapFlags } from './heap';
import { forkCoreChild } from './links';

describe("the core's heap settings", () => {
  it('are set in the running process unless its command line gives them', () => {
    const set: string[] = [];
    expect(applyCoreHeapFlags([], (f) => set.push(f))).toEqual([...CORE_HEAP_FLAGS]);
    expect(set).toEqual([...CORE_HEAP_FLAGS]);
    // A flag given on the command line wins, however it is spelt.
    const none: string[] = [];
    expect(applyCoreHeapFlags(['--import', 'tsx', '--heap_growing_percent=80'], (f) => none.push(f))).toEqual(
      [],
    );
    expect(none).toEqual([]);
  });

  describe("reach the core's process started with Node's fork", () => {
    let dir: string | undefined;
    afterEach(() => {
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it("after the host's own arguments, or those given", async () => {
      dir = mkdtempSync(join(tmpdir(), 'core-heap-'));
      const entry = join(dir, 'entry.mjs');
      // The child answers the arguments Node started it with.
      writeFileSync(entry, 'process.send({ execArgv: process.execArgv });\n');
      const argvOf = (execArgv?: string[]) =>
        new Promise<string[]>((resolve, reject) => {
          const child = forkCoreChild(entry, execArgv ? { execArgv } : {});
          child.onMessage((m) => {
            resolve((m as { execArgv: string[] }).execArgv);
            child.kill();
          });
          child.onExit((code) => reject(new Error(`the child exited (${code}) before it answered`)));
        });
      expect(await argvOf(['--no-warnings'])).toEqual(['--no-warnings', ...CORE_HEAP_FLAGS]);
      expect(await argvOf()).toEqual([...process.execArgv, ...CORE_HEAP_FLAGS]);
      // A heap flag the host was given wins over the core's.
      expect(await argvOf(['--heap-growing-percent=80'])).toEqual(['--heap-growing-percent=80']);
      expect(await argvOf(['--heap_growing_percent=80'])).toEqual(['--heap_growing_percent=80']);
    });
  });
});
