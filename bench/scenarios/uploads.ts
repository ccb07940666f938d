// Upload throughput: 20 files of 5 MiB dropped on a task and sent by the app (spool, outbox,
// upload-URL request, PUTs streamed from the spool with progress, the referencing comment)
// through the fault proxy at 50 ms added round trip, beside a raw client doing the least any
// client must: one upload-URL request and the same PUTs of the same bytes, same parallelism.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pLimit from 'p-limit';
import { createServiceClient } from '../../src/main/core/api/client';
import type { FetchLike } from '../../src/main/core/api/http';
import { createEngine } from '../../src/main/core/engine';
import { stageDroppedPaths } from '../../src/main/core/handlers/attachments';
import { buildService } from '../../src/server/app';
import { SEED_IDS } from '../../src/server/seed/index';
import { startFaultProxy } from '../../tests/support/fault-proxy';
import { median, round } from '../lib/stats';
import type { Scenario } from '../lib/types';
import { queueOf } from '../../src/main/core/outbox/testing';
import { attachmentEndpoints } from '../../src/shared/api/attachments';
import { taskEndpoints } from '../../src/shared/api/tasks';
import { messageEndpoints } from '../../src/shared/api/messages';

const RTT_MS = Number(process.env.WORKDESK_BENCH_RTT_MS ?? 50);
const FILES = 20;
const FILE_BYTES = 5 * 1024 * 1024;
/** PUTs at once, for the app (its default) and the raw client alike. */
const PARALLEL = 4;

export const scenario: Scenario = {
  name: 'uploads',
  description: `${FILES} files of ${FILE_BYTES / 1024 / 1024} MiB through the proxy at ${RTT_MS} ms RTT, app vs raw PUT`,
  async run({ quick, log, table }) {
    const runs = quick ? 1 : 3;
    const dir = mkdtempSync(join(tmpdir(), 'bench-uploads-'));
    const token = 'bench-token';
    const service = buildService({
      dbPath: join(dir, 'service.sqlite'),
      filesDir: join(dir, 'files'),
      tokens: [token],
      seed: 'empty',
      uploadLimitBytes: 2 * FILE_BYTES,
    });
    const address = await service.app.listen({ port: 0, host: '127.0.0.1' });
    const direct = `${address}/2.0`;
    const proxy = await startFaultProxy({ target: direct, faults: { delayMs: RTT_MS } });
    // Upload addresses name the service; send them through the proxy as well.
    const viaProxy: FetchLike = (input, init) =>
      fetch(input.startsWith(address) ? proxy.origin + input.slice(address.length) : input, init);
    const userId = SEED_IDS.users.admin;
    const api = createServiceClient({ baseUrl: proxy.baseUrl, token, fetch: viaProxy, timeoutMs: 120_000 });
    const paths = Array.from({ length: FILES }, (_, i) => {
      const path = join(dir, `file-${i}.bin`);
      writeFileSync(path, randomBytes(FILE_BYTES));
      return path;
    });
    const bytes = paths.map((p) => new Uint8Array(readFileSync(p)));
    const totalMiB = (FILES * FILE_BYTES) / 1024 / 1024;

    const raw: number[] = [];
    const app: number[] = [];
    const staging: number[] = [];
    try {
      // Warm-up (connections, JIT), not measured.
      const [warm] = await api.call(attachmentEndpoints.uploadUrls, {
        body: { files: [{ name: 'warm.bin' }] },
      });
      await api.upload(warm!.uploadUrl, bytes[0]!, warm!.mime);
      for (let run = 0; run < runs; run++) {
        // Raw: one address request, then the PUTs, nothing else.
        let t0 = performance.now();
        const addresses = await api.call(attachmentEndpoints.uploadUrls, {
          body: { files: paths.map((_, i) => ({ name: `file-${i}.bin` })) },
        });
        const limit = pLimit(PARALLEL);
        await Promise.all(addresses.map((a, i) => limit(() => api.upload(a.uploadUrl, bytes[i]!, a.mime))));
        raw.push(performance.now() - t0);

        const engine = await createEngine({
          dataDir: mkdtempSync(join(dir, `app-${run}-`)),
          connection: { baseUrl: proxy.baseUrl, token, userId, timeoutMs: 120_000 },
          fetch: viaProxy,
          autoStart: false,
          attachments: { concurrency: PARALLEL, maxFileBytes: 2 * FILE_BYTES },
        });
        try {
          const { id: taskId } = await api.call(taskEndpoints.createTask, {
            body: {
              projectId: SEED_IDS.workspace,
              title: `Bench ${run}`,
              fromUserId: userId,
            },
          });
          await engine.sync.now();
          const call = async (name: 'attachments.attach', arg: unknown) =>
            (engine.handlers[name] as (a: unknown) => Promise<unknown>)(arg);
          t0 = performance.now();
          const staged = await stageDroppedPaths(engine.files, paths);
          staging.push(performance.now() - t0);
          t0 = performance.now();
          await call('attachments.attach', { taskId, files: staged.staged.map((s) => s.id) });
          const outbox = queueOf(engine.outbox);
          while (outbox.status().pending > 0) {
            outbox.kick();
            await outbox.idle();
          }
          app.push(performance.now() - t0);
          if (outbox.status().failed) throw new Error('the upload entry failed');
          const [message] = await api.call(messageEndpoints.taskMessages, { id: taskId });
          if (message?.attachments?.length !== FILES) throw new Error('the comment lacks its files');
        } finally {
          await engine.close();
        }
        log(
          `run ${run + 1}: raw ${Math.round(raw.at(-1)!)} ms, app ${Math.round(app.at(-1)!)} ms (+${Math.round(staging.at(-1)!)} ms staging)`,
        );
      }
    } finally {
      await proxy.close();
      await service.app.close();
      rmSync(dir, { recursive: true, force: true });
    }
    const rawMs = median(raw);
    const appMs = median(app);
    const stageMs = median(staging);
    table(
      ['client', 'median ms', 'MiB/s'],
      [
        ['raw: 1 upload-URL request + PUTs', round(rawMs, 0), round(totalMiB / (rawMs / 1000), 1)],
        ['app: spool → outbox → upload → comment', round(appMs, 0), round(totalMiB / (appMs / 1000), 1)],
        [
          'app incl. copy into the spool',
          round(appMs + stageMs, 0),
          round(totalMiB / ((appMs + stageMs) / 1000), 1),
        ],
      ],
    );
    return {
      rawMs: round(rawMs, 0),
      appMs: round(appMs, 0),
      stagingMs: round(stageMs, 0),
      ratio: round(appMs / rawMs, 2),
      ratioWithStaging: round((appMs + stageMs) / rawMs, 2),
      rawMiBps: round(totalMiB / (rawMs / 1000), 1),
      appMiBps: round(totalMiB / (appMs / 1000), 1),
      rttMs: RTT_MS,
      runs,
    };
  },
};
