import { Worker } from 'node:worker_threads';

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

/** A loopback load generator with a bounded request count and time, run in a worker thread. */
export function load(options: LoadOptions): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./load-worker.mjs', import.meta.url), {
      workerData: options,
    });
    worker.once('message', (result: LoadResult) => {
      resolve(result);
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}
