import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { createCore } from '../core';
import { startLocalService, type LocalServerFactory } from '../local-service';
import { createProbe } from './probe';
import type { Notifier } from '../notifier';
import { startSession, type Session } from './session';
import type { SecretStore } from './secret-store';
import type { SettingsStore } from './settings-store';
import { downloadCapBytes } from './session';
import { TASK_DELETE_HOLD_MS } from '../../../shared/ipc/tasks-write';

export interface HostSessionOptions {
  /** The per-user data folder (Electron's userData, or the web host's `--data`). */
  dataDir: string;
  settings: SettingsStore;
  secrets: SecretStore;
  startServer: LocalServerFactory;
  version: string;
  transport: 'electron' | 'web';
  log(message: string): void;
  notifier?: Notifier;
}

/**
 * The session both hosts run: the Electron shell (src/main/index.ts) and the web host
 * (src/main/web.ts) differ only in where settings and secrets are kept.
 */
export function startHostSession(options: HostSessionOptions): Promise<Session> {
  const { dataDir, secrets, log } = options;
  return startSession({
    dataDir,
    settings: options.settings,
    secrets,
    probe: createProbe(),
    startLocalService: () =>
      startLocalService({
        dataDir: join(dataDir, 'local-service'),
        secrets,
        startServer: options.startServer,
      }),
    openCore: ({ connection, dataDir: accountDir, serviceClock }) =>
      createCore({
        version: options.version,
        transport: options.transport,
        log,
        connection,
        dataDir: accountDir,
        engine: {
          // The session starts the first pull once the window's first views are read.
          autoStart: false,
          sync: { intervalMs: options.settings.read().preferences.syncIntervalSeconds * 1000 },
          downloads: { maxBytes: downloadCapBytes(options.settings.read().preferences) },

          // Read at each check, so a change of the setting applies to the next send.
          outbox: {
            conflictPolicy: () => options.settings.read().preferences.conflictPolicy,
            // A task delete waits this long before it is sent, so its Undo can withdraw it.
            undoHoldMs: TASK_DELETE_HOLD_MS,
          },
          serviceClock,
        },
      }),
    newId: randomUUID,
    log,
    // The next start's host answers the window's first reads from it while the core loads.
    firstScreen: { version: options.version },
    ...(options.notifier ? { notifier: options.notifier } : {}),
  });
}
