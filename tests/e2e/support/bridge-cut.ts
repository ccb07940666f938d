import type { Page, WebSocketRoute } from 'playwright-core';

/**
 * The page's connection to the Workdesk core (the web host's `/bridge` WebSocket), routed through
 * the test, to lose it as a user does when the core restarts or the socket drops: a call is held
 * on its way, then the connection is cut, so that call fails 'offline' naming no field (the
 * whole core, not the item), and new connections are refused until `restore`.
 */
export interface BridgeCut {
  /**
   * Holds the page's calls on `channel` from now until the cut (none reaches the core, so none
   * is answered before it: a view reading twice cannot get its item meanwhile); resolves once the
   * first is made. Several channels can be held at once, each by its own call.
   */
  hold(channel: string): Promise<void>;
  /** Cuts every open connection (the calls on their way fail) and refuses new ones. */
  cut(): Promise<void>;
  /**
   * Lets connections through again; resolves once the page has reconnected (it tries again each
   * second while it listens to the core's events), so that a call made then reaches the core
   * rather than a connection refused just before.
   */
  restore(): Promise<void>;
}

/** Routes the page's bridge; call before the page opens the app (routes apply to new sockets). */
export async function routeBridge(page: Page): Promise<BridgeCut> {
  let down = false;
  const held = new Map<string, () => void>();
  const open = new Set<WebSocketRoute>();
  let connected: (() => void) | undefined;
  await page.routeWebSocket(
    (url) => url.pathname === '/bridge',
    async (ws) => {
      if (down) {
        await ws.close({ code: 1011, reason: 'the core is not reachable' });
        return;
      }
      const server = ws.connectToServer();
      open.add(ws);
      connected?.();
      connected = undefined;
      ws.onClose(() => {
        open.delete(ws);
        void server.close();
      });
      // The core's answers and events reach the page as they come; the page's calls pass here.
      ws.onMessage((message) => {
        if (held.size && typeof message === 'string') {
          const { channel } = JSON.parse(message) as { channel?: string };
          const made = channel === undefined ? undefined : held.get(channel);
          if (made) {
            made();
            return;
          }
        }
        server.send(message);
      });
    },
  );
  return {
    hold(channel) {
      return new Promise<void>((made) => held.set(channel, made));
    },
    async cut() {
      down = true;
      held.clear();
      await Promise.all([...open].map((ws) => ws.close({ code: 1011, reason: 'the core is not reachable' })));
      open.clear();
    },
    restore() {
      if (!down) return Promise.resolve();
      down = false;
      return new Promise<void>((done) => (connected = done));
    },
  };
}
