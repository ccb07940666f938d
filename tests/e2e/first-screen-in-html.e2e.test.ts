// The first-screen record handed to the page inside its html: a host whose core is still
// opening (here: until the test opens it) serves the page the record's answers with
// index.html, and the page draws its frame and My Work's rows from them without asking for them
// over its socket; once the core is open the page reads again from it.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startWebHost, type CoreFacade, type WebHost } from '../../src/main/core/web-host';
import { serveRecord } from '../../src/main/core/accounts/first-screen';
import { readFirstScreen } from '../../src/main/core/accounts/first-screen-write';
import { READS } from '../../src/main/core/accounts/read-ahead';
import { CACHE_ENTITIES } from '../../src/shared/entities';
import type { InboxRow } from '../../src/shared/ipc/inbox';
import { launchBrowser, screenshot } from './support/browser';
import { startApp, type RunningApp } from './support/web-host';

const ROOT = join(import.meta.dirname, '..', '..');

/** Installed before the page's scripts: the channel of every call the page sends over its socket. */
const RECORD_SENT = `(() => {
  const sent = [];
  window.__sent = sent;
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    send(data) {
      const match = typeof data === 'string' ? /"channel":"([^"]+)"/.exec(data) : null;
      if (match) sent.push(match[1]);
      super.send(data);
    }
  };
})();`;

describe('the first-screen record in the page’s html', () => {
  let app: RunningApp;
  let browser: Browser;
  let early: WebHost | undefined;

  beforeAll(async () => {
    app = await startApp({ service: { seed: 'demo' } });
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await early?.close();
    await browser?.close();
    await app?.close();
  });

  it('draws the frame and My Work’s rows from it while the core opens, asking none of them over the socket, then reads again from the core', async () => {
    // The record as the core writes it at close (first-screen-write.ts), of this core's cache.
    const answers = await readFirstScreen((channel, arg) => app.core.dispatch(channel, arg));
    const inbox = answers.find((answer) => answer.channel === 'inbox.list')!.value as { rows: InboxRow[] };
    expect(inbox.rows.length).toBeGreaterThan(0);
    let openCore: (core: CoreFacade) => void = () => {};
    early = await startWebHost({
      core: new Promise<CoreFacade>((resolve) => (openCore = resolve)),
      rendererDir: join(ROOT, 'out', 'renderer'),
    });
    early.serveFirstScreen(
      serveRecord('first-screen.json', {
        format: 1,
        appVersion: 'test',
        accountId: 'e2e',
        cacheFile: 'cache.sqlite',
        cacheIdentity: '{}',
        writtenAt: new Date().toISOString(),
        answers,
        reads: [...READS],
        refresh: { entities: [...CACHE_ENTITIES] },
      }),
    );

    const page: Page = await browser.newPage({ viewport: { width: 1280, height: 760 } });
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    await page.addInitScript({ content: RECORD_SENT });
    await page.goto(early.url);
    await page.getByRole('navigation', { name: 'Sidebar' }).waitFor();
    await page.getByTestId('nav-action-required').click();
    await expect.poll(() => page.getByTestId('inbox-row').first().innerText()).toContain(inbox.rows[0]!.name);
    await screenshot(page, 'first-screen-in-html');
    const sent = () => page.evaluate(() => (window as unknown as { __sent: string[] }).__sent);
    // The core is not open: what the page drew came from its html, not over its socket.
    const before = await sent();
    for (const channel of ['app.info', 'inbox.list', 'projects.tree', 'tasks.myWork', 'org.users'])
      expect(before, channel).not.toContain(channel);

    // The core open: the page is told to read again, and does, from the core.
    openCore(app.core);
    await expect.poll(sent).toContain('inbox.list');
    await expect.poll(() => page.getByTestId('inbox-row').first().innerText()).toContain(inbox.rows[0]!.name);
    expect(errors).toEqual([]);
    await page.close();
  });
});
