/// <reference lib="dom" />
// Notices per kind (Settings): a kind turned off raises no toast, the others still do, and the
// choice is kept by the shell (the web host with its accounts session, on a remote account).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../src/shared/ipc/settings';
import { createServiceClient } from '../../src/main/core/api/client';
import { startService, type RunningService } from '../support/service';
import { screenshot } from './support/browser';
import { sessionSuite } from './support/suite';
import { eventually } from './support/wait';
import { appSuite } from './support/suite';
import { PalettePage } from './pages/palette';
import { handOver } from './support/hand-over';
import { taskEndpoints } from '../../src/shared/api/tasks';
import { messageEndpoints } from '../../src/shared/api/messages';

describe('notices per kind', () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService({ seed: 'demo', token: 'team-token' });
  });
  afterAll(async () => {
    await service?.close();
  });
  const suite = sessionSuite({
    viewport: { width: 1280, height: 860 },
    configure({ settings, secrets }) {
      settings.write({
        ...DEFAULT_SETTINGS,
        accounts: [
          {
            id: 'team',
            kind: 'remote',
            label: 'Team service',
            baseUrl: service.baseUrl,
            tokenHeader: 'svc-api-token',
            userId: service.users.actingUserId,
          },
        ],
        activeAccountId: 'team',
      });
      secrets.set('team', 'team-token');
    },
  });

  it('raises no toast for a kind turned off, still one for the others, and keeps the choice', async () => {
    const { app, page, ui } = suite;
    const api = createServiceClient({ baseUrl: service.baseUrl, token: service.token });
    const { actingUserId: me, bob, cleo } = service.users;
    await ui.treeItem('Company Workspace').waitFor({ timeout: 30_000 });
    await ui.goToSettings();
    await page.getByTestId('notice-comment-toast').setChecked(false);
    await eventually(
      async () => app.session.dispatch('settings.get', {}),
      (answer) =>
        answer.ok && !(answer.value as typeof DEFAULT_SETTINGS.preferences).notifications.comment.toast,
    );
    await page.reload();
    await ui.goToSettings();
    await expect.poll(() => page.getByTestId('notice-comment-toast').isChecked()).toBe(false);
    await expect.poll(() => page.getByTestId('notice-assigned-toast').isChecked()).toBe(true);
    await screenshot(page, 'notices-settings');

    const [mine] = await api.call(taskEndpoints.assignedTasks, { id: me });
    await api.call(messageEndpoints.comment, {
      id: mine!.id,
      body: { userId: bob, message: 'A comment nobody asked to be told of' },
    });
    const other = (await api.call(taskEndpoints.projectTasks, { id: 'g7-p2' })).find(
      (t) => t.assignedToUserId !== me && t.actionRequiredUserId !== me,
    )!;
    await api.call(taskEndpoints.updateTask, { id: other.id, body: { userId: cleo, assignedToUserId: me } });
    await page.getByTestId('sync-now').click();
    await page
      .getByTestId('toast')
      .filter({ hasText: `Assigned to you: “${other.name}”` })
      .waitFor();
    // The comment came in the same pull (the Updates count has it) but raised no toast.
    await eventually(
      async () => page.getByTestId('count-updates').textContent(),
      (text) => Number(text) >= 2,
    );
    await expect.poll(() => page.getByTestId('toast').filter({ hasText: 'New comment' }).count()).toBe(0);
  });
});

interface ServiceTask {
  id: string;
  name: string;
  actionRequiredUserId: string | null;
}

