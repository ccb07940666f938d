import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createServiceClient } from '../../src/main/core/api/client';
import { createEngine, type Engine } from '../../src/main/core/engine';
import { SEED_IDS } from '../../src/server/seed/index';
import { startFaultProxy } from '../../tests/support/fault-proxy';
import { startService } from '../../tests/support/service';
import { percentile, round, sorted } from '../lib/stats';
import type { Scenario } from '../lib/types';
import { queueOf } from '../../src/main/core/outbox/testing';
import { taskEndpoints } from '../../src/shared/api/tasks';

const ADDED_RTT_MS = 50;
const CONCURRENCY = 6;

/**
 * Drains queued edits through a proxy adding 50 ms per request, against the lower bound any
 * client needs: the longest per-entity chain x RTT, and total requests / concurrency x RTT.
 * Also the local write latency: handler call to cache committed and event emitted.
 */
export const scenario: Scenario = {
  name: 'outbox-drain',
  description:
    'Outbox: 1,000 queued edits over 100 tasks drained at +50 ms RTT (updates interleaved with comments, so nothing merges), the same after a restart (every task read before its first send: the check of rule 7), the same edits as updates only (merged), and local write latency.',
  quick: true,
  async run(ctx) {
    const tasks = ctx.quick ? 20 : 100;
    const perTask = 10;
    const { svc, proxy } = await remoteService();
    const direct = createServiceClient({ baseUrl: svc.baseUrl, token: svc.token });
    const me = svc.users.actingUserId;
    const ids: string[] = [];
    for (let i = 0; i < tasks; i++) {
      ids.push(
        (
          await direct.call(taskEndpoints.createTask, {
            body: { projectId: SEED_IDS.workspace, title: `bench ${i}`, fromUserId: me },
          })
        ).id,
      );
    }
    const dirs: string[] = [];
    const engineOn = (dataDir: string) =>
      createEngine({
        dataDir,
        connection: { baseUrl: proxy.baseUrl, token: svc.token, userId: me },
        autoStart: false,
        outbox: { concurrency: CONCURRENCY },
      });
    const open = async (): Promise<Engine> => {
      const dataDir = mkdtempSync(join(tmpdir(), 'bench-drain-'));
      dirs.push(dataDir);
      const engine = await engineOn(dataDir);
      await engine.sync.now();
      await engine.outbox.stop();
      return engine;
    };
    /** The interleaved edits, one request each (an update, then a comment, per round). */
    const queueInterleaved = async (engine: Engine, tag: string, latencies?: number[]) => {
      for (let round_ = 0; round_ < perTask; round_++) {
        for (const [i, id] of ids.entries()) {
          const t = performance.now();
          if (round_ % 2 === 0) {
            await engine.handlers['tasks.update']!({
              taskId: id,
              changes: { title: `bench ${i} ${tag}${round_}` },
            });
          } else {
            await engine.handlers['tasks.comment']!({ taskId: id, message: `note ${tag}${round_}` });
          }
          latencies?.push(performance.now() - t);
        }
      }
    };
    const drain = async (engine: Engine): Promise<{ ms: number; requests: number }> => {
      const before = (await proxy.stats()).received;
      const start = performance.now();
      const outbox = queueOf(engine.outbox);
      outbox.start();
      while (outbox.status().pending > 0) {
        await outbox.idle();
        outbox.kick();
        await new Promise((r) => setTimeout(r, 1));
      }
      const ms = performance.now() - start;
      return { ms, requests: (await proxy.stats()).received - before };
    };

    try {
      // The round trip one request takes through the proxy: what the bound multiplies.
      await proxy.setDelay(ADDED_RTT_MS);
      const rtts: number[] = [];
      for (let i = 0; i < 10; i++) {
        const t = performance.now();
        await createServiceClient({ baseUrl: proxy.baseUrl, token: svc.token }).call(taskEndpoints.task, {
          id: ids[0]!,
        });
        rtts.push(performance.now() - t);
      }
      const rtt = percentile(sorted(rtts), 50);
      await proxy.setDelay(0);

      // 1) Interleaved updates and comments: every edit is one request.
      const engine = await open();
      const latencies: number[] = [];
      await queueInterleaved(engine, 'v', latencies);
      const edits = latencies.length;
      const queued = engine.outbox.status().pending;
      await proxy.setDelay(ADDED_RTT_MS);
      const interleaved = await drain(engine);
      await proxy.setDelay(0);
      await engine.close();
      const bound = Math.max(perTask * rtt, (queued / CONCURRENCY) * rtt);

      // 1b) The same after a restart: no read of any task is recent, so the first send of each
      // task reads it first (the check before a send, rule 7); the next ones of that task do not.
      const restarted = await open();
      await queueInterleaved(restarted, 'r');
      const restartedQueued = restarted.outbox.status().pending;
      const restartedDir = dirs[dirs.length - 1]!;
      await restarted.close();
      await proxy.setDelay(ADDED_RTT_MS);
      const beforeRestart = (await proxy.stats()).received;
      const restartStart = performance.now();
      const reopened = await engineOn(restartedDir);
      const checked = await drain(reopened);
      const checkedMs = performance.now() - restartStart;
      const checkedRequests = (await proxy.stats()).received - beforeRestart;
      await proxy.setDelay(0);
      await reopened.close();
      const checkedBound = Math.max(perTask * rtt, (restartedQueued / CONCURRENCY) * rtt);
      void checked;

      // 2) The same number of edits as updates only: successive unsent updates merge.
      const merging = await open();
      for (let round_ = 0; round_ < perTask; round_++) {
        for (const [i, id] of ids.entries()) {
          await merging.handlers['tasks.update']!({
            taskId: id,
            changes: round_ % 2 ? { priority: 1 + (round_ % 10) } : { title: `bench ${i} m${round_}` },
          });
        }
      }
      const mergedQueued = merging.outbox.status().pending;
      await proxy.setDelay(ADDED_RTT_MS);
      const merged = await drain(merging);
      await proxy.setDelay(0);
      await merging.close();
      const mergedBound = Math.max(rtt, (mergedQueued / CONCURRENCY) * rtt);

      const lat = sorted(latencies);
      ctx.table(
        ['run', 'edits', 'requests', 'drain ms', 'lower bound ms', 'ratio'],
        [
          [
            'interleaved',
            edits,
            interleaved.requests,
            round(interleaved.ms),
            round(bound),
            round(interleaved.ms / bound, 2),
          ],
          [
            'interleaved, after a restart (each task read before its first send)',
            edits,
            checkedRequests,
            round(checkedMs),
            round(checkedBound),
            round(checkedMs / checkedBound, 2),
          ],
          [
            'updates only',
            edits,
            merged.requests,
            round(merged.ms),
            round(mergedBound),
            round(merged.ms / mergedBound, 2),
          ],
        ],
      );
      return {
        tasks,
        edits,
        concurrency: CONCURRENCY,
        rttMs: round(rtt, 1),
        requests: interleaved.requests,
        drainMs: round(interleaved.ms),
        lowerBoundMs: round(bound),
        drainRatio: round(interleaved.ms / bound, 2),
        checkedRequests,
        checkedDrainMs: round(checkedMs),
        checkedLowerBoundMs: round(checkedBound),
        checkedRatio: round(checkedMs / checkedBound, 2),
        mergedRequests: merged.requests,
        mergedDrainMs: round(merged.ms),
        mergedRatio: round(merged.ms / mergedBound, 2),
        localWriteP50Ms: round(percentile(lat, 50), 3),
        localWriteP95Ms: round(percentile(lat, 95), 3),
        localWriteMaxMs: round(lat[lat.length - 1] ?? Number.NaN, 3),
      };
    } finally {
      await proxy.close();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    }
  },
};

