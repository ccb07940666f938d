import { describe, expect, it } from 'vitest';
import { screenshot } from './support/browser';
import { appSuite } from './support/suite';

// A clicked system notification opens its task. The desktop shell sends
// `app.onDidRequestOpenTask` to the window (unit-tested with a mocked electron); here the core's
// event hub sends it over the web host's socket, as the shell's send reaches the renderer.

describe('a clicked system notification', () => {
  const suite = appSuite({ service: { seed: 'demo' }, viewport: { width: 1280, height: 800 } });

  it('opens the task it is about, with the focus in it', async () => {
    const { app, page, ui } = suite;
    await ui.goToChanges();
    const [task] = await app.api<{ id: string; name: string }[]>('/project/g7-p3/tasks');
    app.core.events.emit('app.onDidRequestOpenTask', { taskId: task!.id });
    await ui.waitForTitle(task!.name);
    await expect.poll(() => page.getByTestId('task-title').inputValue()).toBe(task!.name);
    await page.locator('[data-testid="view-title"]:focus').waitFor();
    await screenshot(page, 'notification-opened-task');
  });
});
