// A view reading its item again (after a sync's cache change) when that read fails as a lost
// connection's does: the task panel, the project overview, the CRM record, the calendar and the
// Changes view keep what they show, say above it that it could not be read again, and Try again
// reads it. The connection
// itself stays (the route answers the read with the error), so nothing reads the item again by
// itself: only Try again can heal it. The item stays in the cache throughout.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { screenshot } from './support/browser';
import { appSuite } from './support/suite';
import { routeBridge, type BridgeCut } from './support/bridge-cut';
import { AppPage } from './pages/app';
import { TaskDetailPage } from './pages/task-detail';
import { ProjectOverviewPage } from './pages/project-overview';
import { CrmPage } from './pages/crm';
import { CalendarPage } from './pages/calendar';
import { ChangesPage } from './pages/changes';

interface ServiceContact {
  id: string;
  firstName: string;
  lastName: string;
  phone: string;
}

describe('a failed read again keeps what is shown, says so, and Try again heals it', () => {
  const suite = appSuite({ service: { seed: 'demo' }, page: false });
  let page: Page;
  let ui: AppPage;
  let bridge: BridgeCut;

  beforeAll(async () => {
    page = await suite.browser.newPage({ viewport: { width: 1280, height: 760 } });
    bridge = await routeBridge(page);
    ui = new AppPage(page);
  });
  // Each test opens the app afresh, so that no read of another test's views is on its way.
  beforeEach(async () => {
    await page.goto('about:blank');
    await ui.open(suite.app.host.url);
  });
  afterEach(() => {
    expect(ui.errors).toEqual([]);
  });

  /**
   * Makes the view's next call on `channel` fail: `change` changes its item on the service, a
   * sync brings the change into the cache, the view reads its item again, and that read (and any
   * on `channel` until `tryAgainHeals`) is answered 'offline' (as when the connection is lost)
   * while the connection stays.
   */
  async function failNextRead(channel: string, change: () => Promise<unknown>): Promise<void> {
    const failed = bridge.fail(channel);
    await change();
    expect(await suite.app.core.dispatch('sync.now', { wait: true })).toMatchObject({ ok: true });
    await failed;
  }

  /** The alert above the item: what could not be read, the reason, and Try again. */
  async function expectAlert(alert: Locator, what: string): Promise<void> {
    await alert.waitFor();
    expect(await alert.innerText()).toMatch(
      new RegExp(
        `^Could not read ${what} again: The connection to the Workdesk core was lost\\. Shown as it was last read\\.`,
      ),
    );
    expect(await alert.getAttribute('role')).toBe('alert');
    expect(await alert.getByRole('button', { name: 'Try again' }).isVisible()).toBe(true);
  }

  /** The alert sits above `content`, not over it. */
  async function expectAbove(alert: Locator, content: Locator): Promise<void> {
    const [a, c] = await Promise.all([alert.boundingBox(), content.boundingBox()]);
    if (!a || !c) throw new Error('the alert and the content are both on screen');
    expect(a.y + a.height).toBeLessThanOrEqual(c.y);
  }

  /**
   * Once `channel` answers again, Try again reads the item again (nothing else would: the
   * connection stayed), and the alert goes.
   */
  async function tryAgainHeals(alert: Locator, channel: string): Promise<void> {
    bridge.heal(channel);
    await alert.getByRole('button', { name: 'Try again' }).click();
    await alert.waitFor({ state: 'detached' });
  }

  it('the task panel', async () => {
    const { app } = suite;
    const detail = new TaskDetailPage(page);
    const { task } = await ui.openBeside('Support desk 1', 0);
    await detail.waitFor(task.name);
    const renamed = `${task.name} (renamed elsewhere)`;
    await failNextRead('tasks.detail', () =>
      app.api(`/task/${task.id}/update`, {
        method: 'PUT',
        body: { userId: app.service?.users.actingUserId, title: renamed },
      }),
    );

    const alert = page.getByTestId('task-read-error');
    await expectAlert(alert, 'the task');
    // The task stays as it was last read, below the alert.
    expect(await detail.title()).toBe(task.name);
    await expectAbove(alert, page.getByTestId('task-title'));
    await screenshot(page, 'read-again-failed-task');

    // Try again failing the same way: the task stays, and so does the alert.
    const failedAgain = bridge.fail('tasks.detail');
    await alert.getByRole('button', { name: 'Try again' }).click();
    await failedAgain;
    await alert.waitFor();
    expect(await detail.title()).toBe(task.name);

    await tryAgainHeals(alert, 'tasks.detail');
    await detail.waitFor(renamed);
    await screenshot(page, 'read-again-healed-task');
  });

  it('the project overview', async () => {
    const { app } = suite;
    const overview = new ProjectOverviewPage(page);
    await ui.openDemoProject('Support desk 2');
    await overview.open();
    const projects = await app.api<{ id: string; name: string }[]>('/projects');
    const project = projects.find((p) => p.name === 'Support desk 2');
    if (!project) throw new Error('the demo seed has the project "Support desk 2"');
    const description = 'Escalations from the night shift';
    await failNextRead('projects.detail', () =>
      app.api(`/project/${project.id}`, {
        method: 'PUT',
        body: { userId: app.service?.users.actingUserId, description },
      }),
    );

    const alert = page.getByTestId('project-read-error');
    await expectAlert(alert, 'the project');
    await expectAbove(alert, overview.field('project-description'));
    expect(await overview.field('project-description').inputValue()).not.toBe(description);
    await screenshot(page, 'read-again-failed-project');

    await tryAgainHeals(alert, 'projects.detail');
    await expect.poll(() => overview.field('project-description').inputValue()).toBe(description);
    await screenshot(page, 'read-again-healed-project');
  });

  it('the CRM record', async () => {
    const { app } = suite;
    const crm = new CrmPage(page);
    const contacts = await app.api<ServiceContact[]>('/crm/contacts');
    const contact = contacts[0];
    if (!contact) throw new Error('the demo seed has contacts');
    await crm.openContacts();
    const name = `${contact.firstName} ${contact.lastName}`;
    await crm.search(contact.lastName);
    await crm.rows.filter({ hasText: name }).first().click();
    await crm.detail.getByRole('heading', { name }).waitFor();
    const phone = '+44 20 7946 0999';
    await failNextRead('crm.contact', () =>
      app.api(`/crm/contact/${contact.id}`, {
        method: 'PUT',
        body: { updatedByUserId: app.service?.users.actingUserId, phone },
      }),
    );

    const alert = page.getByTestId('crm-read-error');
    await expectAlert(alert, 'the record');
    expect(await crm.detail.innerText()).not.toContain(phone);
    const heading = crm.detail.getByRole('heading', { level: 2 });
    expect(await heading.innerText()).toBe(name);
    await expectAbove(alert, heading);
    await screenshot(page, 'read-again-failed-crm');

    await tryAgainHeals(alert, 'crm.contact');
    await expect.poll(() => crm.detail.innerText()).toContain(phone);
    await screenshot(page, 'read-again-healed-crm');
  });

  it('the calendar', async () => {
    const { app } = suite;
    const calendar = new CalendarPage(page);
    await calendar.open();
    await calendar.chips.first().waitFor();
    const before = await calendar.chips.count();
    const today = new Date();
    const pad = (n: number) => String(n).padStart(2, '0');
    const day = `${today.getFullYear()}-${pad(today.getMonth() + 1)}-${pad(today.getDate())}`;
    const name = 'Company breakfast';
    await failNextRead('events.list', () =>
      app.api('/events', {
        method: 'POST',
        body: {
          createdByUserId: app.service?.users.actingUserId,
          eventType: 'company-event',
          name,
          startDate: day,
          endDate: day,
        },
      }),
    );

    const alert = page.getByTestId('calendar-read-again');
    await expectAlert(alert, 'the events');
    // The month stays as it was last read, below the alert.
    expect(await calendar.chips.count()).toBe(before);
    expect(await calendar.chips.filter({ hasText: name }).count()).toBe(0);
    await expectAbove(alert, calendar.grid);
    await screenshot(page, 'read-again-failed-calendar');

    await tryAgainHeals(alert, 'events.list');
    await calendar.chips.filter({ hasText: name }).first().waitFor();
    await screenshot(page, 'read-again-healed-calendar');
  });

  it('the Changes view', async () => {
    const { app } = suite;
    const changes = new ChangesPage(page);
    const [first, second] = await app.api<{ id: string; name: string }[]>('/project/g7-p5/tasks');
    /** Another client of the core queues an assignee the service does not know: it is refused. */
    const queueRefused = async (taskId: string) =>
      expect(
        await app.core.dispatch('tasks.update', { taskId, changes: { assignedToUserId: 'u-nobody' } }),
      ).toMatchObject({ ok: true });
    await queueRefused(first!.id);
    await ui.goToChanges();
    await changes.entry(`'${first!.name}'`).waitFor();

    // The next change makes the view read its lists again, and that read fails.
    const failed = bridge.fail('outbox.pending');
    await queueRefused(second!.id);
    await failed;

    const alert = page.getByTestId('changes-read-again');
    await expectAlert(alert, 'the changes');
    // The lists stay as they were last read, below the alert: the second change is not in them.
    expect(await changes.entries.count()).toBe(1);
    await expectAbove(alert, changes.entries.first());
    await screenshot(page, 'read-again-failed-changes');

    await tryAgainHeals(alert, 'outbox.pending');
    await changes.entry(`'${second!.name}'`).waitFor();
    // The refused changes are discarded, so that no other test finds them.
    for (const task of [first!, second!]) {
      await changes.entry(`'${task.name}'`).getByRole('button', { name: 'Discard' }).click();
      await page.getByTestId('confirm-dialog').getByTestId('confirm').click();
      await changes.entry(`'${task.name}'`).waitFor({ state: 'detached' });
    }
  });
});
