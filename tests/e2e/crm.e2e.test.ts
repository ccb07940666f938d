/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, screenshot } from './support/browser';
import { startApp, type RunningApp } from './support/web-host';
import { AppPage } from './pages/app';
import { CrmPage } from './pages/crm';

interface ServiceContact {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  isDeleted: boolean;
}
interface ServiceAccount {
  id: string;
  name: string;
}

describe('CRM: contacts and accounts, search, detail, linked tasks from both sides', () => {
  let app: RunningApp;
  let browser: Browser;
  let page: Page;
  let crm: CrmPage;
  let contacts: ServiceContact[];
  let linkedContactId: string | undefined;

  beforeAll(async () => {
    app = await startApp({ service: { seed: 'demo' } });
    contacts = (await app.api<ServiceContact[]>('/crm/contacts')).filter((c) => !c.isDeleted);
    for (const contact of contacts) {
      const detail = await app.api<{ tasks: unknown[] }>(`/crm/contact/${contact.id}`);
      if (detail.tasks.length) {
        linkedContactId = contact.id;
        break;
      }
    }
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    crm = new CrmPage(page);
    await new AppPage(page).open(app.host.url);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('lists the service’s contacts and narrows them by a search', async () => {
    await crm.openContacts();
    await page.waitForFunction(
      (n) => document.querySelector('[data-testid="crm-count"]')?.textContent?.trim() === String(n),
      contacts.length,
    );
    const target = contacts[0]!;
    await crm.search(target.email);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="crm-row"]').length === 1);
    expect(await crm.rows.first().innerText()).toContain(target.email);
  });

  it('opens a contact with the tasks the service links to it, and the task shows the contact', async () => {
    const target = contacts.find((c) => c.id === linkedContactId) ?? contacts[0]!;
    await crm.search(target.email);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="crm-row"]').length === 1);
    await crm.rows.first().click();
    await crm.detail.waitFor();
    expect(await crm.detail.innerText()).toContain(target.email);
    // Opening a record keeps the search and its one row.
    expect(await page.getByTestId('crm-search').inputValue()).toBe(target.email);
    expect(await crm.rows.count()).toBe(1);
    const detail = await app.api<{ tasks: { id: string; title: string }[] }>(`/crm/contact/${target.id}`);
    expect(detail.tasks.length).toBeGreaterThan(0);
    await page.waitForFunction(
      (n) => document.querySelectorAll('[data-testid="crm-detail"] [data-testid="linked-task"]').length === n,
      detail.tasks.length,
    );
    const linked = (await crm.linkedTasks.allInnerTexts()).join('\n');
    for (const task of detail.tasks) expect(linked).toContain(task.title);
    await screenshot(page, 'crm-contact');

    // From the task's side: the contact shows among the task's CRM links.
    await crm.linkedTasks.first().getByRole('button').first().click();
    const chip = page.getByTestId('task-crm-contact');
    await chip.filter({ hasText: target.firstName }).first().waitFor();
    await screenshot(page, 'crm-task-links');
  });

  it('lists accounts with their contacts', async () => {
    const accounts = await app.api<ServiceAccount[]>('/crm/accounts');
    await crm.openAccounts();
    const first = accounts[0]!;
    await crm.rows.filter({ hasText: first.name }).first().click();
    await crm.detail.waitFor();
    expect(await crm.detail.innerText()).toContain('Contacts');
    await screenshot(page, 'crm-account');
  });
});
