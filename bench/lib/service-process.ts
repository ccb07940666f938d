// The service with a generated workspace (src/server/seed/generate.ts, fixed seed) in a child
// process, optionally behind the fault proxy adding a round trip: as a remote service would be,
// so the measuring process's CPU time and memory are the client's alone.
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createFileSecretStore } from '../../src/main/core/accounts/secret-store';
import { createJsonSettingsStore } from '../../src/main/core/accounts/settings-store';
import { DEFAULT_TOKEN_HEADER } from '../../src/shared/ipc/accounts';
import { DEFAULT_SETTINGS } from '../../src/shared/ipc/settings';

export interface WorkspaceSize {
  projects: number;
  tasks: number;
  messagesPerTask: number;
  seed: number;
}

/** What the child reports once its service listens. */
interface ServiceInfo {
  /** Through the proxy (when `delayMs` was given), else the service itself; ends with `/2.0`. */
  baseUrl: string;
  /** The service itself. */
  directUrl: string;
  token: string;
  /** The user clients act as (the seed's administrator). */
  userId: string;
  projectIds: string[];
  taskIds: string[];
  messageCount: number;
}

export interface ServiceProcess extends ServiceInfo {
  /** Requests the proxy received so far (0 without a proxy). */
  received(): Promise<number>;
  /**
   * Comments on every (1/fraction)-th task, as a colleague's work on the service would (it moves
   * recentActivityMoment); resolves with the number of tasks changed.
   */
  changeTasks(fraction: number): Promise<number>;
  /** Sets the round trip the proxy adds from now on (a proxy must have been started). */
  setDelay(ms: number): Promise<void>;
  close(): Promise<void>;
}

/** The connection a core under measurement uses to reach the service (through the proxy). */
export function connectionOf(service: ServiceProcess, timeoutMs: number) {
  return { baseUrl: service.baseUrl, token: service.token, userId: service.userId, timeoutMs };
}

type FromChild =
  | ({ type: 'ready' } & ServiceInfo)
  | { type: 'received'; count: number }
  | { type: 'changed'; tasks: number }
  | { type: 'delaySet' };
type ToChild =
  | { type: 'received' }
  | { type: 'change'; fraction: number }
  | { type: 'delay'; ms: number }
  | { type: 'stop' };

const CHILD_ENV = 'WORKDESK_BENCH_SERVICE_CHILD';

export function startServiceProcess(size: WorkspaceSize, delayMs?: number): Promise<ServiceProcess> {
  const child = fork(fileURLToPath(import.meta.url), [], {
    env: { ...process.env, [CHILD_ENV]: JSON.stringify({ size, delayMs }) },
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = <T extends FromChild['type']>(type: T) =>
    new Promise<Extract<FromChild, { type: T }>>((resolve, reject) => {
      const onMessage = (m: FromChild) => {
        if (m.type !== type) return;
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(m as Extract<FromChild, { type: T }>);
      };
      const onExit = (code: number | null) => reject(new Error(`service process exited with ${code}`));
      child.on('message', onMessage);
      child.once('exit', onExit);
    });
  return next('ready').then(({ type: _ready, ...info }) => ({
    ...info,
    async received() {
      child.send({ type: 'received' } satisfies ToChild);
      return (await next('received')).count;
    },
    async changeTasks(fraction) {
      child.send({ type: 'change', fraction } satisfies ToChild);
      return (await next('changed')).tasks;
    },
    async setDelay(ms) {
      child.send({ type: 'delay', ms } satisfies ToChild);
      await next('delaySet');
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.send({ type: 'stop' } satisfies ToChild);
      }),
  }));
}

async function serve(size: WorkspaceSize, delayMs: number | undefined): Promise<void> {
  const { buildService } = await import('../../src/server/app');
  const { generateWorkspace } = await import('../../src/server/seed/generate');
  const { SEED_IDS } = await import('../../src/server/seed/index');
  const { startFaultProxy } = await import('../../tests/support/fault-proxy');
  const dir = mkdtempSync(join(tmpdir(), 'bench-service-'));
  const token = 'bench-token';
  const service = buildService({
    dbPath: join(dir, 'service.sqlite'),
    filesDir: join(dir, 'files'),
    tokens: [token],
    seed: 'empty',
  });
  const ws = generateWorkspace(service.db, size);
  const directUrl = `${await service.app.listen({ port: 0, host: '127.0.0.1' })}/2.0`;
  const proxy =
    delayMs === undefined ? undefined : await startFaultProxy({ target: directUrl, faults: { delayMs } });
  const send = (m: FromChild) => process.send?.(m);
  send({
    type: 'ready',
    baseUrl: proxy?.baseUrl ?? directUrl,
    directUrl,
    token,
    userId: SEED_IDS.users.admin,
    projectIds: ws.projectIds,
    taskIds: ws.taskIds,
    messageCount: ws.messageCount,
  });
  process.on('message', (m: ToChild) => {
    if (m.type === 'received') {
      send({ type: 'received', count: proxy?.stats().received ?? 0 });
      return;
    }
    if (m.type === 'delay') {
      if (!proxy) throw new Error('setDelay: the service was started without a proxy');
      proxy.set({ delayMs: m.ms });
      send({ type: 'delaySet' });
      return;
    }
    if (m.type === 'change') {
      void (async () => {
        const step = Math.round(1 / m.fraction);
        const chosen = ws.taskIds.filter((_, i) => i % step === 0);
        for (const id of chosen) {
          await fetch(`${directUrl}/task/${id}/comment`, {
            method: 'POST',
            headers: { 'svc-api-token': token, 'content-type': 'application/json' },
            body: JSON.stringify({ userId: SEED_IDS.users.admin, message: 'benchmark change' }),
          });
        }
        send({ type: 'changed', tasks: chosen.length });
      })();
      return;
    }
    void (async () => {
      await proxy?.close();
      const closing = service.app.close();
      service.app.server.closeAllConnections();
      await closing;
      rmSync(dir, { recursive: true, force: true });
      process.exit(0);
    })();
  });
  // The parent died without stopping us: do not linger.
  process.on('disconnect', () => process.exit(0));
}

const childArgs = process.env[CHILD_ENV];
if (childArgs) {
  const { size, delayMs } = JSON.parse(childArgs) as { size: WorkspaceSize; delayMs?: number };
  void serve(size, delayMs);
}

/**
 * Writes a data folder whose one account is `service` (settings and token), as the user's
 * would be after adding it: what the start-up and IPC benches open a host on.
 */
export function writeBenchAccount(
  dataDir: string,
  service: { baseUrl: string; userId: string; token: string },
): void {
  createJsonSettingsStore(join(dataDir, 'settings.json')).write({
    ...DEFAULT_SETTINGS,
    accounts: [
      {
        id: 'bench',
        kind: 'remote',
        label: 'Bench service',
        baseUrl: service.baseUrl,
        tokenHeader: DEFAULT_TOKEN_HEADER,
        userId: service.userId,
      },
    ],
    activeAccountId: 'bench',
  });
  createFileSecretStore(join(dataDir, 'secrets.json')).set('bench', service.token);
}
