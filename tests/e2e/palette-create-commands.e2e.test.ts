import { describe, expect, it } from 'vitest';
import { screenshot } from './support/browser';
import { appSuite } from './support/suite';
import { dayString } from './support/demo';
import { eventually } from './support/wait';
import { choose } from './pages/picker';
import { PalettePage } from './pages/palette';
import { CrmPage } from './pages/crm';
import { NewTaskDialogPage } from './pages/new-task';

interface ServiceEvent {
  id: string;
  name: string;
  eventType: string;
  projectId: string | null;
  assignedToUserId: string | null;
  notes: string | null;
}
interface ServiceTask {
  id: string;
  name: string;
  crmAccountId?: string;
}
interface ServiceContact {
  id: string;
  firstName: string;
  contactType: string | null;
  isDeleted?: boolean;
}

/**
 * The creates that were only buttons of their views, run from the palette: a calendar event
 * (with its notes and assignee, checked on the service), a CRM contact with its type and an
 * account; then a task created already linked to both (create-task's crmAccountId and
 * crmContactIds).
 */
describe('palette: create commands for events and CRM records; a task created with its CRM links', () => {
  const suite = appSuite({ service: { seed: 'demo' }, viewport: { width: 1440, height: 900 } });

  const run = async (query: string, label: string): Promise<void> => {
    expect(await new PalettePage(suite.page).runCommand(query)).toBe(label);
  };

  it('opens the calendar on a new event; its notes and assignee reach the service', async () => {
    const { app, page, ui } = suite;
    await ui.treeItem('Company Workspace').waitFor();
    await run('new event', 'New calendar event');
    await ui.waitForTitle('Calendar');
    const dialog = page.getByTestId('new-event');
    await dialog.waitFor();
    await page.getByTestId('event-type').selectOption('project-event');
    await page.getByTestId('event-name').fill('Quarter review');
    await choose(page, page.getByTestId('event-project'), 'Support desk 1');
    await choose(page, page.getByTestId('event-assignee'), 'Cleo Martins');
    await dialog.getByLabel('Notes').fill('Bring the support figures.');
    await screenshot(page, 'palette-create-new-event');
    await page.getByTestId('event-create').click();
    await dialog.waitFor({ state: 'hidden' });

    const created = (
      await eventually(
        () => app.api<ServiceEvent[]>(`/events?startDate=${dayString(-1)}&endDate=${dayString(1)}`),
        (list) => list.some((event) => event.name === 'Quarter review'),
      )
    ).find((event) => event.name === 'Quarter review')!;
    expect(created).toMatchObject({
      eventType: 'project-event',
      projectId: 'g7-p1',
      assignedToUserId: 'u-cleo',
      notes: 'Bring the support figures.',
    });
  });

  it('opens Contacts on a new contact; the type chosen reaches the service and shows in the record', async () => {
    const { app, page, ui } = suite;
    await run('new contact', 'New CRM contact');
    await ui.waitForTitle('Contacts');
    const form = page.getByTestId('contact-form');
    await form.waitFor();
    await form.getByTestId('contact-first-name').fill('Ines');
    await form.getByTestId('contact-last-name').fill('Duarte');
    await form.getByTestId('contact-email').fill('ines@duarte.test');
    // The types offered are those the service's contacts carry.
    await choose(page, form.getByTestId('contact-type'), 'ct-partner');
    await screenshot(page, 'palette-create-new-contact');
    await form.getByTestId('contact-save').click();
    await form.waitFor({ state: 'hidden' });

    const contacts = () => app.api<ServiceContact[]>('/crm/contacts');
    const created = (
      await eventually(contacts, (list) => list.some((c) => c.firstName === 'Ines' && !c.isDeleted))
    ).find((c) => c.firstName === 'Ines')!;
    expect(created.contactType).toBe('ct-partner');

    const crm = new CrmPage(page);
    await crm.openFound('ines@duarte');
    await crm.detail.waitFor();
    await expect.poll(() => crm.detail.getByTestId('contact-type-value').innerText()).toBe('ct-partner');

    // Edit: another type, sent alone.
    await crm.detail.getByTestId('crm-edit').click();
    await choose(page, form.getByTestId('contact-type'), 'ct-customer');
    await form.getByTestId('contact-save').click();
    await form.waitFor({ state: 'hidden' });
    await eventually(
      () => app.api<{ contact: ServiceContact }>(`/crm/contact/${created.id}`),
      (c) => c.contact.contactType === 'ct-customer',
    );
    await crm.detail.getByTestId('contact-type-value').getByText('ct-customer').waitFor();
    await screenshot(page, 'palette-create-contact-type');
  });

  it('opens Accounts on a new account', async () => {
    const { app, page, ui } = suite;
    await run('new account', 'New CRM account');
    await ui.waitForTitle('Accounts');
    const form = page.getByTestId('account-form');
    await form.waitFor();
    await form.getByTestId('account-name').fill('Duarte Textiles');
    await form.getByTestId('account-save').click();
    await form.waitFor({ state: 'hidden' });
    await eventually(
      () => app.api<{ name: string }[]>('/crm/accounts'),
      (list) => list.some((account) => account.name === 'Duarte Textiles'),
    );
  });

  it('creates a task linked to that contact and account from the new-task dialog', async () => {
    const { app, page, ui } = suite;
    const accounts = await app.api<{ id: string; name: string }[]>('/crm/accounts');
    const account = accounts.find((a) => a.name === 'Duarte Textiles')!;
    const contact = (await app.api<(ServiceContact & { lastName: string })[]>('/crm/contacts')).find(
      (c) => c.firstName === 'Ines',
    )!;
    const dialog = new NewTaskDialogPage(page);
    await dialog.openWithShortcut();
    await dialog.fill({ title: 'Send the Duarte samples', project: 'Support desk 1' });
    await choose(page, dialog.root.getByTestId('nt-crm-account'), 'Duarte Textiles');
    await choose(page, dialog.root.getByTestId('nt-crm-add-contact'), 'Ines Duarte');
    await dialog.root.getByTestId('nt-crm-contact').filter({ hasText: 'Ines Duarte' }).waitFor();
    await screenshot(page, 'palette-create-new-task-crm');
    await dialog.submit();
    await dialog.root.waitFor({ state: 'hidden' });
    await ui.waitForPendingCount(0);

    const created = (
      await eventually(
        () => app.api<ServiceTask[]>('/project/g7-p1/tasks'),
        (list) => list.some((t) => t.name === 'Send the Duarte samples' && !t.id.startsWith('local-')),
      )
    ).find((t) => t.name === 'Send the Duarte samples')!;
    expect((await app.api<ServiceTask>(`/task/${created.id}`)).crmAccountId).toBe(account.id);
    const linked = await app.api<{ tasks: { id: string }[] }>(`/crm/contact/${contact.id}`);
    expect(linked.tasks.map((t) => t.id)).toContain(created.id);
    // The task's detail shows both links.
    const crm = page.getByTestId('task-crm');
    await crm.getByTestId('task-crm-contact').filter({ hasText: 'Ines Duarte' }).waitFor();
    await expect
      .poll(() => crm.getByTestId('task-crm-account').getAttribute('aria-label'))
      .toBe('CRM account: Duarte Textiles');
  });
});
