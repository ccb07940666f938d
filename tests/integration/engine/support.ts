import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createReadEngine, type ReadEngine, type ReadEngineOptions } from '../../../src/main/core/engine';
import type { HandlerMap } from '../../../src/main/core/handlers/types';
import {
  channels,
  type ChannelInput,
  type ChannelName,
  type ChannelOutput,
} from '../../../src/shared/ipc/contract';

/** An engine on a fresh temp data folder, not started (tests call `sync.now()`). */
export async function testEngine(
  baseUrl: string,
  token: string,
  userId: string,
  extra: Partial<Omit<ReadEngineOptions, 'dataDir' | 'connection'>> & { timeoutMs?: number } = {},
): Promise<
  ReadEngine & { call: <C extends ChannelName>(name: C, arg: ChannelInput<C>) => Promise<ChannelOutput<C>> }
> {
  const dir = mkdtempSync(join(tmpdir(), 'engine-test-'));
  const { timeoutMs, ...rest } = extra;
  const engine = await createReadEngine({
    dataDir: dir,
    connection: { baseUrl, token, userId, ...(timeoutMs ? { timeoutMs } : {}) },
    autoStart: false,
    ...rest,
  });
  return {
    ...engine,
    /** Calls a handler as the dispatch would: the argument through its schema first. */
    async call(name, arg) {
      const handler = engine.handlers[name] as HandlerMap[typeof name];
      return (await handler(channels[name].input.parse(arg) as never)) as ChannelOutput<typeof name>;
    },
    async close() {
      await engine.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const ids = (list: readonly { id: string }[]) => list.map((x) => x.id).sort();
