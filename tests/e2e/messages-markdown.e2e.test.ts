/// <reference lib="dom" />
// Messages show the Markdown people type (bold, lists, links, code), safely.
import { describe, expect, it } from 'vitest';
import { screenshot } from './support/browser';
import { appSuite } from './support/suite';
import { PalettePage } from './pages/palette';
import { TaskDetailPage } from './pages/task-detail';

interface ServiceTask {
  id: string;
  shortId: string;
  name: string;
}

describe('messages: Markdown in the thread', () => {
  const suite = appSuite({ service: { seed: 'demo' }, viewport: { width: 1280, height: 900 } });

  it("shows a colleague's Markdown formatted, links opening outside, raw HTML as text", async () => {
    const { app, page, ui } = suite;
    await ui.treeItem('Company Workspace').waitFor();
    const [task] = await app.api<ServiceTask[]>('/project/g7-p1/tasks');
    await app.api(`/task/${task!.id}/comment`, {
      method: 'POST',
      body: {
        userId: app.service!.users.bob,
        message:
          'Found it: **the token expires early**.\n\n- check `refresh()`\n- read the [spec](https://example.com/spec)\n\n<b>not bold</b>',
      },
    });
    await page.getByTestId('sync-now').click();
    const palette = new PalettePage(page);
    await palette.openHit(`#${task!.shortId}`, 'Tasks');
    const detail = new TaskDetailPage(page);
    await detail.waitFor(task!.name);
    const text = detail.messages.getByTestId('message-text').filter({ hasText: 'Found it' });
    await text.waitFor();
    await expect.poll(() => text.locator('strong').innerText()).toBe('the token expires early');
    await expect.poll(() => text.locator('li code').innerText()).toBe('refresh()');
    const link = text.locator('a');
    await expect.poll(() => link.getAttribute('href')).toBe('https://example.com/spec');
    await expect.poll(() => link.getAttribute('target')).toBe('_blank');
    await expect.poll(() => text.locator('b').count()).toBe(0);
    await expect.poll(() => text.innerText()).toContain('<b>not bold</b>');
    await expect.poll(() => text.innerText()).not.toContain('**');
    await text.scrollIntoViewIfNeeded();
    await screenshot(page, 'messages-markdown-thread');
  });
});
