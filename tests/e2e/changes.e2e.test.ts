import { describe, expect, it } from 'vitest';
import { screenshot } from './support/browser';
import { appSuite } from './support/suite';
import { eventually } from './support/wait';
import { ChangesPage } from './pages/changes';

interface ServiceTask {
  id: string;
  name: string;
  assignedToUserId: string | null;
}

describe('the Changes view: a change the service refuses', () => {
  const suite = appSuite({ service: { seed: 'demo' } });

  it('shows the refusal in words, lets the user edit and resend it, or discard it', async () => {
    const { app, page, ui } = suite;
    const [first, second] = await app.api<ServiceTask[]>('/project/g7-p5/tasks');
    // Another client of the core (say, an older window) queues an assignee the service does not know.
    for (const task of [first!, second!]) {
      const queued = await app.core.dispatch('tasks.update', {
        taskId: task.id,
        changes: { assignedToUserId: 'u-nobody' },
      });
      expect(queued.ok).toBe(true);
    }
    await ui.goToChanges();
    const changes = new ChangesPage(page);
    const refused = changes.entries.filter({ hasText: 'Refused by the service' });
    await eventually(
      () => refused.count(),
      (n) => n === 2,
    );
    expect(await changes.entry(`'${first!.name}'`).innerText()).toMatch(
      /Assignee of '.+' → unknown user u-nobody/,
    );
    await page.getByTestId('failed-count').waitFor();
    await screenshot(page, 'changes-refused');

    // Edit the first: give it a real user, and it goes through.
    const firstEntry = changes.entry(`'${first!.name}'`);
    await firstEntry.getByRole('button', { name: 'Edit' }).click();
    await firstEntry.getByLabel('Assignee').fill('u-bob');
    await firstEntry.getByRole('button', { name: 'Save and send' }).click();
    await eventually(
      () => app.api<ServiceTask>(`/task/${first!.id}`),
      (t) => t.assignedToUserId === 'u-bob',
    );

    // Discard the second: the view goes back to what the service has.
    const secondEntry = changes.entry(`'${second!.name}'`);
    await secondEntry.getByRole('button', { name: 'Discard' }).click();
    await page.getByTestId('confirm-dialog').getByTestId('confirm').click();
    await changes.entries.first().waitFor({ state: 'detached' });
    await page.getByText('Every change has reached the service').waitFor();
    const detail = await app.core.dispatch('tasks.detail', { taskId: second!.id });
    expect(detail).toMatchObject({
      ok: true,
      value: { task: { assignedToUserId: second!.assignedToUserId } },
    });
    await screenshot(page, 'changes-empty');
  });
});
