import { describe, expect, it } from 'vitest';
import { screenshot } from './support/browser';
import { appSuite } from './support/suite';
import { eventually } from './support/wait';
import { ChangesPage } from './pages/changes';
import { PalettePage } from './pages/palette';
import { ProjectOverviewPage } from './pages/project-overview';
import { projectReadChannels } from '../../src/shared/ipc/projects';

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
    await expect
      .poll(() => changes.entry(`'${first!.name}'`).innerText())
      .toMatch(/Assignee of '.+' → unknown user u-nobody/);
    await page.getByTestId('failed-count').waitFor();
    await screenshot(page, 'changes-refused');

    // Edit the first: give it a real user, and it goes through.
    const firstEntry = changes.entry(`'${first!.name}'`);
    await firstEntry.getByRole('button', { name: 'Edit' }).click();
    await firstEntry.getByLabel('Assignee').selectOption('u-bob');
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

  it('says a member change waits behind a refused member add, links to it, and sends it once the add is discarded', async () => {
    const { app, page, ui } = suite;
    const projectId = 'g7-p5';
    const users = app.service!.users;
    const members = await app.api<{ id: string; name: string; access: string }[]>(
      `/project/${projectId}/users`,
    );
    const member = members.find((m) => m.id !== users.actingUserId && m.access !== 'Full');
    if (!member) throw new Error('the demo project has a member without full access');
    // The project's members reach the cache as its page would fetch them.
    await eventually(
      () => app.core.dispatch('projects.detail', { projectId }),
      (detail) =>
        detail.ok &&
        projectReadChannels['projects.detail'].output
          .parse(detail.value)
          .members.some((m) => m.id === member.id),
    );
    // The guest is not in the Workspace: the service refuses the add, and the member change
    // queued after it shares the project's chain (rule 2).
    expect(
      (await app.core.dispatch('members.add', { projectId, userId: users.guestUserId, access: 2 })).ok,
    ).toBe(true);
    await ui.goToChanges();
    const changes = new ChangesPage(page);
    const refused = changes.entry('Add member');
    await refused.getByText('Refused by the service').waitFor({ timeout: 15_000 });
    expect(
      (await app.core.dispatch('members.setAccess', { projectId, userId: member.id, access: 3 })).ok,
    ).toBe(true);
    const waiting = changes.entry('Change access of member');
    const heldBy = waiting.getByTestId('held-by');
    await heldBy.waitFor();
    await expect
      .poll(() => heldBy.innerText())
      .toMatch(/^Waiting behind the refused change “Add member ".+" to project ".+"” above$/);
    await expect.poll(() => waiting.innerText()).toContain(`"${member.name}"`);
    await heldBy.click();
    expect(await page.evaluate(() => document.activeElement?.textContent ?? '')).toContain(
      'Refused by the service',
    );
    await screenshot(page, 'changes-held-behind-refusal');

    // The project's own refusal box names the change it holds back.
    const { name: projectName } = await app.api<{ name: string }>(`/project/${projectId}`);
    await new PalettePage(page).openHit(projectName, 'Projects');
    const overview = new ProjectOverviewPage(page);
    await overview.open();
    const held = page.getByTestId('project-service-refusal-held');
    await held.waitFor();
    await expect
      .poll(() => held.innerText())
      .toBe(
        `A later change waits behind it: “Change access of member "${member.name}" in project "${projectName}"”`,
      );
    await screenshot(page, 'project-refusal-holds');
    await ui.goToChanges();

    await refused.getByRole('button', { name: 'Discard' }).click();
    await page.getByTestId('confirm-dialog').getByTestId('confirm').click();
    await page.getByText('Every change has reached the service').waitFor({ timeout: 15_000 });
    const after = await app.api<{ id: string; access: string }[]>(`/project/${projectId}/users`);
    expect(after.find((m) => m.id === member.id)?.access).toBe('Full');
    expect(after.some((m) => m.id === users.guestUserId)).toBe(false);
  });

  it('corrects a refused create: the project typed once is fixed in Changes and made once', async () => {
    const { app, page, ui } = suite;
    // Another client of the core queues a project for an owner and from a template the service
    // does not know.
    const queued = await app.core.dispatch('projects.create', {
      name: 'Typed once',
      projectTemplateId: 'pt-gone',
      parentProjectId: 'p-workspace',
      projectOwnerUserId: 'u-nobody',
      startDate: '2026-11-23',
      endDate: '2026-11-30',
    });
    expect(queued.ok).toBe(true);
    await ui.goToChanges();
    const changes = new ChangesPage(page);
    const entry = changes.entry('Typed once');
    await entry.getByText('Refused by the service').waitFor({ timeout: 15_000 });
    // Before: Retry and Discard only; what was typed had to be typed again.
    await entry.getByRole('button', { name: 'Edit' }).click();
    const form = entry.getByTestId('change-correction');
    await expect.poll(() => form.getByLabel('Name').inputValue()).toBe('Typed once');
    await expect.poll(() => form.getByLabel('End date').inputValue()).toBe('2026-11-30');

    // A correction the shared schema refuses is named by its field, and nothing is sent.
    await form.getByLabel('End date').fill('2026-11-20');
    await form.getByRole('button', { name: 'Save and send' }).click();
    await form.getByRole('alert').waitFor();
    await expect
      .poll(() => form.getByRole('alert').innerText())
      .toBe('End date: must not be before start date');
    await screenshot(page, 'changes-correct-create');

    await form.getByLabel('End date').fill('2026-12-04');
    await expect.poll(() => form.getByLabel('Owner').inputValue()).toBe('u-nobody');
    await form.getByLabel('Owner').selectOption({ label: 'Bob Okafor' });
    await form.getByLabel('Name').fill('Typed once, corrected');
    // Template and parent folder are lists by name (as users are), an unknown id shown as such.
    const chosen = (label: string) =>
      form.getByLabel(label).evaluate((el) => (el as HTMLSelectElement).selectedOptions[0]?.text ?? '');
    await eventually(
      () => chosen('Template'),
      (text) => text === 'Unknown template pt-gone',
    );
    expect(await chosen('Parent folder')).toBe('Company Workspace');
    const tree = await app.core.dispatch('projects.tree', { includeArchived: false });
    if (!tree.ok) throw new Error('the tree is readable');
    const folder = projectReadChannels['projects.tree'].output
      .parse(tree.value)
      .nodes.find((n) => n.isFolder && n.parentProjectId === 'p-workspace');
    if (!folder) throw new Error('the demo workspace holds a folder');
    const folderOptions = await form
      .getByLabel('Parent folder')
      .locator('option')
      .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).text));
    expect(folderOptions).toContain(`Company Workspace / ${folder.name}`);
    expect(folderOptions.filter((text) => text.startsWith('Unknown'))).toEqual([]);
    await form.getByLabel('Template').selectOption({ label: 'Kanban board' });
    await form.getByLabel('Parent folder').selectOption({ label: `Company Workspace / ${folder.name}` });
    await screenshot(page, 'changes-correct-create-lists');
    await form.getByRole('button', { name: 'Save and send' }).click();
    await page.getByText('Every change has reached the service').waitFor({ timeout: 15_000 });
    const projects =
      await app.api<{ name: string; endDate: string | null; ownerUserId: string; parentProjectId: string }[]>(
        '/projects',
      );
    expect(projects.filter((p) => p.name.startsWith('Typed once'))).toMatchObject([
      {
        name: 'Typed once, corrected',
        endDate: '2026-12-04',
        ownerUserId: 'u-bob',
        parentProjectId: folder.id,
      },
    ]);
  });

  it('corrects a refused change where its task shows it, with the same form', async () => {
    const { app, page, ui } = suite;
    // From a list, so the task opens in the panel beside it (from Changes it opens full size).
    await ui.goToAssigned();
    const tasks =
      await app.api<(ServiceTask & { startDate: string | null; endDate: string | null; shortId: string })[]>(
        '/project/g7-p4/tasks',
      );
    const task = tasks.find((t) => !t.startDate && !t.endDate);
    if (!task) throw new Error('the demo project has a task without dates');
    // Another client sets a start this app has not heard of; an end this app queues before it
    // is refused by the service.
    const bob = app.service!.users.bob;
    await app.api(`/task/${task.id}/update`, {
      method: 'PUT',
      body: { userId: bob, startDate: '2027-03-01' },
    });
    const queued = await app.core.dispatch('tasks.update', {
      taskId: task.id,
      changes: { endDate: '2027-02-20' },
    });
    expect(queued.ok).toBe(true);
    // By its number: the demo has several tasks of some names.
    await new PalettePage(page).openHit(`#${task.shortId}`, 'Tasks');
    const refusal = page
      .locator(`[data-testid="detail-panel"][data-task-id="${task.id}"]`)
      .getByTestId('task-service-refusal');
    await refusal.waitFor({ timeout: 15_000 });
    // Before: Retry and Discard only.
    await refusal.getByRole('button', { name: 'Edit' }).click();
    const form = refusal.getByTestId('change-correction');
    await expect.poll(() => form.getByLabel('End date').inputValue()).toBe('2027-02-20');
    await form.getByLabel('End date').fill('2027-03-05');
    await screenshot(page, 'task-refusal-correct');
    await form.getByRole('button', { name: 'Save and send' }).click();
    await refusal.waitFor({ state: 'hidden' });
    await eventually(
      () => app.api<{ startDate: string | null; endDate: string | null }>(`/task/${task.id}`),
      (t) => t.startDate === '2027-03-01' && t.endDate === '2027-03-05',
    );
    await page.keyboard.press('Escape');
  });
});
