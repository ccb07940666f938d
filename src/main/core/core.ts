import { EventHub } from './event-hub';
import { createDispatch, type Dispatch } from './dispatch';
import { mergeHandlerMaps } from './handlers/registry';
import { appHandlers } from './handlers/app';
import { heldIn, placeHandlers } from './handlers/places';
import { createEngine, type Engine, type EngineConnection, type EngineOptions } from './engine';
import { stageDroppedPaths } from './handlers/attachments';
import type { StageResult } from '../../shared/ipc/attachments';

export interface CoreOptions {
  version: string;
  transport: 'electron' | 'web';
  log?: (message: string) => void;
  /** The account to serve; without it only the app channels answer. */
  connection?: EngineConnection;
  /** Folder of the account caches (required with `connection`). */
  dataDir?: string;

  /** Passed through to the engine (tests: fetch, clock, sync and outbox tuning, the conflict policy). */
  engine?: Omit<EngineOptions, 'dataDir' | 'connection' | 'log'>;
}

export interface Core {
  dispatch: Dispatch;
  events: EventHub;
  /** The account engine when a connection was given (its cache, client and sync). */
  engine: Engine | null;
  /**
   * Copies files the user dropped or picked into the spool, by paths the Electron shell resolved
   * (`STAGE_DROPPED_FILES`); absent without an account. Not reachable through `dispatch`.
   */
  stageDroppedPaths?(paths: readonly string[]): Promise<StageResult>;
  /** Closes the account's engine; `beforeDbClose` as `Engine.close` has it. */
  close(beforeDbClose?: () => Promise<void>): Promise<void>;
}

/**
 * The composition root of the core, shared by the Electron shell and the web host. It holds
 * no electron import, so everything it builds runs under plain Node.
 */
export async function createCore(options: CoreOptions): Promise<Core> {
  const events = new EventHub(options.log);
  if (options.connection && !options.dataDir)
    throw new Error('createCore: dataDir is required with a connection');
  const engine =
    options.connection && options.dataDir
      ? await createEngine({
          ...options.engine,
          dataDir: options.dataDir,
          connection: options.connection,
          ...(options.log ? { log: options.log } : {}),
        })
      : null;
  const forward = engine?.events.onAny((name, payload) => events.emit(name, payload as never));
  const handlers = mergeHandlerMaps([
    appHandlers({ version: options.version, transport: options.transport }),
    placeHandlers(
      engine && options.dataDir
        ? {
            dir: options.dataDir,
            held: heldIn(engine.cache),
            realIdOf: (id) => engine.outbox.realIdOf(id),
            log: options.log ?? (() => {}),
          }
        : undefined,
    ),
    ...(engine ? [engine.handlers] : []),
  ]);
  return {
    dispatch: createDispatch(handlers, options.log),
    events,
    engine,
    ...(engine
      ? { stageDroppedPaths: (paths: readonly string[]) => stageDroppedPaths(engine.files, paths) }
      : {}),
    async close(beforeDbClose) {
      forward?.();
      await engine?.close(beforeDbClose);
    },
  };
}
