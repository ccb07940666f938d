/// <reference lib="dom" />
// A long Action required inbox, of which the page has read the first screen: the tasks below the
// rows read. A read further down (the user scrolled to the rows read's end) that fails keeps the
// rows shown, a line above them says the read failed and why, "Try again" reads once more, and
// the line goes once a read succeeds. Opening a task below the rows read marks it read only if the
// core holds it unread.
import { describe, expect, it } from 'vitest';
import type { InboxRow } from '../../src/shared/ipc/inbox';
import { PalettePage } from './pages/palette';
import { screenshot } from './support/browser';
import { longInboxSuite } from './support/long-inbox';

describe('the inbox below the rows read', () => {
  const suite = longInboxSuite();
  const rows = () => suite.page.getByTestId('inbox-row');

  // The page's reads past the first screen are failed in the page itself (the answer the bridge
  // gives when the connection to the core drops), so no timing decides which read fails.
  it('keeps the rows read when reading further fails, says so, and reads again on Try again', async () => {
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

  it('marks a task opened below the rows read read only when the core holds it unread', async () => {
    const { app, page, ui } = suite;
    const all = await app.core.dispatch('inbox.list', {});
    if (!all.ok) throw new Error('the core did not answer the inbox');
    const list = (all.value as { rows: InboxRow[] }).rows;
    // Two tasks well below the first screen: one read, one marked unread before the page reads.
    const read = list[150];
    const unread = list[160];
    if (!read || !unread) throw new Error('the inbox has fewer than 161 tasks');
    expect(await app.core.dispatch('inbox.markRead', { taskIds: [read.taskId] })).toMatchObject({ ok: true });
    expect(await app.core.dispatch('inbox.markUnread', { taskId: unread.taskId })).toMatchObject({
      ok: true,
    });
    await page.addInitScript(() => {
      const sent: { channel: string; arg: { taskIds?: string[] } }[] = [];
      Object.assign(window, { inboxSent: sent });
      const send = WebSocket.prototype.send;
      WebSocket.prototype.send = function (this: WebSocket, data: string) {
        const message = JSON.parse(data) as { channel: string; arg: { taskIds?: string[] } };
        if (message.channel.startsWith('inbox.mark')) sent.push(message);
        send.call(this, data);
      };
    });
    const marked = () =>
      page.evaluate(() =>
        (window as unknown as { inboxSent: { channel: string; arg: { taskIds?: string[] } }[] }).inboxSent
          .filter((m) => m.channel === 'inbox.markRead')
          .flatMap((m) => m.arg.taskIds ?? []),
      );
    await page.reload();
    await ui.goToActionRequired();
    await expect.poll(() => rows().count(), { timeout: 30_000 }).toBe(60);
    // The page knows an unread task is below the rows it read, not which.
    await expect.poll(() => page.getByTestId('inbox-summary').textContent()).toMatch(/, 1 new/);

    const palette = new PalettePage(page);
    const openTask = async (row: InboxRow) => {
      await palette.openHit(`#${row.shortId}`, 'Tasks');
      await page.locator(`[data-testid="detail-panel"][data-task-id="${row.taskId}"]`).waitFor();
    };
    await openTask(read);
    await openTask(unread);
    // The unread one is marked read; the read one opened before it was not marked (before, it was:
    // any task below the rows read counted as unread while an unread task was there).
    await expect.poll(marked).toContain(unread.taskId);
    expect(await marked()).not.toContain(read.taskId);
    await expect
      .poll(async () => app.core.dispatch('inbox.unreadOf', { taskIds: [unread.taskId, read.taskId] }))
      .toEqual({ ok: true, value: { taskIds: [] } });
    await screenshot(page, 'inbox-below-opened');
  });

  it('after End and back to the top, re-reads only the rows near the view when the cache changes', async () => {
    const { app, page, ui } = suite;
    const all = await app.core.dispatch('inbox.list', {});
    if (!all.ok) throw new Error('the core did not answer the inbox');
    const list = (all.value as { rows: InboxRow[] }).rows;
    await page.addInitScript(() => {
      const firsts: (number | undefined)[] = [];
      Object.assign(window, { inboxFirsts: firsts });
      const send = WebSocket.prototype.send;
      WebSocket.prototype.send = function (this: WebSocket, data: string) {
        const message = JSON.parse(data) as { channel: string; arg?: { first?: number } };
        if (message.channel === 'inbox.list') firsts.push(message.arg?.first);
        send.call(this, data);
      };
    });
    const firsts = () =>
      page.evaluate(() => (window as unknown as { inboxFirsts: (number | undefined)[] }).inboxFirsts.slice());
    await page.reload();
    await ui.goToActionRequired();
    await expect.poll(() => rows().count(), { timeout: 30_000 }).toBe(60);
    const inbox = page.getByTestId('inbox');
    await inbox.focus();
    await page.keyboard.press('End');
    await expect.poll(() => rows().count()).toBe(list.length);
    await expect.poll(() => rows().last().getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('Home');
    await expect.poll(() => rows().first().getAttribute('aria-selected')).toBe('true');
    await expect.poll(() => inbox.evaluate((el) => el.scrollTop)).toBe(0);
    // The scroll's event is handled in the frame after the scroll, before that frame's callbacks.
    await page.evaluate(
      () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(undefined)))),
    );

    // A change in the cache (a task of the list changed here) reads the list again: as far as
    // the rows near the view, not every row read at End (before, all of them, at every sync).
    const asked = (await firsts()).length;
    const task = list[5]!;
    expect(
      await app.core.dispatch('tasks.update', {
        taskId: task.taskId,
        changes: { priority: task.priority === 3 ? 4 : 3 },
      }),
    ).toMatchObject({ ok: true });
    await expect.poll(() => rows().count()).toBe(60);
    expect((await firsts()).slice(asked)).toContain(60);
    await expect
      .poll(() => page.getByTestId('inbox-summary').textContent())
      .toMatch(new RegExp(`^\\s*${list.length}\\s+tasks`));
    await screenshot(page, 'inbox-kept-to-view');

    // End still reaches the last row, reading the rest again.
    await page.keyboard.press('End');
    await expect.poll(() => rows().count()).toBe(list.length);
    await expect.poll(() => rows().last().getAttribute('aria-selected')).toBe('true');
  });
});
