/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, screenshot } from './support/browser';
import { startApp, type RunningApp } from './support/web-host';
import { eventually } from './support/wait';
import { uniquelyNamed } from './support/demo';
import { AppPage } from './pages/app';
import { CrmPage } from './pages/crm';
import { choose } from './pages/picker';

interface ServiceContact {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  crmAccountId: string | null;
  isDeleted?: boolean;
}
interface ServiceAccount {
  id: string;
  name: string;
  website: string;
  isDeleted?: boolean;
}
interface ServiceTask {
  id: string;
  name: string;
  crmAccountId?: string;
}

describe('CRM writes: contacts and accounts created, edited, linked to tasks from both sides, deleted', () => {
  let app: RunningApp;
  let browser: Browser;
  let page: Page;
  let ui: AppPage;
  let crm: CrmPage;
  let task: ServiceTask;
  let contact: ServiceContact;
  let account: ServiceAccount;

  const liveContacts = async (): Promise<ServiceContact[]> =>
    (await app.api<ServiceContact[]>('/crm/contacts')).filter((c) => !c.isDeleted);
  const liveAccounts = async (): Promise<ServiceAccount[]> =>
    (await app.api<ServiceAccount[]>('/crm/accounts')).filter((a) => !a.isDeleted);

  beforeAll(async () => {
    app = await startApp({ service: { seed: 'demo' } });
    const tasks = await app.api<ServiceTask[]>('/project/g7-p1/tasks');
    // A task name no other task shares, so the search finds exactly it.
    const unique = uniquelyNamed(tasks)[0];
    if (!unique) throw new Error('every demo task name repeats');
    task = unique;
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    ui = new AppPage(page);
    crm = new CrmPage(page);
    await ui.open(app.host.url);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('creates an account, then edits it', async () => {
    await crm.openAccounts();
    await page.getByTestId('crm-new').click();
    const form = page.getByTestId('account-form');
    await form.getByTestId('account-name').fill('Quintero Logistics');
    await form.getByLabel('Website').fill('https://quintero.test');
    await form.getByTestId('account-save').click();
    await form.waitFor({ state: 'hidden' });
    account = (
      await eventually(liveAccounts, (list) => list.some((a) => a.name === 'Quintero Logistics'))
    ).find((a) => a.name === 'Quintero Logistics')!;
    expect(account.website).toBe('https://quintero.test');

    await crm.search('Quintero');
    await crm.rows.filter({ hasText: 'Quintero Logistics' }).first().click();
    await crm.detail.waitFor();
    await crm.detail.getByTestId('crm-edit').click();
    await form.getByTestId('account-name').fill('Quintero Freight');
    await form.getByTestId('account-save').click();
    await form.waitFor({ state: 'hidden' });
    await crm.detail.getByRole('heading', { name: 'Quintero Freight' }).waitFor();
    await eventually(
      () => app.api<{ account: ServiceAccount }>(`/crm/account/${account.id}`),
      (a) => a.account.name === 'Quintero Freight',
    );
    await screenshot(page, 'crm-account-edited');
  });

  it('creates a contact in that account, refuses one without a first name, then edits it', async () => {
    await crm.openContacts();
    await page.getByTestId('crm-new').click();
    const form = page.getByTestId('contact-form');
    await form.getByTestId('contact-save').click();
    await expect
      .poll(() => form.getByTestId('contact-problem').innerText())
      .toBe('First name: must not be empty');
    await form.getByTestId('contact-first-name').fill('Rosa');
    // The problem names the first name: typing one clears it (and its red mark) at once.
    await form.getByTestId('contact-problem').waitFor({ state: 'detached' });
    await expect
      .poll(() => form.getByTestId('contact-first-name').getAttribute('aria-invalid'))
      .toBe('false');
    await form.getByTestId('contact-last-name').fill('Quintero');
    await form.getByTestId('contact-email').fill('rosa@quintero.test');
    await choose(page, form.getByRole('button', { name: /^Account:/ }), 'Quintero Freight');
    await screenshot(page, 'crm-contact-form');
    await form.getByTestId('contact-save').click();
    await form.waitFor({ state: 'hidden' });
    contact = (
      await eventually(liveContacts, (list) => list.some((c) => c.email === 'rosa@quintero.test'))
    ).find((c) => c.email === 'rosa@quintero.test')!;
    expect(contact.firstName).toBe('Rosa');

    await crm.openFound('rosa@quintero');
    await crm.detail.waitFor();
    await crm.detail.getByTestId('crm-edit').click();
    await form.getByLabel('Phone').fill('+34 600 000 111');
    await form.getByTestId('contact-save').click();
    await form.waitFor({ state: 'hidden' });
    const after = await eventually(
      () => app.api<{ contact: ServiceContact }>(`/crm/contact/${contact.id}`),
      (c) => c.contact.phone === '+34 600 000 111',
    );
    expect(after.contact.crmAccountId).toBe(account.id);
    await crm.detail.getByText('Quintero Freight').waitFor();
  });

  it('links a task from the contact, and the account from the task', async () => {
    await crm.linkTask(task.name);
    await crm.linkedTasks.filter({ hasText: task.name }).waitFor();
    await eventually(
      () => app.api<{ tasks: { id: string }[] }>(`/crm/contact/${contact.id}`),
      (c) => c.tasks.some((t) => t.id === task.id),
    );
    await screenshot(page, 'crm-contact-linked');

    // The task's side: it shows the contact; link the account there.
    await crm.linkedTasks.filter({ hasText: task.name }).getByRole('button').first().click();
    await page.getByTestId('task-crm-contact').filter({ hasText: 'Rosa' }).waitFor();
    await choose(page, page.getByTestId('task-crm-account'), 'Quintero Freight');
    await eventually(
      () => app.api<ServiceTask>(`/task/${task.id}`),
      (t) => t.crmAccountId === account.id,
    );
    await page.getByTestId('task-crm').scrollIntoViewIfNeeded();
    await screenshot(page, 'crm-task-linked');

    // Back on the account, the task is listed among its tasks.
    await crm.openAccounts();
    await crm.search('Quintero');
    await crm.rows.filter({ hasText: 'Quintero Freight' }).first().click();
    await crm.linkedTasks.filter({ hasText: task.name }).waitFor();
  });

  it('deletes the contact and the account after asking', async () => {
    await crm.openContacts();
    await crm.openFound('rosa@quintero');
    await crm.detail.getByTestId('crm-delete').click();
    const confirm = page.locator('dialog[open][data-testid="confirm-dialog"]');
    await confirm.waitFor();
    await confirm.getByTestId('confirm').click();
    await eventually(liveContacts, (list) => !list.some((c) => c.id === contact.id));
    await page.waitForFunction(() => !document.querySelector('[data-testid="crm-row"]'));

    await crm.openAccounts();
    await crm.openFound('Quintero Freight');
    await crm.detail.getByTestId('crm-delete').click();
    await confirm.waitFor();
    await confirm.getByTestId('confirm').click();
    await eventually(liveAccounts, (list) => !list.some((a) => a.id === account.id));
    await ui.waitForPendingCount(0);
    await screenshot(page, 'crm-deleted');
  });
});
