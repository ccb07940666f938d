/// <reference lib="dom" />
// A long Action required inbox at start: the page asks the core for a first screen of rows, and
// for more of the list's head only as the user goes down it (never for the whole list at once);
// the user sees the whole count at once, and End reaches the last row as before.
import { describe, expect, it } from 'vitest';
import { screenshot } from './support/browser';
import { longInboxSuite } from './support/long-inbox';

describe('a long Action required inbox at start', () => {
  const suite = longInboxSuite();
  const rows = () => suite.page.getByTestId('inbox-row');

  it('reads a first screen of rows, more only as the user goes down, with the whole count and End at the last', async () => {
    const { app, page, ui } = suite;
    const me = app.service!.users.actingUserId;
    const mine = await app.api<{ id: string }[]>(`/user/${me}/action-required-tasks`);
    // More tasks than the first page the page asks for at start.
    expect(mine.length).toBeGreaterThan(60);
    // The inbox reads the page sends to the core, from its first script on.
    await page.addInitScript(() => {
      const asked: unknown[] = [];
      Object.assign(window, { asked });
      const send = WebSocket.prototype.send;
      WebSocket.prototype.send = function (this: WebSocket, data: string) {
        const message = JSON.parse(data) as { channel: string; arg: unknown };
        if (message.channel === 'inbox.list') asked.push(message.arg);
        send.call(this, data);
      };
    });
    await page.reload();
    await ui.goToActionRequired();
    const asked = (): Promise<{ first?: number }[]> =>
      page.evaluate(() => (window as unknown as { asked: { first?: number }[] }).asked);
    await expect.poll(async () => (await asked())[0]).toEqual({ first: 60 });
    await expect.poll(() => rows().count(), { timeout: 30_000 }).toBeGreaterThan(0);
    await expect
      .poll(() => page.getByTestId('inbox-summary').textContent())
      .toMatch(new RegExp(`^\\s*${mine.length}\\s+tasks`));
    const inbox = page.getByTestId('inbox');
    // Scrolled to the bottom of the rows read, the list reads a page more.
    await expect.poll(() => rows().count()).toBe(60);
    await inbox.hover();
    await page.mouse.wheel(0, 100_000);
    await expect.poll(() => rows().count()).toBeGreaterThan(60);
    expect((await asked()).map((arg) => arg.first)).toContain(120);
    await inbox.focus();
    await page.keyboard.press('End');
    await expect.poll(() => rows().count()).toBe(mine.length);
    await expect.poll(() => rows().last().getAttribute('aria-selected')).toBe('true');
    // The last row is the oldest task of the service's list.
    const lastId = await rows().last().getAttribute('id');
    expect(mine.map((task) => `inbox-${task.id}`)).toContain(lastId);
    await screenshot(page, 'inbox-long-end');
    // Every read was of the list's head, as far as the user went: before, the whole list was
    // read (an empty argument) once the first screen was drawn, whatever the user looked at.
    const reads = await asked();
    expect(reads.filter((arg) => arg.first === undefined)).toEqual([]);
    expect(reads.map((arg) => arg.first)).toContain(mine.length);
  });
});
