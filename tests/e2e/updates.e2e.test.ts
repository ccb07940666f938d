/// <reference lib="dom" />
// What changed since I last looked: after other users change my tasks on the service, the
// Updates view lists it by task, newest first, unread marked, read by opening the task.
import { describe, expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import { screenshot } from './support/browser';
import { appSuite } from './support/suite';
import { eventually } from './support/wait';

interface ServiceTask {
  id: string;
  name: string;
  assignedToUserId: string | null;
  createdByUserId: string | null;
  actionRequiredUserId: string | null;
}

async function text(locator: Locator): Promise<string> {
  return ((await locator.textContent()) ?? '').replace(/\s+/g, ' ').trim();
}

describe('Updates: what other users changed on my tasks', () => {
  const suite = appSuite({ service: { seed: 'demo' }, viewport: { width: 1440, height: 900 } });
  const count = () =>
    suite.page.evaluate(() => document.querySelector('[data-testid="count-updates"]')?.textContent ?? '');

  it('lists comments, replies, status and assignee changes and new tasks by task, newest first, unread', async () => {
    const { app, page, ui } = suite;
    await ui.treeItem('Company Workspace').waitFor();
    const { actingUserId: me, bob, cleo, dan } = app.service!.users;
    const assigned = await app.api<ServiceTask[]>(`/user/${me}/assigned-tasks`);
    const created = (await app.api<ServiceTask[]>('/project/g7-p1/tasks')).find(
      (t) => t.createdByUserId === me && t.assignedToUserId !== me && t.actionRequiredUserId !== me,
    )!;
    const other = (await app.api<ServiceTask[]>('/project/g7-p2/tasks')).find(
      (t) => t.assignedToUserId !== me && t.createdByUserId !== me,
    )!;
    const statuses = await app.api<{ id: string; name: string }[]>('/statuses');
    const inProgress = statuses.find((s) => s.name === 'In Progress')!;
    const commented = assigned[0]!;

    await app.api(`/task/${commented.id}/comment`, {
      method: 'POST',
      body: { userId: bob, message: 'The **export** fails on empty rows' },
    });
    await app.api(`/task/${created.id}/status`, {
      method: 'PUT',
      body: { userId: dan, statusId: inProgress.id },
    });
    await app.api(`/task/${other.id}/update`, {
      method: 'PUT',
      body: { userId: cleo, assignedToUserId: me },
    });
    await app.api('/tasks', {
      method: 'POST',
      body: { projectId: 'g7-p1', title: 'Prepare the quarterly review', fromUserId: cleo, toUserId: me },
    });
    await page.getByTestId('sync-now').click();
    await eventually(count, (n) => Number(n) >= 4);
    await page.getByTestId('nav-updates').click();
    await ui.waitForTitle('Updates');
    const groups = page.getByTestId('updates-group');
    await groups.first().waitFor();
    const group = (taskId: string) => page.locator(`[data-testid="updates-group"][data-task-id="${taskId}"]`);
    expect(await text(group(commented.id))).toMatch(/Bob Okafor commented: The export fails on empty rows/);
    // A comment's preview is one line of plain text, its Markdown markers removed.
    const preview = group(commented.id).getByTestId('message-preview');
    expect(await text(preview)).toBe('The export fails on empty rows');
    expect(await preview.locator('*').count()).toBe(0);
    expect(await text(group(created.id))).toMatch(/Status changed to In Progress/);
    expect(await text(group(created.id))).toContain('created by you');
    expect(await text(group(other.id))).toMatch(/Assigned to Ada Lindqvist/);
    const fresh = groups.filter({ hasText: 'Prepare the quarterly review' });
    expect(await text(fresh)).toMatch(/Cleo Martins created it/);
    await expect
      .poll(() => page.locator('[data-testid="updates-group"].unread').count())
      .toBe(await groups.count());
    await screenshot(page, 'updates-after-colleagues');
  });

  it('reads a task’s updates by opening it, and all at once', async () => {
    const { page } = suite;
    const before = Number(await count());
    const first = page.getByTestId('updates-group').first();
    const unreadInFirst = await first.getByTestId('update-item').count();
    await first.locator('.head').click();
    await page.getByTestId('detail-panel').waitFor();
    await eventually(count, (n) => Number(n || 0) === before - unreadInFirst);
    expect(await first.evaluate((el) => el.classList.contains('unread'))).toBe(false);
    await page.getByTestId('updates-mark-all-read').click();
    await eventually(count, (n) => n === '');
    await expect.poll(() => page.locator('[data-testid="updates-group"].unread').count()).toBe(0);
  });
});
