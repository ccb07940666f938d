// One campaign client: a Workdesk engine with its outbox in a child process, driven by the
// parent over Node's IPC channel. The parent can SIGKILL it and start another on the same data
// folder, or SIGSTOP/SIGCONT it. Writes go through the same dispatch the Electron and web
// transports call, and each write is followed at once by a read of the same item: the
// read-your-writes check runs inside the child, before anything else can happen.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { IpcResult } from '../../src/shared/ipc/channel';

export interface ClientArgs {
  dataDir: string;
  baseUrl: string;
  token: string;
  userId: string;
  /** Per-request timeout of the engine's client (a hung answer costs this much). */
  timeoutMs: number;
  /** Receives the child engine's log lines (parent side only; not sent to the child). */
  onLog?: (line: string) => void;
}

/** What the child must see right after a successful write (read-your-writes). */
export type Expectation =
  | { kind: 'field'; taskId?: string; field: 'name' | 'priority' | 'statusId'; value: string | number }
  | { kind: 'message'; taskId: string; text: string }
  | { kind: 'tag'; taskId: string; tagId: string; present: boolean }
  | { kind: 'customField'; taskId: string; fieldId: string; value: unknown }
  | { kind: 'gone'; taskId: string };

/** A task as a client's cache shows it, in the terms the checks compare. */
export interface TaskSnapshot {
  id: string;
  name: string;
  parentTaskId: string | null;
  priority: number;
  statusId: string;
  tags: string[];
  messages: string[];
  customFieldsData: Record<string, unknown>;
}

export interface OutboxSnapshot {
  status: { pending: number; inFlight: number; failed: number; conflicts: number; paused: string | null };
  failed: { kind: string; payload: unknown; errorType: string | null; errorMessage: string | null }[];
  conflicts: { entityId: string; field: string; localValue: unknown; remoteValue: unknown }[];
  /** Every task the cache holds in the project, by id. */
  tasks: TaskSnapshot[];
  /** Map of local ids the client handed out to the real ids they became. */
  realIds: Record<string, string>;
}

export type Command =
  | { op: 'call'; channel: string; arg: unknown; expect?: Expectation }
  | { op: 'sync' }
  | { op: 'drain'; timeoutMs: number }
  | { op: 'snapshot'; projectId: string; localIds: string[] }
  | { op: 'close' };

export interface CallAnswer {
  result: IpcResult<unknown>;
  /** Set when the read right after a successful write did not show it. */
  readYourWrites?: string;
}

export interface ClientProcess {
  pid: number;
  /** Resolves when the engine is open. */
  ready: Promise<void>;
  /** Rejects when the child dies before answering. */
  send<T>(command: Command): Promise<T>;
  signal(sig: 'SIGKILL' | 'SIGSTOP' | 'SIGCONT'): void;
  exited: Promise<number | null>;
  stderr(): string;
}

let bundle: Promise<string> | undefined;

/** Bundles this file once per process into CommonJS, better-sqlite3 left to node_modules. */
function bundled(): Promise<string> {
  bundle ??= (async () => {
    const { build } = await import('esbuild');
    const out = join(mkdtempSync(join(tmpdir(), 'fault-client-')), 'client-process.cjs');
    await build({
      entryPoints: [fileURLToPath(import.meta.url)],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      outfile: out,
      external: ['better-sqlite3', 'esbuild'],
      logLevel: 'error',
    });
    return out;
  })();
  return bundle;
}

