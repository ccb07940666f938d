// The reconnect scenario of rule 7 as a user lives it: a task renamed while offline, a colleague
// (Bob) renames it on the service meanwhile, the network comes back and the queue sends first.
// The app keeps the user's title (the default policy), and says so at once: a toast with Undo,
// the conflict on the task itself and in Changes; "Take theirs" puts Bob's title back.
import { describe, expect, it } from 'vitest';
import { screenshot } from './support/browser';
import { appSuite } from './support/suite';
import { eventually } from './support/wait';
import { ChangesPage } from './pages/changes';
import { TaskDetailPage } from './pages/task-detail';
import { TaskListPage } from './pages/task-list';

interface ServiceTask {
  id: string;
  name: string;
}

describe('a change sent after a reconnect over a colleague’s change', () => {
  const suite = appSuite({ service: { seed: 'demo', faults: true } });

  it('keeps mine, tells at once (toast, task, Changes), and "take theirs" puts Bob’s value back', async () => {
    const { app, page, ui } = suite;
    const users = app.service!.users;
    await ui.expand('Company Workspace');
    await ui.expand('Website relaunch area 1');
    await ui.openProject('Customer portal 4');
    const list = new TaskListPage(page);
    await list.waitForRows();
    const [task] = await app.api<ServiceTask[]>('/project/g7-p4/tasks');
    await list.open(task!);
    const detail = new TaskDetailPage(page);
    await detail.waitFor(task!.name);

    // Offline: the status bar says so on the first refused request, not at the next check.
    app.faults!.set({ dropBefore: { rate: 1 } });
    await detail.rename('Launch plan (mine)');
    await ui.waitForOnline(false);
    await ui.waitForPendingCount(1);
    await expect.poll(() => page.getByTestId('connection').innerText()).toMatch(/^(Offline|Reconnecting)/);
    await screenshot(page, 'send-conflict-offline');

    // Bob renames the same task on the service meanwhile.
    await app.api(`/task/${task!.id}/update`, {
      method: 'PUT',
      body: { userId: users.bob, title: 'Launch plan (Bob)' },
    });

    // Back online: the queue sends first (no pull before it); the check before the send sees Bob's.
    app.faults!.reset();
    const toast = page.getByTestId('toast').filter({ hasText: 'was also changed by' });
    await toast.waitFor({ timeout: 30_000 });
    await expect.poll(() => toast.innerText()).toContain("Title of 'Launch plan (mine)' was also changed by");
    await expect.poll(() => toast.innerText()).toContain('kept yours');
    await screenshot(page, 'send-conflict-toast');
    await ui.waitForPendingCount(0);
    await eventually(
      () => app.api<ServiceTask>(`/task/${task!.id}`),
      (t) => t.name === 'Launch plan (mine)',
    );

    // The task's own view shows the conflict.
    const onTask = page.getByTestId('task-conflict');
    await onTask.waitFor();
    await expect.poll(() => onTask.innerText()).toContain("'Launch plan (Bob)'");
    await screenshot(page, 'send-conflict-task');

    // Changes lists it with both values; "Take theirs" puts Bob's title back on the service.
    await ui.goToChanges();
    const changes = new ChangesPage(page);
    await changes.conflicts.first().waitFor();
    await expect.poll(() => changes.conflicts.first().innerText()).toContain('Launch plan (Bob)');
    await screenshot(page, 'send-conflict-changes');
    await changes.conflicts.first().getByRole('button', { name: 'Take theirs' }).click();
    await eventually(
      () => app.api<ServiceTask>(`/task/${task!.id}`),
      (t) => t.name === 'Launch plan (Bob)',
    );
    await changes.conflicts.first().waitFor({ state: 'detached' });
    await expect(page.getByTestId('last-sent').count()).resolves.toBe(1);
  });
});
