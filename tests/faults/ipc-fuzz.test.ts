// IPC fuzzing: every channel of the contract with random arguments, through both transports:
// the dispatch Electron's ipc.ts hands each call to (arguments after a structured clone, as
// ipcRenderer sends them) and the web host's WebSocket (JSON). Every answer is a well-formed
// IpcResult; a refusal names a known error type with a message, never `internal`; a refused
// call leaves the cache and the outbox exactly as they were; the core keeps answering.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { Core } from '../../src/main/core/core';
import { createDispatch, type Dispatch } from '../../src/main/core/dispatch';
import { appHandlers } from '../../src/main/core/handlers/app';
import { mergeHandlerMaps } from '../../src/main/core/handlers/registry';
import { createEngine, type Engine } from '../../src/main/core/engine';
import { startWebHost, type WebHost } from '../../src/main/core/web-host';
import { SEED_IDS } from '../../src/server/seed/index';
import type { IpcResult } from '../../src/shared/ipc/channel';
import { channelNames, channels } from '../../src/shared/ipc/contract';
import { startService, type RunningService } from '../support/service';

const ERROR_TYPES = new Set([
  'invalid-argument',
  'unknown-channel',
  'not-found',
  'conflict',
  'offline',
  'unauthorized',
  'rejected',
]);

let svc: RunningService;
let engine: Engine;
let dataDir: string;
let rendererDir: string;
let dispatch: Dispatch;
let host: WebHost;
let ws: WebSocket;
let taskId: string;

/**
 * Every row of every table of the account's files: the outbox (main) and the cache (attached),
 * but the tasks' full-text index (`tasks_fts`, its shadow tables and its queue of tasks to index):
 * the core fills it from the tasks in idle turns (`cache/repos/search-indexing.ts`), whatever the
 * call, so a refused call may meet it indexing a task an earlier call wrote. The tasks themselves
 * are in the dump.
 */
function cacheDump(): string {
  const schemas = engine.db
    .prepare<[], { name: string }>('PRAGMA database_list')
    .all()
    .map((d) => d.name)
    .filter((name) => name !== 'temp');
  return schemas
    .flatMap((schema) =>
      engine.db
        .prepare<[], { name: string }>(
          `SELECT name FROM ${schema}.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
             AND name NOT LIKE 'tasks_fts%' ORDER BY name`,
        )
        .all()
        .map(({ name }) => {
          const rows = engine.db
            .prepare(`SELECT * FROM ${schema}."${name}"`)
            .all()
            .map((r) => JSON.stringify(r))
            .sort();
          return `${schema}.${name}:${rows.join('\n')}`;
        }),
    )
    .join('\n');
}

let nextId = 1;
const waiting = new Map<number, (r: unknown) => void>();
function overSocket(channel: unknown, arg: unknown): Promise<unknown> {
  const id = nextId++;
  return new Promise((done) => {
    waiting.set(id, done);
    ws.send(JSON.stringify({ id, channel, arg }));
  });
}

beforeAll(async () => {
  svc = await startService({ seed: 'empty' });
  dataDir = mkdtempSync(join(tmpdir(), 'ipc-fuzz-'));
  rendererDir = mkdtempSync(join(tmpdir(), 'ipc-fuzz-renderer-'));
  engine = await createEngine({
    dataDir,
    connection: { baseUrl: svc.baseUrl, token: svc.token, userId: svc.users.actingUserId, timeoutMs: 2_000 },
    autoStart: false,
    // The outbox is stopped below, so fuzzed writes that pass validation stay local and visible.
    outbox: { tickMs: 60_000 },
  });
  await engine.sync.now();
  await engine.outbox.stop();
  const created = await engine.handlers['tasks.create']!({
    projectId: SEED_IDS.workspace,
    title: 'fuzz target',
  });
  taskId = created.id;
  dispatch = createDispatch(
    mergeHandlerMaps([appHandlers({ version: 'fuzz', transport: 'web' }), engine.handlers]),
  );
  const core: Core = { dispatch, events: engine.events, engine, close: () => Promise.resolve() };
  host = await startWebHost({ core, rendererDir });
  const page = new URL(host.url);
  const secret = new URLSearchParams(page.hash.slice(1)).get('secret')!;
  ws = new WebSocket(`ws://127.0.0.1:${host.port}/bridge?secret=${secret}`, { origin: page.origin });
  ws.on('message', (data: WebSocket.RawData) => {
    const message = JSON.parse(data.toString()) as { id?: number; result?: unknown };
    if (message.id !== undefined) {
      waiting.get(message.id)?.(message.result);
      waiting.delete(message.id);
    }
  });
  await new Promise<void>((done, fail) => {
    ws.once('open', () => done());
    ws.once('error', fail);
  });
});

