import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { createServiceClient, type ServiceClient } from '../../../src/main/core/api/client';
import type { FetchLike } from '../../../src/main/core/api/http';
import type { HandlerMap } from '../../../src/main/core/handlers/types';
import { stageDroppedPaths } from '../../../src/main/core/handlers/attachments';
import { StageDroppedFilesInput, type StageResult } from '../../../src/shared/ipc/attachments';
import { createEngine, type Engine, type EngineOptions } from '../../../src/main/core/engine';
import {
  channels,
  type ChannelInput,
  type ChannelName,
  type ChannelOutput,
} from '../../../src/shared/ipc/contract';
import { startFaultProxy, type FaultProxy } from '../../support/fault-proxy';
import { startService, type RunningService, type ServiceProfileName } from '../../support/service';
import { queueOf } from '../../../src/main/core/outbox/testing';

export type TestEngine = Engine & {
  dataDir: string;
  call: <C extends ChannelName>(name: C, arg: ChannelInput<C>) => Promise<ChannelOutput<C>>;
  /** Files dropped in the desktop app: the paths the shell resolved, copied into the spool. */
  stage: (arg: { paths: string[] }) => Promise<StageResult>;
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
  extra: Partial<Omit<EngineOptions, 'connection'>> & { timeoutMs?: number } = {},
): Promise<TestEngine> {
  const { timeoutMs, dataDir: givenDir, ...rest } = extra;
  const dataDir = givenDir ?? mkdtempSync(join(tmpdir(), 'outbox-test-'));
  const engine = await createEngine({
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
    stage: ({ paths }) => stageDroppedPaths(engine.files, StageDroppedFilesInput.parse({ paths }).paths),
    async drained(timeoutMs = 20_000) {
      const until = Date.now() + timeoutMs;
      const outbox = queueOf(engine.outbox);
      while (outbox.status().pending > 0) {
        if (Date.now() > until) throw new Error(`outbox not drained: ${JSON.stringify(outbox.status())}`);
        outbox.kick();
        await outbox.idle();
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    async close(beforeDbClose) {
      await engine.close(beforeDbClose);
      if (!givenDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The set-up the write suites share: one service (empty seed) for the file, a fault proxy in
 * front of it, a client straight to it (`api`), and engines that are closed after each test.
 * Call at the top level of a test file, or in a `describe.each(SERVICE_PROFILES)` with its
 * profile (else the service answers as `startService` picks); read the fields inside tests.
 */
export function writesSuite(options: { profile?: ServiceProfileName } = {}) {
  const state: { svc?: RunningService; api?: ServiceClient; proxy?: FaultProxy } = {};
  const open: TestEngine[] = [];
  beforeAll(async () => {
    state.svc = await startService({ seed: 'empty', ...options });
    state.api = createServiceClient({ baseUrl: state.svc.baseUrl, token: state.svc.token });
    state.proxy = await startFaultProxy({ target: state.svc.baseUrl });
  });
  afterEach(async () => {
    state.proxy?.reset();
    for (const e of open.splice(0)) await e.close();
  });
  afterAll(async () => {
    await state.proxy?.close();
    await state.svc?.close();
  });
  const need = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('writesSuite: used outside a test');
    return value;
  };
  return {
    get svc(): RunningService {
      return need(state.svc);
    },
    get api(): ServiceClient {
      return need(state.api);
    },
    get proxy(): FaultProxy {
      return need(state.proxy);
    },
    /** An engine acting as the admin, through the proxy, after a first pull. */
    async engine(extra: Parameters<typeof testEngine>[3] = {}): Promise<TestEngine> {
      const svc = need(state.svc);
      const e = await testEngine(need(state.proxy).baseUrl, svc.token, svc.users.actingUserId, extra);
      open.push(e);
      await e.sync.now();
      return e;
    },
    /** Closes an engine before the test ends (a restart on the same data folder). */
    async close(e: TestEngine, beforeDbClose?: () => Promise<void>): Promise<void> {
      const at = open.indexOf(e);
      if (at >= 0) open.splice(at, 1);
      await e.close(beforeDbClose);
    },
  };
}

/**
 * A fetch that, when armed for a request, reads the service's answer at once and holds it: a
 * test makes a fetch's answer predate a write deterministically.
 */
export function gatedFetch() {
  let armed: { match: RegExp; answered: () => void; release: Promise<void> } | undefined;
  const fetch: FetchLike = async (input, init) => {
    const gate =
      armed && armed.match.test(`${init.method ?? 'GET'} ${new URL(input).pathname}`) ? armed : undefined;
    if (gate) armed = undefined;
    const response = await globalThis.fetch(input, init);
    if (!gate) return response;
    const body = await response.arrayBuffer();
    gate.answered();
    await gate.release;
    return new Response(body, { status: response.status, headers: response.headers });
  };
  return {
    fetch,
    /** Arms the gate; `answered` resolves once the service answered, `release` lets it through. */
    arm(match: RegExp) {
      let release!: () => void;
      let answered!: () => void;
      const answeredP = new Promise<void>((r) => (answered = r));
      armed = { match, answered, release: new Promise<void>((r) => (release = r)) };
      return { answered: answeredP, release };
    },
  };
}
