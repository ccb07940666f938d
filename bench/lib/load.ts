import { Worker } from 'node:worker_threads';
import { percentile, sorted } from './stats';

export interface LoadOptions {
  url: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  headers?: Record<string, string>;
  /** JSON text sent with every request. */
  body?: string;
  /** Requests in flight at once (keep-alive connections). */
  concurrency: number;
  /** Stop after this many requests... */
  maxRequests: number;
  /** ...or after this long, whichever comes first. */
  maxMs: number;
}

export interface LoadResult {
  requests: number;
  errors: number;
  statuses: Record<string, number>;
  elapsedMs: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

/** What the worker measures; the figures are computed here, with the shared statistics. */
export interface RawLoad {
  latencies: number[];
  errors: number;
  statuses: Record<string, number>;
  elapsedMs: number;
}

/** A loopback load generator with a bounded request count and time, run in a worker thread. */
export function load(options: LoadOptions): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./load-worker.mjs', import.meta.url), {
      workerData: options,
    });
    worker.once('message', (raw: RawLoad) => {
      const latencies = sorted(raw.latencies);
      resolve({
        requests: latencies.length,
        errors: raw.errors,
        statuses: raw.statuses,
        elapsedMs: raw.elapsedMs,
        rps: (latencies.length / raw.elapsedMs) * 1000,
        p50Ms: percentile(latencies, 50),
        p99Ms: percentile(latencies, 99),
        maxMs: latencies[latencies.length - 1] ?? Number.NaN,
      });
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}
