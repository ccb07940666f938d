/// <reference lib="dom" />
// A long Action required inbox whose first screen reads, and whose read further down (the user
// scrolled to the rows read's end) fails: the rows shown stay, a line above them says the read
// failed and why, "Try again" reads once more, and the line goes once a read succeeds. The page's
// reads past the first screen are failed in the page itself (the answer the bridge gives when the
// connection to the core drops), so no timing decides which read fails.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/server/db/open';
import { generateWorkspace } from '../../src/server/seed/generate';
import { screenshot } from './support/browser';
import { appSuite } from './support/suite';

describe('the inbox when reading further down fails', () => {
  const suite = appSuite({
    service: {
      seed: 'empty',
      prepare(dataDir) {
        const db = openDatabase(join(dataDir, 'service.sqlite'));
        generateWorkspace(db, { projects: 4, tasks: 1_500, messagesPerTask: 1, seed: 3 });
        db.close();
      },
    },
    viewport: { width: 1280, height: 800 },
    startTimeoutMs: 120_000,
  });
  const rows = () => suite.page.getByTestId('inbox-row');

  it('keeps the rows read, says the read failed, and reads again on Try again', async () => {
    const { app, page, ui } = suite;
    const me = app.service!.users.actingUserId;
    const mine = await app.api<{ id: string }[]>(`/user/${me}/action-required-tasks`);
    expect(mine.length).toBeGreaterThan(60);
    // While `failReads` is set, an inbox read past the first screen is answered, in the page, as
    // the bridge answers a call when the connection to the core is lost; `failed` counts them.
    await page.addInitScript(() => {
      const state = { failReads: false, failed: 0 };
      Object.assign(window, { inboxReads: state });
      const send = WebSocket.prototype.send;
      WebSocket.prototype.send = function (this: WebSocket, data: string) {
        const message = JSON.parse(data) as { id: number; channel: string; arg?: { first?: number } };
        if (state.failReads && message.channel === 'inbox.list' && (message.arg?.first ?? Infinity) > 60) {
          state.failed++;
          const result = {
            ok: false,
            error: { type: 'offline', message: 'The connection to the Workdesk core was lost.' },
          };
          const answer = new MessageEvent('message', { data: JSON.stringify({ id: message.id, result }) });
          setTimeout(() => this.onmessage?.(answer), 0);
          return;
        }
        send.call(this, data);
      };
    });
    const setFailing = (on: boolean) =>
      page.evaluate((on) => {
        (window as unknown as { inboxReads: { failReads: boolean } }).inboxReads.failReads = on;
      }, on);
    const failed = () =>
      page.evaluate(() => (window as unknown as { inboxReads: { failed: number } }).inboxReads.failed);

    await page.reload();
    await ui.goToActionRequired();
    await expect.poll(() => rows().count(), { timeout: 30_000 }).toBe(60);
    const banner = page.getByTestId('inbox-read-error');
    expect(await banner.count()).toBe(0);

    // Scrolled to the end of the rows read, the list reads further, and that read fails.
    await setFailing(true);
    const inbox = page.getByTestId('inbox');
    await inbox.hover();
    await page.mouse.wheel(0, 100_000);
    await expect.poll(failed).toBeGreaterThan(0);
    await banner.waitFor();
    expect(await banner.innerText()).toContain(
      'Could not read more of your tasks: The connection to the Workdesk core was lost.',
    );
    // The rows read before stay, with the whole count above them.
    expect(await rows().count()).toBe(60);
    await expect
      .poll(() => page.getByTestId('inbox-summary').textContent())
      .toMatch(new RegExp(`^\\s*${mine.length}\\s+tasks`));
    await screenshot(page, 'inbox-read-more-failed');

    // Try again while the reads still fail: the line stays, the rows too.
    const before = await failed();
    await banner.getByRole('button', { name: 'Try again' }).click();
    await expect.poll(failed).toBeGreaterThan(before);
    await banner.waitFor();
    expect(await rows().count()).toBe(60);

    // Once the reads succeed, Try again reads the rows further down and the line goes.
    await setFailing(false);
    await banner.getByRole('button', { name: 'Try again' }).click();
    await banner.waitFor({ state: 'detached' });
    await expect.poll(() => rows().count()).toBeGreaterThan(60);
    await screenshot(page, 'inbox-read-more-recovered');
  });
});
