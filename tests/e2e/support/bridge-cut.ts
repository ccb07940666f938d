import type { Page, WebSocketRoute } from 'playwright-core';

/**
 * The page's connection to the Workdesk core (the web host's `/bridge` WebSocket), routed through
 * the test, to lose it as a user does when the web host stops with its core, or the socket drops:
 * a call is held on its way, then the connection is cut, so that call fails 'offline' naming no
 * field (the whole core, not the item), and new connections are refused until `restore`. Or one
 * channel's calls fail so, the connection kept (`fail`).
 */
export interface BridgeCut {
  /**
   * Holds the page's calls on `channel` from now until the cut (none reaches the core, so none
   * is answered before it: a view reading twice cannot get its item meanwhile); resolves once the
   * first is made. Several channels can be held at once, each by its own call.
   */
  hold(channel: string): Promise<void>;
  /**
   * Answers the page's calls on `channel` itself from now until `heal`, each with the error a
   * lost connection gives ('offline', naming no field), while the connection stays: nothing
   * reads again by itself. Resolves once the first is answered.
   */
  fail(channel: string): Promise<void>;
  /** Lets the calls on `channel` through again, after `fail`. */
  heal(channel: string): void;
  /**
   * Cuts every open connection (the calls on their way fail) and refuses new ones. With `host:
   * 'gone'` the page's own address answers nothing either (the web host exited); else it answers
   * as a host started again does.
   */
  cut(options?: { host?: 'gone' | 'restarted' }): Promise<void>;
  /**
   * Lets connections through again; resolves once the page has reconnected (it tries again with
   * a backoff of up to 10 s while it listens to the core's events), so that a call made then
   * reaches the core rather than a connection refused just before.
   */
  restore(): Promise<void>;
}

/** Routes the page's bridge; call before the page opens the app (routes apply to new sockets). */
export async function routeBridge(page: Page): Promise<BridgeCut> {
  let down = false;
  let hostGone = false;
  const held = new Map<string, () => void>();
  /** The channels failed, each with what to call at its next failure. */
  const failing = new Map<string, () => void>();
  const open = new Set<WebSocketRoute>();
  let connected: (() => void) | undefined;
  // The page asks its own address whether the host still runs once a retry is refused.
  await page.route(
    (url) => url.pathname === '/',
    (route) => (hostGone ? route.abort('connectionrefused') : route.fallback()),
  );
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
        if ((held.size || failing.size) && typeof message === 'string') {
          const { id, channel } = JSON.parse(message) as { id?: number; channel?: string };
          const made = channel === undefined ? undefined : held.get(channel);
          if (made) {
            made();
            return;
          }
          const failed = channel === undefined ? undefined : failing.get(channel);
          if (failed) {
            failing.set(channel!, () => undefined);
            const error = { type: 'offline', message: 'The connection to the Workdesk core was lost.' };
            ws.send(JSON.stringify({ id, result: { ok: false, error } }));
            failed();
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
    fail(channel) {
      return new Promise<void>((answered) => failing.set(channel, answered));
    },
    heal(channel) {
      failing.delete(channel);
    },
    async cut(options) {
      down = true;
      hostGone = options?.host === 'gone';
      held.clear();
      await Promise.all([...open].map((ws) => ws.close({ code: 1011, reason: 'the core is not reachable' })));
      open.clear();
    },
    restore() {
      if (!down) return Promise.resolve();
      down = false;
      hostGone = false;
      return new Promise<void>((done) => (connected = done));
    },
  };
}
