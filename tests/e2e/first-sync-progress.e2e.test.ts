// A new account's first sync, as the user sees it: while the project task lists are still on the
// way (held back by a proxy until the test lets them through), My Work already lists the user's
// tasks and the status bar says how far the sync has come and that My Work is ready; a screen
// reader hears the same words from a polite live region; once the sync ends the progress goes.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../support/service';
import { screenshot } from './support/browser';
import { sessionSuite } from './support/suite';

/** A proxy in front of `target` that holds every project task list until `release`. */
async function holdingProxy(target: string) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const path = (req.url ?? '/').replace(/^\/2\.0/, '');
        if (req.method === 'GET' && /^\/project\/[^/?]+\/tasks(\?|$)/.test(path)) await released;
        const headers = Object.fromEntries(
          Object.entries(req.headers).filter(
            (e): e is [string, string] =>
              typeof e[1] === 'string' && e[0] !== 'host' && e[0] !== 'content-length',
          ),
        );
        const body = chunks.length ? Buffer.concat(chunks) : undefined;
        try {
          const upstream = await fetch(`${target}${path}`, {
            method: req.method ?? 'GET',
            headers,
            ...(body && req.method !== 'GET' ? { body } : {}),
          });
          res.writeHead(upstream.status, {
            'content-type': upstream.headers.get('content-type') ?? 'text/plain',
          });
          res.end(Buffer.from(await upstream.arrayBuffer()));
        } catch {
          res.writeHead(502).end();
        }
      })();
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()));
  const port = (server.address() as { port: number }).port;
  return {
    baseUrl: `http://127.0.0.1:${port}/2.0`,
    release,
    close: () => {
      release();
      server.closeAllConnections();
      return new Promise<void>((done) => server.close(() => done()));
    },
  };
}

describe('the first sync of a new account', () => {
  let svc: RunningService;
  let proxy: Awaited<ReturnType<typeof holdingProxy>>;
  beforeAll(async () => {
    svc = await startService({ seed: 'demo', token: 'first-sync-service-token' });
    proxy = await holdingProxy(svc.baseUrl);
  });
  afterAll(async () => {
    await proxy?.close();
    await svc?.close();
  });
  const suite = sessionSuite({ viewport: { width: 1280, height: 800 } });

  it('shows My Work and the progress while the project lists stream in, then hides the progress', async () => {
    const { app, page, ui } = suite;
    const added = await app.session.dispatch('accounts.add', {
      label: 'New here',
      baseUrl: proxy.baseUrl,
      token: svc.token,
      userId: svc.users.actingUserId,
    });
    expect(added.ok).toBe(true);
    const id = added.ok ? (added.value as { id: string }).id : '';
    expect(await app.session.dispatch('accounts.switch', { id })).toMatchObject({ ok: true });

    const progress = ui.statusBar.getByTestId('sync-progress');
    await progress.waitFor({ timeout: 60_000 });
    await expect
      .poll(() => progress.innerText(), { timeout: 30_000 })
      .toMatch(/^Syncing: 0 of \d+ projects — My Work ready/);
    // My Work lists my tasks already, though no project's list has come: those assigned to me,
    // and the inbox's Action required.
    await ui.goToAssigned();
    await expect.poll(() => page.getByTestId('task-row').count(), { timeout: 30_000 }).toBeGreaterThan(0);
    await ui.goToActionRequired();
    await expect.poll(() => page.getByTestId('inbox-row').count(), { timeout: 30_000 }).toBeGreaterThan(0);
    // The live region says it too, within its few seconds.
    const announcer = page.getByTestId('sync-announcer');
    expect(await announcer.getAttribute('role')).toBe('status');
    await expect
      .poll(() => announcer.textContent(), { timeout: 15_000 })
      .toMatch(/^Syncing: 0 of \d+ projects — My Work ready$/);
    await screenshot(page, 'first-sync-progress');

    proxy.release();
    await expect.poll(() => progress.count(), { timeout: 120_000 }).toBe(0);
    await expect
      .poll(() => ui.statusBar.getByTestId('last-synced').innerText(), { timeout: 30_000 })
      .toMatch(/^Synced/);
    await expect.poll(() => announcer.textContent(), { timeout: 15_000 }).toBe('');
    await screenshot(page, 'first-sync-done');
  });
});