afterAll(async () => {
  ws?.close();
  await host?.close();
  await engine?.close();
  await svc?.close();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(rendererDir, { recursive: true, force: true });
});

/** Values that look like ids the app knows, so some calls get past validation. */
const knownId = fc.constantFrom(
  SEED_IDS.workspace,
  SEED_IDS.users.bob,
  SEED_IDS.tags.urgent,
  SEED_IDS.statuses.done,
  SEED_IDS.customFields.number,
  'local-0000',
  'nope',
);
const leaf = fc.oneof(fc.anything(), knownId, fc.integer(), fc.string({ maxLength: 3000 }));

/** An argument for `channel`: anything at all, or an object with the schema's keys (some wrong). */
function argFor(channel: (typeof channelNames)[number]): fc.Arbitrary<unknown> {
  const schema = channels[channel].input as unknown as { shape?: Record<string, unknown> };
  const keys = schema.shape ? Object.keys(schema.shape) : [];
  const shaped = keys.length
    ? fc
        .record(Object.fromEntries(keys.map((k) => [k, k.endsWith('Id') ? fc.oneof(knownId, leaf) : leaf])), {
          requiredKeys: [],
        })
        .chain((base) =>
          fc.oneof(
            fc.constant<unknown>(base),
            fc.constant<unknown>({ ...base, taskId }),
            fc.constant<unknown>({ ...base, extra: 1 }),
          ),
        )
    : fc.constant<unknown>({});
  return fc.oneof(fc.anything(), fc.jsonValue(), shaped, fc.constant(undefined), fc.constant(null));
}

function expectWellFormed(channel: string, arg: unknown, result: unknown): IpcResult<unknown> {
  const r = result as IpcResult<unknown>;
  const where = `${channel}(${JSON.stringify(arg)?.slice(0, 300)})`;
  expect(typeof r === 'object' && r !== null && typeof r.ok === 'boolean', where).toBe(true);
  if (!r.ok) {
    expect(ERROR_TYPES.has(r.error.type), `${where}: ${r.error.type} ${r.error.message}`).toBe(true);
    expect(r.error.message.length, where).toBeGreaterThan(0);
  }
  return r;
}

/** The JSON transport turns undefined into absent and drops what JSON cannot carry. */
const jsonSafe = (v: unknown): unknown => {
  try {
    const text = JSON.stringify(v);
    return text === undefined ? undefined : (JSON.parse(text) as unknown);
  } catch {
    return undefined;
  }
};

describe('IPC fuzz', () => {
  it.each(channelNames.filter((c) => c !== 'sync.now'))(
    '%s: random arguments through both transports',
    async (channel) => {
      await fc.assert(
        fc.asyncProperty(argFor(channel), async (arg) => {
          // Electron: ipcRenderer.invoke structured-clones the argument; uncloneable values never arrive.
          let cloned: unknown;
          let cloneable = true;
          try {
            cloned = structuredClone(arg);
          } catch {
            cloneable = false;
          }
          if (cloneable) {
            const before = cacheDump();
            const r = expectWellFormed(channel, cloned, await dispatch(channel, cloned));
            if (!r.ok) expect(cacheDump(), `${channel} refused and changed the cache`).toBe(before);
          }
          const wire = jsonSafe(arg);
          const before = cacheDump();
          const r = expectWellFormed(channel, wire, await overSocket(channel, wire));
          if (!r.ok)
            expect(cacheDump(), `${channel} refused over the socket and changed the cache`).toBe(before);
        }),
        { numRuns: 40, seed: 20261122 },
      );
    },
  );

  it('unknown and malformed channel names are refused on both transports, and the core still answers', async () => {
    const before = cacheDump();
    for (const name of ['nope', '', '__proto__', 'constructor', 'tasks.create.x', 42, null, { a: 1 }]) {
      const direct = expectWellFormed(String(name), {}, await dispatch(name, {}));
      const socket = expectWellFormed(String(name), {}, await overSocket(name, {}));
      expect([direct, socket].map((r) => !r.ok && r.error.type)).toEqual([
        'unknown-channel',
        'unknown-channel',
      ]);
    }
    // Frames that are not calls are ignored, and the socket keeps working.
    for (const frame of ['not json', '[]', 'null', '{"id":"x"}', '{"channel":"app.info"}']) ws.send(frame);
    expect(cacheDump()).toBe(before);
    const info = await overSocket('app.info', {});
    expect(info).toMatchObject({ ok: true, value: { name: 'Workdesk' } });
    expect(await dispatch('outbox.status', {})).toMatchObject({ ok: true });
  });
});
