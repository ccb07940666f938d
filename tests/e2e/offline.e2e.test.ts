import { describe, expect, it } from 'vitest';
import { screenshot } from './support/browser';
import { appSuite } from './support/suite';
import { eventually } from './support/wait';
import { TaskListPage } from './pages/task-list';
import { TaskDetailPage } from './pages/task-detail';
import { ChangesPage } from './pages/changes';

interface ServiceTask {
  id: string;
  name: string;
  status: { id: string; name: string };
  priority: number;
}

describe('editing offline', () => {
  const suite = appSuite({ service: { seed: 'demo' }, viewport: { width: 1440, height: 860 } });

  it('shows an edit made while the service is down at once, counts it pending, and sends it when the service is back', async () => {
    const { app, page, ui } = suite;
    const tasks = await app.api<ServiceTask[]>('/project/g7-p4/tasks');
    const target = tasks.find((task) => task.status.name !== 'Done' && task.status.name !== 'In Progress')!;
    const list = new TaskListPage(page);
    await ui.expand('Company Workspace');
    await ui.expand('Website relaunch area 1');
    await ui.openProject('Customer portal 4');
    await list.waitForRows();

    await app.stopService();
    await page.getByTestId('sync-now').click();
    await ui.waitForOnline(false);

    // The change shows at once, though nothing can reach the service.
    await list.setStatusInline(target, 'In Progress');
    await list.setPriorityInline(target, 'Blocker');
    await list
      .row(target)
      .getByRole('gridcell', { name: `Status of ${target.name}: In Progress` })
      .waitFor();
    await list.row(target).getByTestId('cell-priority').filter({ hasText: 'Blocker' }).waitFor();
    await ui.waitForPendingCount(2);
    await screenshot(page, 'offline-pending');

    // The Changes view says what waits, in words.
    await ui.goToChanges();
    const changes = new ChangesPage(page);
    await changes.entry(`Status of '${target.name}' → In Progress`).waitFor();
    await changes.entry(`Priority of '${target.name}' → Blocker`).waitFor();
    await screenshot(page, 'changes-pending');

    // The task detail shows the local values too.
    await ui.back();
    await list.open(target);
    const detail = new TaskDetailPage(page);
    await detail.waitFor(target.name);
    await expect
      .poll(() => detail.field('field-status').getAttribute('aria-label'))
      .toBe('Status: In Progress');

    // Back online: the count falls to zero and the service holds the change.
    await app.restartService();
    await ui.waitForOnline(true);
    await ui.waitForPendingCount(0);
    const onService = await eventually(
      () => app.api<ServiceTask>(`/task/${target.id}`),
      (task) => task.status.name === 'In Progress' && task.priority === 50,
    );
    expect(onService).toMatchObject({ status: { name: 'In Progress' }, priority: 50 });
    await screenshot(page, 'back-online');
  });
});