describe('a notice that another user handed a task over', () => {
  const suite = appSuite({ service: { seed: 'demo' }, viewport: { width: 1280, height: 800 } });

  it('tells once that another user handed a task over, and the notice opens the task', async () => {
    const { app, page, ui } = suite;
    await ui.goToChanges();
    const users = app.service!.users;
    const tasks = await app.api<ServiceTask[]>('/project/g7-p3/tasks');
    const task = tasks.find((t) => t.actionRequiredUserId !== users.actingUserId);
    if (!task) throw new Error('every task of the project already waits for the acting user');
    const notice = await handOver(app, page, task, 'Over to you');
    await notice.waitFor();
    // A later sync finds the task still waiting: no second notice.
    await app.api(`/task/${task.id}/comment`, {
      method: 'POST',
      body: { userId: users.bob, message: 'And one more thing' },
    });
    expect(await app.core.dispatch('sync.now', { wait: true })).toMatchObject({ ok: true });
    await expect.poll(() => notice.count()).toBe(1);
    await screenshot(page, 'notices-action-required-notice');
    // Before: the notice said which task, and nothing led to it.
    await notice.getByRole('button', { name: 'Open' }).click();
    await notice.waitFor({ state: 'hidden' });
    // Changes has no list to open it beside: the task opens full size, its title takes the focus.
    await ui.waitForTitle(task.name);
    await expect.poll(() => page.getByTestId('task-title').inputValue()).toBe(task.name);
    await page.locator('[data-testid="view-title"]:focus').waitFor();
    await page.keyboard.press('Alt+ArrowLeft');
    await ui.waitForTitle('Changes');
  });

  it('takes the keyboard to the latest notice, keeps it while it has the focus, and hands the focus back', async () => {
    const { app, page, ui } = suite;
    await ui.goToAssigned();
    await page.getByTestId('view-title').focus();
    const palette = new PalettePage(page);
    await page.keyboard.press('?');
    await palette.help.waitFor();
    const row = palette.help.locator('dt', { hasText: 'Ctrl+Shift+N' });
    await expect
      .poll(() => row.locator('xpath=following-sibling::dd[1]').innerText())
      .toBe('Latest notice (its buttons)');
    await page.keyboard.press('Escape');
    await palette.help.waitFor({ state: 'hidden' });

    const users = app.service!.users;
    const tasks = await app.api<ServiceTask[]>('/project/g7-p3/tasks');
    const waiting = tasks.filter((t) => t.actionRequiredUserId !== users.actingUserId).slice(0, 2);
    if (waiting.length < 2) throw new Error('the project has too few tasks to hand over');
    const [first, second] = waiting as [ServiceTask, ServiceTask];
    const notice = await handOver(app, page, first, 'Over to you');
    await notice.waitFor();

    // Before: the notice sat after everything in the Tab order and went in 8 s.
    await page.keyboard.press('Control+Shift+N');
    await notice.getByRole('button', { name: 'Open' }).and(page.locator(':focus')).waitFor();
    await screenshot(page, 'notices-focused');
    // Held while the user is on it: still there well past its 8 s.
    await page.waitForTimeout(9_000);
    await expect.poll(() => notice.count()).toBe(1);
    // Escape dismisses it, and the focus goes back where it was.
    await page.keyboard.press('Escape');
    await notice.waitFor({ state: 'hidden' });
    await page.locator('[data-testid="view-title"]:focus').waitFor();

    // From the palette, the same; Open opens the task and the focus goes with it.
    const next = await handOver(app, page, second, 'Yours too');
    await next.waitFor();
    expect(await palette.runCommand('latest notice')).toBe('Latest notice (its buttons)');
    await next.getByRole('button', { name: 'Open' }).and(page.locator(':focus')).waitFor();
    await page.keyboard.press('Enter');
    await eventually(
      () => page.getByTestId('task-title').inputValue(),
      (title) => title === second.name,
      { timeout: 5_000 },
    );
    // The focus goes with the task: its panel, or the list beside it, where its row is selected.
    const focus = await page.evaluate(
      () =>
        document.activeElement?.closest<HTMLElement>(
          '[data-testid="detail-panel"], [data-testid="task-table"]',
        )?.dataset['testid'],
    );
    expect(['detail-panel', 'task-table']).toContain(focus);
  });
});
