import { describe, expect, it } from 'vitest';
import { screenshot } from './support/browser';
import { appSuite } from './support/suite';
import { eventually } from './support/wait';
import { choose } from './pages/picker';
import { TaskListPage } from './pages/task-list';
import { TaskDetailPage } from './pages/task-detail';

interface ServiceTask {
  id: string;
  name: string;
  parentTaskId: string | null;
  actionRequiredUserId: string | null;
}
interface ServiceMessage {
  message: string;
  toUserId: string;
  attachments?: { name: string; size: number | null; mime: string }[];
}

/** The reply operation's `attachments`: a file picked in the composer goes with the reply. */
describe('a reply that hands the task over carries a picked file', () => {
  const suite = appSuite({ service: { seed: 'demo' }, viewport: { width: 1440, height: 900 } });

  it('sends the reply with the file to the service, and Bob must act next', async () => {
    const { app, page, ui } = suite;
    const tasks = await app.api<ServiceTask[]>('/project/g7-p1/tasks');
    const target = tasks.find((t) => t.parentTaskId === null && t.actionRequiredUserId !== 'u-bob')!;
    await ui.expand('Company Workspace');
    await ui.expand('Website relaunch area 1');
    await ui.openProject('Support desk 1');
    const list = new TaskListPage(page);
    await list.waitForRows();
    await list.open(target);
    const detail = new TaskDetailPage(page);
    await detail.waitFor(target.name);

    const composer = page.getByTestId('composer');
    await composer.getByTestId('mode-reply').check();
    await choose(page, composer.getByTestId('reply-to'), 'Bob Okafor');
    await composer.getByTestId('attach-files-input').setInputFiles({
      name: 'measurements.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('width,height\n120,80\n'),
    });
    await composer.getByTestId('staged-file').filter({ hasText: 'measurements.csv' }).waitFor();
    await composer.getByPlaceholder('Reply (optional)…').fill('Measurements attached, over to you.');
    await screenshot(page, 'renderer3-reply-staged');
    await composer.getByTestId('send-message').click();
    await detail.messages.filter({ hasText: 'Measurements attached' }).waitFor();
    await ui.waitForPendingCount(0);

    const messages = await eventually(
      () => app.api<ServiceMessage[]>(`/task/${target.id}/messages`),
      (list) => list.some((m) => m.message === 'Measurements attached, over to you.'),
    );
    const sent = messages.find((m) => m.message === 'Measurements attached, over to you.')!;
    expect(sent.toUserId).toBe('u-bob');
    expect(sent.attachments).toEqual([expect.objectContaining({ name: 'measurements.csv', size: 20 })]);
    expect((await app.api<ServiceTask>(`/task/${target.id}`)).actionRequiredUserId).toBe('u-bob');
    await screenshot(page, 'renderer3-reply-sent');
  });
});
