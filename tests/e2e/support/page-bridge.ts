import type { Page } from 'playwright-core';

/**
 * Calls the core from inside the page, over the same WebSocket bridge and per-run secret the
 * renderer uses (the account views belong to the renderer; this drives the contract itself).
 */
export async function invoke(
  page: Page,
  channel: string,
  arg: unknown,
): Promise<{ ok: boolean; value?: unknown; error?: unknown }> {
  return page.evaluate(
    ({ channel, arg }) =>
      new Promise((resolve, reject) => {
        // Runs in the page; this file is type-checked without the DOM library.
        const { location } = globalThis as unknown as { location: { hash: string; host: string } };
        const secret = new URLSearchParams(location.hash.slice(1)).get('secret') ?? '';
        const socket = new WebSocket(`ws://${location.host}/bridge?secret=${encodeURIComponent(secret)}`);
        socket.onerror = () => reject(new Error('bridge refused'));
        socket.onopen = () => socket.send(JSON.stringify({ id: 1, channel, arg }));
        socket.onmessage = (message) => {
          const data = JSON.parse(String(message.data)) as { id?: number; result?: unknown };
          if (data.id !== 1) return;
          socket.close();
          resolve(data.result as { ok: boolean });
        };
      }),
    { channel, arg },
  );
}
