import { describe, expect, it } from 'vitest';
import { screenshot } from './support/browser';
import { appSuite } from './support/suite';
import { eventually } from './support/wait';
import { TaskListPage } from './pages/task-list';
import { ChangesPage } from './pages/changes';
import { editWhileColleagueEdits } from './support/conflict-scenario';

interface ServiceTask {
  id: string;
  name: string;
  status: { id: string; name: string };
  priority: number;
}

describe('the Changes view: conflicts with the service', () => {
  const suite = appSuite({ service: { seed: 'demo', faults: true } });

  it('shows both values of a field changed on both sides; keep mine and take theirs each win on the service', async () => {
    const { app, page, ui } = suite;
    const tasks = await app.api<ServiceTask[]>('/project/g7-p4/tasks');
    const target = tasks.find((task) => task.status.name !== 'Done' && task.priority < 8)!;
    const list = new TaskListPage(page);
    await ui.expand('Company Workspace');
    await ui.expand('Website relaunch area 1');
    await ui.openProject('Customer portal 4');
    await list.waitForRows();

    // Two edits wait while a colleague changes the same fields; the pull sees theirs first.
    const { mine, theirs } = await editWhileColleagueEdits(app, ui, list, target);
    await ui.goToChanges();
    const changes = new ChangesPage(page);
    await eventually(
      () => changes.conflicts.count(),
      (n) => n === 2,
    );
    const nameConflict = changes.conflicts.filter({ hasText: 'Title of' });
    const priorityConflict = changes.conflicts.filter({ hasText: 'Priority of' });
    await expect.poll(() => nameConflict.innerText()).toContain(`Mine: '${mine}'`);
    await expect.poll(() => nameConflict.innerText()).toContain(`Theirs: '${theirs}'`);
    await expect.poll(() => priorityConflict.innerText()).toContain('Mine: Blocker');
    await expect.poll(() => priorityConflict.innerText()).toContain('Theirs: Emergency');
    await screenshot(page, 'changes-conflicts');

    await priorityConflict.getByRole('button', { name: 'Keep mine' }).click();
    await nameConflict.getByRole('button', { name: 'Take theirs' }).click();
    await changes.conflicts.first().waitFor({ state: 'detached' });

    // Writes reach the service again: mine for the priority, theirs for the name.
    app.faults!.reset();
    await ui.waitForPendingCount(0);
    const onService = await eventually(
      () => app.api<ServiceTask>(`/task/${target.id}`),
      (task) => task.name === theirs && task.priority === 50,
    );
    expect(onService).toMatchObject({ name: theirs, priority: 50 });
    await page.getByText('Every change has reached the service').waitFor();

    // The list shows the same.
    await ui.back();
    const row = list.row(target);
    await row.getByText(theirs, { exact: true }).waitFor();
    await row.scrollIntoViewIfNeeded();
    await row.getByTestId('cell-priority').filter({ hasText: 'Blocker' }).waitFor();
    await screenshot(page, 'changes-conflicts-resolved');
  });
});
