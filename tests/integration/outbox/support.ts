import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HandlerMap } from '../../../src/main/core/handlers/types';
import {
  createWorkdeskEngine,
  type WorkdeskEngine,
  type WorkdeskEngineOptions,
} from '../../../src/main/core/outbox/workdesk-engine';
import {
  channels,
  type ChannelInput,
  type ChannelName,
  type ChannelOutput,
} from '../../../src/shared/ipc/contract';

export type TestEngine = WorkdeskEngine & {
  dataDir: string;
  call: <C extends ChannelName>(name: C, arg: ChannelInput<C>) => Promise<ChannelOutput<C>>;
  /** Waits until the outbox holds nothing unsent, nudging replay as a reconnect would. */
  drained(timeoutMs?: number): Promise<void>;
};

/** Fast retries so fault tests finish quickly; the policy itself is unit-tested. */
export const FAST_OUTBOX = { backoff: { baseMs: 10, maxMs: 100 }, tickMs: 50 } as const;

/** An engine with its outbox on a temp data folder (or the one given), sync not started. */
export async function testEngine(
  baseUrl: string,
  token: string,
  userId: string,
  extra: Partial<Omit<WorkdeskEngineOptions, 'connection'>> & { timeoutMs?: number } = {},
): Promise<TestEngine> {
  const { timeoutMs, dataDir: givenDir, ...rest } = extra;
  const dataDir = givenDir ?? mkdtempSync(join(tmpdir(), 'outbox-test-'));
  const engine = await createWorkdeskEngine({
    dataDir,
    connection: { baseUrl, token, userId, timeoutMs: timeoutMs ?? 2_000 },
    autoStart: false,
    sync: { retry: { attempts: 10, baseDelayMs: 5, maxDelayMs: 50 }, probeIntervalMs: 50 },
    outbox: FAST_OUTBOX,
    ...rest,
  });
  return {
    ...engine,
    dataDir,
    async call(name, arg) {
      const handler = engine.handlers[name] as HandlerMap[typeof name];
      return (await handler(channels[name].input.parse(arg) as never)) as ChannelOutput<typeof name>;
    },
    async drained(timeoutMs = 20_000) {
      const until = Date.now() + timeoutMs;
      const outbox = engine.outbox.outbox;
      while (outbox.status().pending > 0) {
        if (Date.now() > until) throw new Error(`outbox not drained: ${JSON.stringify(outbox.status())}`);
        outbox.kick();
        await outbox.idle();
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    async close() {
      await engine.close();
      if (!givenDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
