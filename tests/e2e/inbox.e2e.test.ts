/// <reference lib="dom" />
// Action required as an inbox: who handed each task over and when, the last word, unread marks
// for what colleagues did on the service since, read by opening, by M and by "Mark all read".
import { describe, expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import { screenshot } from './support/browser';
import { appSuite } from './support/suite';
import { eventually } from './support/wait';

/** A locator's text with its whitespace (line breaks between inline-flex parts) as single spaces. */
async function text(locator: Locator): Promise<string> {
  return ((await locator.textContent()) ?? '').replace(/\s+/g, ' ').trim();
}

interface ServiceTask {
  id: string;
  shortId: string;
  name: string;
  actionRequiredUserId: string | null;
}

describe('Action required as an inbox', () => {
  const suite = appSuite({ service: { seed: 'demo' }, viewport: { width: 1440, height: 900 } });
  const rows = () => suite.page.getByTestId('inbox-row');
  const unreadCount = () =>
    suite.page.evaluate(() => document.querySelector('[data-testid="count-action"]')?.textContent ?? '');

  it('lists every task needing my action, each with who handed it over, when, and the last message', async () => {
    const { app, page, ui } = suite;
    const me = app.service!.users.actingUserId;
    const mine = await app.api<ServiceTask[]>(`/user/${me}/action-required-tasks`);
    await ui.goToActionRequired();
    await eventually(
      () => rows().count(),
      (n) => n === mine.length,
    );
    const first = rows().first();
    expect(await text(first.getByTestId('inbox-handed'))).toMatch(/^From .+ (ago|now|Yesterday|at)/);
    expect(await text(first.getByTestId('inbox-last'))).toMatch(/^\S.*:/);
    // What was there at the first look counts as read: nothing is marked new yet.
    await expect.poll(() => page.getByTestId('inbox-unread').count()).toBe(0);
    expect(await unreadCount()).toBe('');
    await screenshot(page, 'inbox-action-required');
  });

  it("marks what colleagues did on the service since as new, newest first, with the sidebar's count", async () => {
    const { app, page } = suite;
    const { actingUserId: me, bob, dan } = app.service!.users;
    const mine = await app.api<ServiceTask[]>(`/user/${me}/action-required-tasks`);
    const others = (await app.api<ServiceTask[]>('/project/g7-p1/tasks')).filter(
      (t) => t.actionRequiredUserId && t.actionRequiredUserId !== me,
    );
    const handed = others[0]!;
    const commented = mine[mine.length - 1]!;
    await app.api(`/task/${commented.id}/comment`, {
      method: 'POST',
      body: { userId: dan, message: 'Any news on this?' },
    });
    await app.api(`/task/${handed.id}/reply`, {
      method: 'POST',
      body: {
        userId: bob,
        actionRequiredUsedId: me,
        message: 'Please **sign off** the release:\n- notes\n- [checklist](https://example.com/c)',
      },
    });
    await page.getByTestId('sync-now').click();
    await eventually(unreadCount, (text) => text === '2');
    const top = rows().first();
    await expect.poll(() => top.getAttribute('data-task-id')).toBe(handed.id);
    await expect.poll(() => top.getAttribute('data-unread')).toBe('true');
    expect(await text(top.getByTestId('inbox-handed'))).toMatch(/^From Bob Okafor /);
    const last = top.getByTestId('inbox-last');
    expect(await text(last)).toMatch(/^Bob Okafor:\s+Please sign off the release/);
    // The last message's preview is one line of plain text: no Markdown marker, bold, list or link.
    const preview = last.getByTestId('message-preview');
    expect(await text(preview)).toBe('Please sign off the release: notes checklist');
    expect(await preview.locator('*').count()).toBe(0);
    const second = rows().nth(1);
    await expect.poll(() => second.getAttribute('data-task-id')).toBe(commented.id);
    expect(await text(second.getByTestId('inbox-last'))).toMatch(/^Dan Whitfield:\s+Any news on this\?/);
    await screenshot(page, 'inbox-unread');
  });

  it('reads a task by opening it (Enter), marks by M, and reads all at once', async () => {
    const { page } = suite;
    const inbox = page.getByTestId('inbox');
    await inbox.focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('detail-panel').waitFor();
    await eventually(unreadCount, (text) => text === '1');
    await expect.poll(() => rows().first().getAttribute('data-unread')).toBe('false');
    await inbox.focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('m');
    await eventually(unreadCount, (text) => text === '');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('m');
    await eventually(unreadCount, (text) => text === '1');
    await expect.poll(() => rows().first().getAttribute('data-unread')).toBe('true');
    await page.getByTestId('inbox-mark-all-read').click();
    await eventually(unreadCount, (text) => text === '');
    await expect.poll(() => page.getByTestId('inbox-unread').count()).toBe(0);
  });

  it('opens the task to reply and hand over with R, and keeps the read state over a reload', async () => {
    const { page, ui } = suite;
    await page.getByTestId('inbox').focus();
    await page.keyboard.press('Home');
    await page.keyboard.press('r');
    const panel = page.getByTestId('detail-panel');
    await panel.locator('[data-testid="mode-reply"]:checked').waitFor();
    await panel.locator('textarea[id^="composer-"]:focus').waitFor();
    await screenshot(page, 'inbox-reply-key');
    await page.keyboard.press('Escape');

    await page.reload();
    await ui.goToActionRequired();
    await rows().first().waitFor();
    await expect.poll(() => page.getByTestId('inbox-unread').count()).toBe(0);
  });

  it('draws a long inbox top first, and End at once reaches its last task', async () => {
    const { page, ui } = suite;
    const total = await rows().count();
    // More tasks than the first screenful the inbox draws in its opening frame.
    expect(total).toBeGreaterThan(24);
    await ui.goToAssigned();
    await ui.goToActionRequired();
    const inbox = page.getByTestId('inbox');
    await inbox.focus();
    await page.keyboard.press('End');
    const last = rows().last();
    await expect.poll(() => rows().count()).toBe(total);
    await expect.poll(() => last.getAttribute('aria-selected')).toBe('true');
    await expect.poll(() => inbox.getAttribute('aria-activedescendant')).toBe(await last.getAttribute('id'));
  });
});
