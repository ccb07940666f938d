// The core's side of the core in a process of its own: it runs the host session (settings,
// accounts, the active account's core) and answers the host's messages. It reaches the host
// only for the keychain and system notifications (`HostRequest`).
import { join } from 'node:path';
import type { IpcResult } from '../../../shared/ipc/channel';
import type { LocalFile } from '../../../shared/ipc/attachments';
import { startHostSession } from '../accounts/host-session';
import { createJsonSettingsStore } from '../accounts/settings-store';
import type { SecretStore } from '../accounts/secret-store';
import type { Session } from '../accounts/session';
import type { LocalServerFactory } from '../local-service';
import { HostMessage, readMessage, type CoreStart, type HostRequest, type Link } from './messages';

export interface CoreChildOptions {
  startServer: LocalServerFactory;
  log?(message: string): void;
  /** Called once the session is closed on the host's request (the entry leaves the process). */
  exit(): void;
}

/** Serves one host over `link` until it asks to close. */
export function runCoreChild(link: Link, options: CoreChildOptions): void {
  const log = options.log ?? ((message: string) => console.error(message));
  let session: Session | undefined;
  let starting: Promise<void> | undefined;

  const reply = (id: number, result: IpcResult<unknown>): void => link.send({ type: 'result', id, result });
  const ask = (request: HostRequest): void => link.send({ type: 'host', request });

  link.onMessage((raw) => {
    const read = readMessage(HostMessage, raw);
    if (!read.ok) {
      log(`core process: a message from the host was dropped (${read.error})`);
      const id = (raw as { id?: unknown } | null)?.id;
      if (typeof id === 'number' && Number.isInteger(id) && id >= 0)
        reply(id, { ok: false, error: { type: 'invalid-argument', message: read.error } });
      return;
    }
    const message = read.message;
    if (message.type === 'start') {
      if (starting) {
        log('core process: a second start was ignored');
        return;
      }
      starting = start(message.start).then(
        () => {
          link.send({ type: 'ready' });
          // The window loads its page now: its first views are read from the cache meanwhile.
          session?.readAhead();
        },
        (err: unknown) =>
          link.send({ type: 'failed', message: err instanceof Error ? err.message : String(err) }),
      );
      return;
    }
    void (async () => {
      await starting;
      if (!session) {
        reply(message.id, { ok: false, error: { type: 'offline', message: 'The core has not started' } });
        return;
      }
      switch (message.type) {
        case 'call':
          reply(message.id, await session.dispatch(message.channel, message.arg));
          return;
        case 'stage':
          reply(message.id, await session.stageDroppedPaths(message.paths));
          return;
        case 'localPath':
          reply(message.id, await localPath(session, message.arg));
          return;
        case 'close':
          await session.close();
          session = undefined;
          reply(message.id, { ok: true, value: null });
          options.exit();
          return;
      }
    })();
  });

  async function start(init: CoreStart): Promise<void> {
    const created = await startHostSession({
      dataDir: init.dataDir,
      // The same file the host would keep; the host writes only its window's place there.
      settings: createJsonSettingsStore(join(init.dataDir, 'settings.json')),
      secrets: mirroredSecrets(init.secrets, ask),
      startServer: options.startServer,
      version: init.version,
      transport: init.transport,
      log,
      notifier: { notify: (n) => ask({ op: 'notify', ...n }) },
    });
    created.events.onAny((name, payload) => link.send({ type: 'event', name, payload }));
    session = created;
  }
}

/** The file's path on disk, once the active core made it local. */
async function localPath(
  session: Session,
  arg: { fileId: string; name: string },
): Promise<IpcResult<string>> {
  const fetched = await session.dispatch('attachments.fetch', arg);
  if (!fetched.ok) return fetched;
  const downloads = session.activeCore()?.engine?.downloads;
  if (!downloads) return { ok: false, error: { type: 'offline', message: 'No workspace is open' } };
  return { ok: true, value: downloads.pathOf(fetched.value as LocalFile) };
}

/**
 * The child's copy of the host's secrets: read here (the session reads them synchronously),
 * every change sent to the host, which keeps them (the desktop app encrypts with the keychain).
 */
function mirroredSecrets(init: CoreStart['secrets'], ask: (request: HostRequest) => void): SecretStore {
  const values = new Map(init.entries);
  return {
    protection: init.protection,
    get: (key) => values.get(key),
    set(key, value) {
      values.set(key, value);
      ask({ op: 'secret.set', key, value });
    },
    delete(key) {
      values.delete(key);
      ask({ op: 'secret.delete', key });
    },
    notices: () => init.notices,
    remember: (on) => ask({ op: 'secret.remember', on }),
  };
}
