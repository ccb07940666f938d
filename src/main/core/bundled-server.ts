import { buildService } from '../../server/app';
import { SEED_IDS } from '../../server/seed/index';
import type { LocalServerFactory } from './local-service';

/**
 * The bundled Work Management Service (src/server) as the embedded default runs it: on
 * 127.0.0.1, a port the OS picks, the one generated token, the demo organization when asked.
 * The demo's administrator is the user the app acts as.
 */
export const startBundledServer: LocalServerFactory = async ({ dbPath, filesDir, token, seedDemo }) => {
  const { app } = buildService({ dbPath, filesDir, tokens: [token], ...(seedDemo ? { seed: 'demo' } : {}) });
  try {
    const address = await app.listen({ host: '127.0.0.1', port: 0 });
    return {
      baseUrl: `${address.replace(/\/+$/, '')}/2.0`,
      ...(seedDemo ? { demoUserId: SEED_IDS.users.admin } : {}),
      // The session closes the account's engine first; sockets its HTTP client keeps alive
      // would otherwise hold the close open indefinitely.
      close: async () => {
        const closing = app.close();
        app.server.closeAllConnections();
        await closing;
      },
    };
  } catch (err) {
    await app.close();
    throw err;
  }
};
