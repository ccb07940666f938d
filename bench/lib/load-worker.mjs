import { Agent, request } from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';

// Plain JavaScript: Node 20 worker threads do not inherit tsx's TypeScript loader.
/**
 * Runs in a worker thread so the load does not share the event loop with the servers under
 * test: `concurrency` keep-alive connections, each sending requests back to back until
 * `maxRequests` have been sent or `maxMs` has passed.
 */
/** @param {import('./load').LoadOptions} o @returns {Promise<import('./load').RawLoad>} */
async function run(o) {
  const agent = new Agent({ keepAlive: true, maxSockets: o.concurrency });
  const url = new URL(o.url);
  /** @type {number[]} */
  const latencies = [];
  let sent = 0;
  let errors = 0;
  /** @type {Record<string, number>} */
  const statuses = {};
  const start = performance.now();
  const deadline = start + o.maxMs;
  const one = () =>
    new Promise((resolve) => {
      const t0 = performance.now();
      const req = request(
        {
          agent,
          host: url.hostname,
          port: url.port,
          path: url.pathname + url.search,
          method: o.method,
          headers: { ...o.headers, ...(o.body ? { 'content-type': 'application/json' } : {}) },
        },
        (res) => {
          res.on('data', () => undefined);
          res.on('end', () => {
            latencies.push(performance.now() - t0);
            const code = String(res.statusCode);
            statuses[code] = (statuses[code] ?? 0) + 1;
            if ((res.statusCode ?? 0) >= 400) errors++;
            resolve();
          });
        },
      );
      req.on('error', () => {
        errors++;
        resolve();
      });
      if (o.body) req.write(o.body);
      req.end();
    });
  const worker = async () => {
    while (sent < o.maxRequests && performance.now() < deadline) {
      sent++;
      await one();
    }
  };
  await Promise.all(Array.from({ length: o.concurrency }, worker));
  const elapsedMs = performance.now() - start;
  agent.destroy();
  return { latencies, errors, statuses, elapsedMs };
}

void run(workerData).then((result) => parentPort?.postMessage(result));