interface RemoteService {
  svc: { baseUrl: string; token: string; users: { actingUserId: string } };
  proxy: {
    baseUrl: string;
    setDelay(ms: number): Promise<void>;
    stats(): Promise<{ received: number }>;
    close(): Promise<void>;
  };
}

/**
 * The service and the latency proxy run in a child process, as a remote service would: the
 * figures then measure the client, not a service sharing its event loop. A line protocol on
 * stdin/stdout sets the delay and reads the proxy's counters.
 */
async function remoteService(): Promise<RemoteService> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(import.meta.url), '--service-child'],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const lines = createInterface({ input: child.stdout! });
  const waiting: ((line: string) => void)[] = [];
  lines.on('line', (line) => waiting.shift()?.(line));
  const next = () => new Promise<string>((done) => waiting.push(done));
  const ask = async (command: string): Promise<string> => {
    const answer = next();
    child.stdin!.write(`${command}\n`);
    return answer;
  };
  const hello = JSON.parse(await next()) as {
    baseUrl: string;
    token: string;
    userId: string;
    proxyBaseUrl: string;
  };
  return {
    svc: { baseUrl: hello.baseUrl, token: hello.token, users: { actingUserId: hello.userId } },
    proxy: {
      baseUrl: hello.proxyBaseUrl,
      setDelay: async (ms) => void (await ask(`delay ${ms}`)),
      stats: async () => JSON.parse(await ask('stats')) as { received: number },
      close: async () => {
        await ask('close');
        await new Promise((done) => child.once('exit', done));
      },
    },
  };
}

async function serviceChild(): Promise<void> {
  const svc = await startService({ seed: 'empty' });
  const proxy = await startFaultProxy({ target: svc.baseUrl });
  const out = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);
  out({
    baseUrl: svc.baseUrl,
    token: svc.token,
    userId: svc.users.actingUserId,
    proxyBaseUrl: proxy.baseUrl,
  });
  for await (const line of createInterface({ input: process.stdin })) {
    const [command, arg] = line.split(' ');
    if (command === 'delay') {
      proxy.set({ delayMs: Number(arg) });
      out('ok');
    } else if (command === 'stats') out(proxy.stats());
    else if (command === 'close') {
      await proxy.close();
      await svc.close();
      out('ok');
      process.exit(0);
    }
  }
}

if (process.argv[2] === '--service-child') void serviceChild();
