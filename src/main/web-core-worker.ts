// The web host's core, on the worker thread src/main/web-core.ts starts: it opens the host's
// session (settings, accounts, the active account's core: src/main/web-session.ts) and answers
// the host's messages. See web-core.ts for why it runs here.
import { parentPort, workerData } from 'node:worker_threads';
import type { IpcResult } from '../shared/ipc/channel';
import { startBundledServerOnDemand } from './core/bundled-server-on-demand';
import type { Session } from './core/accounts/session';
import { openWebSession } from './web-session';
import type { FromWebCore, ToWebCore, WebCoreStart } from './web-core';

const port = parentPort;
if (!port) throw new Error("web-core-worker.ts runs as the web host's worker (src/main/web-core.ts)");
const { dataDir, version } = workerData as WebCoreStart;
const send = (message: FromWebCore): void => port.postMessage(message);
const describe = (err: unknown): string => (err instanceof Error ? (err.stack ?? err.message) : String(err));

const opening: Promise<Session> = openWebSession({
  dataDir,
  version,
  startServer: startBundledServerOnDemand,
  log: (message) => console.error(message),
});
opening.then(
  (session) => {
    session.events.onAny((name, payload) => send({ type: 'event', name, payload }));
    send({ type: 'ready' });
  },
  (err: unknown) => send({ type: 'failed', message: describe(err) }),
);

port.on('message', (message: ToWebCore) => {
  switch (message.type) {
    case 'call': {
      const { id, channel, arg } = message;
      void opening
        .then((session) => session.dispatch(channel, arg))
        .then(
          (result) => send({ type: 'result', id, result }),
          (err: unknown) => {
            const result: IpcResult<never> = {
              ok: false,
              error: { type: 'internal', message: describe(err) },
            };
            send({ type: 'result', id, result });
          },
        );
      return;
    }
    case 'readAhead':
      void opening.then(
        (session) => session.readAhead(),
        () => undefined,
      );
      return;
    case 'close':
      void opening
        .then(
          (session) => session.close(),
          () => undefined,
        )
        .catch((err: unknown) => console.error(`Closing the workspace failed: ${describe(err)}`))
        .finally(() => send({ type: 'closed' }));
      return;
  }
});
