// Runs an account engine (`createEngine`, outbox, write handlers) in a child process, for
// the crash tests and the fault campaign: the parent can SIGKILL it at any moment and start
// another on the same data folder, or SIGSTOP/SIGCONT it. The child is this file, bundled once
// per test process with esbuild (tsx's own compiler), so each start takes a fraction of a second.
// Parent and child talk over Node's IPC channel: the child either replays its outbox and exits
// once drained, or (`serve`) answers the commands of `engine-commands.ts`.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from './engine-commands';

export interface EngineProcessArgs {
  dataDir: string;
  baseUrl: string;
  token: string;
  userId: string;
  /** Per-request timeout of the engine's client (a hung answer costs this much). Default 2 s. */
  timeoutMs?: number;
  /** Requests in flight at once. Default 4. */
  concurrency?: number;
  /** The outbox's retry backoff and replay tick. Default 10-100 ms, 20 ms. */
  backoff?: { baseMs: number; maxMs: number };
  tickMs?: number;
  /** Pull retries and the connectivity probe. Default: the engine's own. */
  sync?: { retry: { attempts: number; baseDelayMs: number; maxDelayMs: number }; probeIntervalMs: number };
  /**
   * Answer commands (`engine-commands.ts`) until closed. Without it the child replays its outbox
   * at once and exits, 0 once drained, 3 with failed entries (the crash tests).
   */
  serve?: boolean;
  /** Receives the child engine's log lines (parent side only; not sent to the child). */
  onLog?: (line: string) => void;
  /** The child's time zone (`TZ`, e.g. `Asia/Taipei`); default the parent's. */
  timeZone?: string;
}

export interface EngineProcess {
  pid: number;
  /** Resolves when the child's engine is open (and, unless `serve`, replay has started). */
  ready: Promise<void>;
  /** Rejects when the child dies before answering. */
  send<T>(command: Command): Promise<T>;
  signal(sig: 'SIGKILL' | 'SIGSTOP' | 'SIGCONT'): void;
  /** SIGKILL. */
  kill(): void;
  /** The exit code (null when killed) and whether the child reported a drained outbox. */
  exited: Promise<{ code: number | null; drained: boolean }>;
  stderr(): string;
}

/** What the child sends: readiness, a log line, the end of the drain, or a command's answer. */
type ChildMessage = {
  ready?: boolean;
  log?: string;
  drained?: boolean;
  id?: number;
  value?: unknown;
  error?: string;
};

let bundle: Promise<string> | undefined;

/** Bundles this file (once per process) into CommonJS, better-sqlite3 left to node_modules. */
function bundled(): Promise<string> {
  bundle ??= (async () => {
    const { build } = await import('esbuild');
    const out = join(mkdtempSync(join(tmpdir(), 'engine-process-')), 'engine-process.cjs');
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

export async function startEngineProcess(args: EngineProcessArgs): Promise<EngineProcess> {
  const script = await bundled();
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
  const { onLog, timeZone, ...childArgs } = args;
  const child: ChildProcess = spawn(process.execPath, [script, '--engine-child', JSON.stringify(childArgs)], {
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    env: { ...process.env, NODE_PATH: join(root, 'node_modules'), ...(timeZone ? { TZ: timeZone } : {}) },
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (text: string) => {
    stderr = (stderr + text).slice(-4000);
  });
  const waiting = new Map<number, { done: (v: unknown) => void; fail: (e: Error) => void }>();
  let nextId = 1;
  let dead = false;
  let drained = false;
  let markReady: () => void = () => {};
  let failReady: (e: Error) => void = () => {};
  const ready = new Promise<void>((done, fail) => {
    markReady = done;
    failReady = fail;
  });
  // A child killed before it was ready must not leave an unhandled rejection behind.
  ready.catch(() => undefined);
  child.on('message', (raw: unknown) => {
    const message = raw as ChildMessage;
    if (message.ready) return markReady();
    if (message.log !== undefined) return onLog?.(message.log);
    if (message.drained !== undefined) {
      drained = message.drained;
      return;
    }
    const w = message.id === undefined ? undefined : waiting.get(message.id);
    if (!w) return;
    waiting.delete(message.id!);
    if (message.error !== undefined) w.fail(new Error(message.error));
    else w.done(message.value);
  });
  const exited = new Promise<{ code: number | null; drained: boolean }>((done) => {
    child.on('exit', (code) => {
      dead = true;
      const err = new Error(`engine child died (${code ?? 'signal'})`);
      // The crash tests kill the child while it starts: readiness then means "it is gone".
      if (!args.serve) markReady();
      else failReady(err);
      for (const w of waiting.values()) w.fail(err);
      waiting.clear();
      if (code !== 0 && code !== null) process.stderr.write(`engine child exited ${code}: ${stderr}\n`);
      done({ code, drained });
    });
  });
  const signal = (sig: 'SIGKILL' | 'SIGSTOP' | 'SIGCONT') => {
    if (!dead) child.kill(sig);
  };
  return {
    pid: child.pid ?? -1,
    ready,
    exited,
    stderr: () => stderr,
    signal,
    kill: () => signal('SIGKILL'),
    send<T>(command: Command): Promise<T> {
      if (dead) return Promise.reject(new Error('engine child is not running'));
      const id = nextId++;
      return new Promise<T>((done, fail) => {
        waiting.set(id, { done: done as (v: unknown) => void, fail });
        child.send({ id, command }, (err) => {
          if (err && waiting.delete(id)) fail(err);
        });
      });
    },
  };
}

// ---- the child ------------------------------------------------------------------------------

async function childMain(args: Omit<EngineProcessArgs, 'onLog' | 'timeZone'>): Promise<void> {
  const { createEngine } = await import('../../src/main/core/engine');
  const { commandRunner } = await import('./engine-commands');
  const engine = await createEngine({
    dataDir: args.dataDir,
    connection: {
      baseUrl: args.baseUrl,
      token: args.token,
      userId: args.userId,
      timeoutMs: args.timeoutMs ?? 2_000,
    },
    autoStart: false,
    ...(args.sync ? { sync: args.sync } : {}),
    outbox: {
      backoff: args.backoff ?? { baseMs: 10, maxMs: 100 },
      tickMs: args.tickMs ?? 20,
      concurrency: args.concurrency ?? 4,
    },
    // The engine's own log goes to the parent (the campaign keeps it in the run's log).
    log: (line: string) => process.send?.({ log: line }),
  });
  const run = commandRunner(engine, args.dataDir);
  if (!args.serve) {
    process.send?.({ ready: true });
    const status = await run<{ failed: number }>({ op: 'drain' });
    await engine.close();
    // Exit only once the parent has the message.
    await new Promise<void>((sent) => process.send?.({ drained: !status.failed }, () => sent()));
    process.exit(status.failed ? 3 : 0);
  }
  process.on('message', (raw: unknown) => {
    const { id, command } = raw as { id: number; command: Command };
    run(command).then(
      (value) => {
        process.send?.({ id, value });
        if (command.op === 'close') setTimeout(() => process.exit(0), 10);
      },
      (err: unknown) => process.send?.({ id, error: err instanceof Error ? err.message : String(err) }),
    );
  });
  // The parent is gone (campaign stopped or crashed): do not outlive it.
  process.on('disconnect', () => process.exit(0));
  process.send?.({ ready: true });
}

if (process.argv[2] === '--engine-child') {
  childMain(JSON.parse(process.argv[3] ?? '{}') as EngineProcessArgs).catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(2);
  });
}
