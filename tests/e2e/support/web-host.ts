import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCore, type Core } from '../../../src/main/core/core';
import { heldIn, placeHandlers } from '../../../src/main/core/handlers/places';
import { createDispatch } from '../../../src/main/core/dispatch';
import { EventHub } from '../../../src/main/core/event-hub';
import { appHandlers } from '../../../src/main/core/handlers/app';
import { mergeHandlerMaps } from '../../../src/main/core/handlers/registry';
import { createEngine } from '../../../src/main/core/engine';
import { startWebHost, type WebHost } from '../../../src/main/core/web-host';
import { startService, type RunningService } from '../../support/service';
import { startFaultProxy, type FaultProxy } from '../../support/fault-proxy';
import { startRelay, type Relay } from './relay';
import { TASK_DELETE_HOLD_MS } from '../../../src/shared/ipc/tasks-write';

const ROOT = join(import.meta.dirname, '..', '..', '..');

export interface AppOptions {
  /** Start a seeded service and connect the core to it (default: a bare core, no account). */
  service?: {
    seed?: 'demo' | 'empty';
    dataDir?: string;
    /** Fills the service's (fresh) data folder before it first starts, e.g. with a generated workspace. */
    prepare?(dataDir: string): void;
    /** Put a fault proxy between the app and the service (`RunningApp.faults`). */
    faults?: boolean;
  };
}

export interface RunningApp {
  core: Core;
  host: WebHost;
  /** The service behind the relay, while it runs. */
  service: RunningService | undefined;
  /**
   * With `service.faults`: the proxy the app reaches the service through, to make it
   * unreachable (dropBefore) or refuse some requests only, while `api` still reaches it.
   */
  faults: FaultProxy | undefined;
  /** Stops the service (the core then finds it offline); its data stays for `restartService`. */
  stopService(): Promise<void>;
  /** Starts the service again on the same data, behind the same address. */
  restartService(): Promise<void>;
  /** Calls the service directly (not through the app), as another client would. */
  api<T = unknown>(path: string, init?: { method?: string; body?: unknown }): Promise<T>;
  close(): Promise<void>;
}

/**
 * The web host in-process, serving the renderer built by `npm run test:e2e`. With `service`, a
 * seeded Work Management Service runs behind a relay on a fixed port, and the core syncs from it
 * (first sync done before this resolves).
 */
export async function startApp(options: AppOptions = {}): Promise<RunningApp> {
  const rendererDir = join(ROOT, 'out', 'renderer');
  if (!options.service) {
    const core = await createCore({ version: 'test', transport: 'web' });
    const host = await startWebHost({ core, rendererDir });
    const none = async (): Promise<never> => {
      throw new Error('startApp: started without a service');
    };
    return {
      core,
      host,
      service: undefined,
      faults: undefined,
      stopService: none,
      restartService: none,
      api: none,
      async close() {
        await host.close();
        await core.close();
      },
    };
  }

  const seed = options.service.seed ?? 'demo';
  const serviceDir = options.service.dataDir ?? mkdtempSync(join(tmpdir(), 'workdesk-e2e-service-'));
  options.service.prepare?.(serviceDir);
  const cacheDir = mkdtempSync(join(tmpdir(), 'workdesk-e2e-cache-'));
  const token = 'e2e-token';
  let service: RunningService | undefined = await startService({ seed, dataDir: serviceDir, token });
  let faults: FaultProxy | undefined;
  /** The port the relay sends to: the service, or a fault proxy in front of it. */
  const front = async (running: RunningService): Promise<number> => {
    if (!options.service?.faults) return servicePort(running);
    await faults?.close();
    faults = await startFaultProxy({ target: running.baseUrl });
    return Number(new URL(faults.origin).port);
  };
  const relay: Relay = await startRelay(await front(service));
  const baseUrl = `http://127.0.0.1:${relay.port}/2.0`;

  const core = await createCoreWithOutbox({
    dataDir: cacheDir,
    connection: { baseUrl, token, userId: service.users.actingUserId, timeoutMs: 5000 },
  });
  const first = await core.dispatch('sync.now', { wait: true });
  if (!first.ok) throw new Error(`first sync failed: ${first.error.message}`);
  const host = await startWebHost({ core, rendererDir });

  return {
    core,
    host,
    get service() {
      return service;
    },
    get faults() {
      return faults;
    },
    async stopService() {
      relay.setTarget(undefined);
      await service?.close();
      service = undefined;
    },
    async restartService() {
      service = await startService({ seed, dataDir: serviceDir, token });
      relay.setTarget(await front(service));
    },
    async api<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
      if (!service) throw new Error('the service is stopped');
      const response = await fetch(`${service.baseUrl}${path}`, {
        method: init.method ?? 'GET',
        headers: { 'svc-api-token': token, 'content-type': 'application/json' },
        ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${response.status} ${text}`);
      return (text && text !== 'OK' ? JSON.parse(text) : text) as T;
    },
    async close() {
      await host.close();
      await core.close();
      await service?.close();
      await faults?.close();
      await relay.close();
      rmSync(cacheDir, { recursive: true, force: true });
      if (!options.service?.dataDir) rmSync(serviceDir, { recursive: true, force: true });
    },
  };
}

/**
 * The core the app runs for an account: read handlers, sync, and the outbox with its write
 * handlers. Tuned for tests: a quick probe while offline, so a restarted service is found soon.
 */
async function createCoreWithOutbox(options: {
  dataDir: string;
  connection: { baseUrl: string; token: string; userId: string; timeoutMs: number };
}): Promise<Core> {
  const engine = await createEngine({
    dataDir: options.dataDir,
    connection: options.connection,
    sync: { intervalMs: 30_000, probeIntervalMs: 500 },
    // The app's undo window for a task delete, as `accounts/host-session.ts` gives it.
    outbox: { backoff: { baseMs: 300, maxMs: 2_000 }, tickMs: 1_000, undoHoldMs: TASK_DELETE_HOLD_MS },
  });
  const events = new EventHub();
  const forward = engine.events.onAny((name, payload) => events.emit(name, payload as never));
  const handlers = mergeHandlerMaps([
    appHandlers({ version: 'test', transport: 'web' }),
    // The window's last place, kept in the account's folder as `core.ts` keeps it.
    placeHandlers({
      dir: options.dataDir,
      held: heldIn(engine.cache),
      realIdOf: (id) => engine.outbox.realIdOf(id),
      log: () => {},
    }),
    engine.handlers,
  ]);
  return {
    dispatch: createDispatch(handlers),
    events,
    engine,
    async close() {
      forward();
      await engine.close();
    },
  };
}

function servicePort(service: RunningService): number {
  return Number(new URL(service.baseUrl).port);
}
