import type { Page, WebSocketRoute } from 'playwright-core';

/**
 * The page's connection to the Workdesk core (the web host's `/bridge` WebSocket), routed through
 * the test, to lose it as a user does when the core restarts or the socket drops: a call is held
 * on its way, then the connection is cut, so that call fails 'offline' naming no field (the
 * whole core, not the item), and new connections are refused until `restore`.
 */
export interface BridgeCut {
  /** Holds the page's next call on `channel` (it never reaches the core); resolves once it is made. */
  holdNext(channel: string): Promise<void>;
  /** Cuts every open connection (the calls on their way fail) and refuses new ones. */
  cut(): Promise<void>;
  /** Lets connections through again; the page reconnects on its next call (or within a second). */
  restore(): void;
}

/** Routes the page's bridge; call before the page opens the app (routes apply to new sockets). */
export async function routeBridge(page: Page): Promise<BridgeCut> {
  let down = false;
  let held: { channel: string; made: () => void } | undefined;
  const open = new Set<WebSocketRoute>();
  await page.routeWebSocket(
    (url) => url.pathname === '/bridge',
    async (ws) => {
      if (down) {
        await ws.close({ code: 1011, reason: 'the core is not reachable' });
        return;
      }
      const server = ws.connectToServer();
      open.add(ws);
      ws.onClose(() => {
        open.delete(ws);
        void server.close();
      });
      // The core's answers and events reach the page as they come; the page's calls pass here.
      ws.onMessage((message) => {
        if (held && typeof message === 'string') {
          const { channel } = JSON.parse(message) as { channel?: string };
          if (channel === held.channel) {
            held.made();
            held = undefined;
            return;
          }
        }
        server.send(message);
      });
    },
  );
  return {
    holdNext(channel) {
      return new Promise<void>((made) => (held = { channel, made }));
    },
    async cut() {
      down = true;
      held = undefined;
      await Promise.all([...open].map((ws) => ws.close({ code: 1011, reason: 'the core is not reachable' })));
      open.clear();
    },
    restore() {
      down = false;
    },
  };
}