export async function startClientProcess(args: ClientArgs): Promise<ClientProcess> {
  const script = await bundled();
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
  const { onLog: _onLog, ...childArgs } = args;
  const child: ChildProcess = spawn(process.execPath, [script, '--fault-client', JSON.stringify(childArgs)], {
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    env: { ...process.env, NODE_PATH: join(root, 'node_modules') },
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (text: string) => {
    stderr = (stderr + text).slice(-4000);
  });
  const waiting = new Map<number, { done: (v: unknown) => void; fail: (e: Error) => void }>();
  let nextId = 1;
  let dead = false;
  let markReady: () => void = () => {};
  let failReady: (e: Error) => void = () => {};
  const ready = new Promise<void>((done, fail) => {
    markReady = done;
    failReady = fail;
  });
  child.on('message', (raw: unknown) => {
    const message = raw as { ready?: boolean; log?: string; id?: number; value?: unknown; error?: string };
    if (message.ready) return markReady();
    if (message.log !== undefined) return args.onLog?.(message.log);
    const w = message.id === undefined ? undefined : waiting.get(message.id);
    if (!w) return;
    waiting.delete(message.id!);
    if (message.error !== undefined) w.fail(new Error(message.error));
    else w.done(message.value);
  });
  const exited = new Promise<number | null>((done) => {
    child.on('exit', (code) => {
      dead = true;
      const err = new Error(`client died (${code ?? 'signal'})`);
      failReady(err);
      for (const w of waiting.values()) w.fail(err);
      waiting.clear();
      done(code);
    });
  });
  return {
    pid: child.pid ?? -1,
    ready,
    exited,
    stderr: () => stderr,
    send<T>(command: Command): Promise<T> {
      if (dead) return Promise.reject(new Error('client is not running'));
      const id = nextId++;
      return new Promise<T>((done, fail) => {
        waiting.set(id, { done: done as (v: unknown) => void, fail });
        child.send({ id, command }, (err) => {
          if (err && waiting.delete(id)) fail(err);
        });
      });
    },
    signal(sig) {
      if (!dead) child.kill(sig);
    },
  };
}

// ---- the child ------------------------------------------------------------------------------

async function childMain(args: ClientArgs): Promise<void> {
  const { createWorkdeskEngine } = await import('../../src/main/core/outbox/workdesk-engine');
  const { createDispatch } = await import('../../src/main/core/dispatch');
  const engine = await createWorkdeskEngine({
    dataDir: args.dataDir,
    connection: { baseUrl: args.baseUrl, token: args.token, userId: args.userId, timeoutMs: args.timeoutMs },
    autoStart: false,
    sync: { retry: { attempts: 3, baseDelayMs: 10, maxDelayMs: 100 }, probeIntervalMs: 100 },
    outbox: { backoff: { baseMs: 20, maxMs: 300 }, tickMs: 50, concurrency: 4 },
    // The engine's own log goes into the run's log, for replaying an anomaly.
    log: (line: string) => process.send?.({ log: line }),
  });
  const dispatch = createDispatch(engine.handlers, (m) => process.stderr.write(`${m}\n`));
  const outbox = engine.outbox.outbox;

  async function detail(taskId: string) {
    const r = await dispatch('tasks.detail', { taskId });
    return r.ok ? (r.value as DetailValue) : null;
  }

  async function readYourWrites(
    expect: Expectation,
    created: string | undefined,
  ): Promise<string | undefined> {
    const taskId = ('taskId' in expect ? expect.taskId : undefined) ?? created;
    if (!taskId) return 'no task id to read back';
    const d = await detail(outbox.realIdOf(taskId));
    if (expect.kind === 'gone') return d ? `deleted task ${taskId} still readable` : undefined;
    if (!d) return `task ${taskId} not readable after the write`;
    switch (expect.kind) {
      case 'field': {
        const seen = expect.field === 'statusId' ? d.task.status.id : d.task[expect.field];
        return seen === expect.value
          ? undefined
          : `${expect.field} reads ${String(seen)}, wrote ${expect.value}`;
      }
      case 'message':
        return d.messages.some((m) => m.message === expect.text)
          ? undefined
          : `message ${expect.text} not read`;
      case 'tag': {
        const has = d.tags.some((t) => t.id === expect.tagId);
        return has === expect.present ? undefined : `tag ${expect.tagId} present=${has}`;
      }
      case 'customField': {
        const seen = d.task.customFieldsData?.[expect.fieldId];
        return JSON.stringify(seen) === JSON.stringify(expect.value)
          ? undefined
          : `custom field ${expect.fieldId} reads ${JSON.stringify(seen)}`;
      }
    }
  }

  async function run(command: Command): Promise<unknown> {
    switch (command.op) {
      case 'call': {
        const result = await dispatch(command.channel, command.arg);
        const answer: CallAnswer = { result };
        // A write that changed nothing locally (entryId null) claims nothing to read back.
        const entryId = result.ok ? (result.value as { entryId?: number | null }).entryId : null;
        if (result.ok && command.expect && entryId !== null) {
          const created = (result.value as { id?: string }).id;
          const problem = await readYourWrites(command.expect, created);
          if (problem) answer.readYourWrites = problem;
        }
        return answer;
      }
      case 'sync':
        return await engine.sync.now();
      case 'drain': {
        const until = Date.now() + command.timeoutMs;
        while (outbox.status().pending > 0 && Date.now() < until) {
          outbox.kick();
          await outbox.idle();
          await new Promise((r) => setTimeout(r, 20));
        }
        return outbox.status();
      }
      case 'snapshot': {
        const list = await dispatch('tasks.list', {
          projectId: command.projectId,
          filter: { closed: 'all' },
          limit: 5000,
        });
        if (!list.ok) throw new Error(`tasks.list: ${list.error.message}`);
        const rows = (list.value as { rows: { id: string }[] }).rows;
        const tasks: TaskSnapshot[] = [];
        for (const row of rows) {
          const d = await detail(row.id);
          if (!d) continue;
          tasks.push({
            id: d.task.id,
            name: d.task.name,
            parentTaskId: d.task.parentTaskId,
            priority: d.task.priority,
            statusId: d.task.status.id,
            tags: d.tags.map((t) => t.id).sort(),
            messages: d.messages.map((m) => m.message ?? '').sort(),
            customFieldsData: d.task.customFieldsData ?? {},
          });
        }
        const view = (e: ReturnType<typeof outbox.entries>[number]) => ({
          kind: e.kind,
          payload: e.payload,
          errorType: e.errorType,
          errorMessage: e.errorMessage,
        });
        const snapshot: OutboxSnapshot = {
          status: outbox.status(),
          failed: outbox.entries('failed').map(view),
          conflicts: outbox.listConflicts().map((c) => ({
            entityId: c.entityId,
            field: c.field,
            localValue: c.localValue,
            remoteValue: c.remoteValue,
          })),
          tasks,
          realIds: Object.fromEntries(command.localIds.map((id) => [id, outbox.realIdOf(id)])),
        };
        return snapshot;
      }
      case 'close':
        await engine.close();
        setTimeout(() => process.exit(0), 10);
        return null;
    }
  }

  process.on('message', (raw: unknown) => {
    const { id, command } = raw as { id: number; command: Command };
    run(command).then(
      (value) => process.send?.({ id, value }),
      (err: unknown) => process.send?.({ id, error: err instanceof Error ? err.message : String(err) }),
    );
  });
  // The parent is gone (campaign stopped or crashed): do not outlive it.
  process.on('disconnect', () => process.exit(0));
  process.send?.({ ready: true });
}

interface DetailValue {
  task: {
    id: string;
    name: string;
    priority: number;
    parentTaskId: string | null;
    status: { id: string };
    customFieldsData?: Record<string, unknown>;
  };
  messages: { message: string | null }[];
  tags: { id: string }[];
}

if (process.argv[2] === '--fault-client') {
  childMain(JSON.parse(process.argv[3] ?? '{}') as ClientArgs).catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(2);
  });
}
