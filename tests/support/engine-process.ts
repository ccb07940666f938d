// Runs the engine with its outbox in a child process, for crash tests: the parent kills it with
// SIGKILL at any moment and starts another on the same files. The child is this file, bundled
// once per test run with esbuild (tsx's own compiler) so each start takes a fraction of a second.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface EngineProcessArgs {
  dataDir: string;
  baseUrl: string;
  token: string;
  userId: string;
  /** Requests in flight at once. */
  concurrency?: number;
}

export interface EngineProcess {
  /** Resolves when the child's engine is open and replay has started. */
  ready: Promise<void>;
  /** Resolves with the exit code (null when killed) and whether it reported a drained queue. */
  exited: Promise<{ code: number | null; drained: boolean }>;
  kill(): void;
}

let bundle: Promise<string> | undefined;

/** Bundles this file (once) into a CommonJS script with better-sqlite3 left to node_modules. */
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

/** Starts a child engine on `args.dataDir`; it replays the outbox and exits 0 once drained. */
export async function startEngineProcess(args: EngineProcessArgs): Promise<EngineProcess> {
  const script = await bundled();
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
  const child: ChildProcess = spawn(process.execPath, [script, '--child', JSON.stringify(args)], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_PATH: join(root, 'node_modules') },
  });
  let drained = false;
  let stderr = '';
  let markReady: () => void = () => {};
  const ready = new Promise<void>((done) => (markReady = done));
  child.stdout?.setEncoding('utf8').on('data', (text: string) => {
    if (text.includes('READY')) markReady();
    if (text.includes('DRAINED')) drained = true;
  });
  child.stderr?.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const exited = new Promise<{ code: number | null; drained: boolean }>((done) => {
    child.on('exit', (code) => {
      markReady();
      if (code !== 0 && code !== null) process.stderr.write(`engine child exited ${code}: ${stderr}\n`);
      done({ code, drained });
    });
  });
  return { ready, exited, kill: () => child.kill('SIGKILL') };
}

async function childMain(args: EngineProcessArgs): Promise<void> {
  const { createWorkdeskEngine } = await import('../../src/main/core/outbox/workdesk-engine');
  const engine = await createWorkdeskEngine({
    dataDir: args.dataDir,
    connection: { baseUrl: args.baseUrl, token: args.token, userId: args.userId, timeoutMs: 2_000 },
    autoStart: false,
    outbox: { backoff: { baseMs: 10, maxMs: 100 }, tickMs: 20, concurrency: args.concurrency ?? 4 },
  });
  process.stdout.write('READY\n');
  const outbox = engine.outbox.outbox;
  while (outbox.status().pending > 0) {
    outbox.kick();
    await outbox.idle();
    await new Promise((r) => setTimeout(r, 5));
  }
  const failed = outbox.status().failed;
  await engine.close();
  process.stdout.write(failed ? `FAILED ${failed}\n` : 'DRAINED\n');
  process.exit(failed ? 3 : 0);
}

if (process.argv[2] === '--child') {
  childMain(JSON.parse(process.argv[3] ?? '{}') as EngineProcessArgs).catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(2);
  });
}
