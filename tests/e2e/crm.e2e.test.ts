/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, screenshot } from './support/browser';
import { startApp, type RunningApp } from './support/web-host';
import { AppPage } from './pages/app';
import { CrmPage } from './pages/crm';
import { appSuite } from './support/suite';
import { PalettePage } from './pages/palette';

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
    await expect.poll(() => crm.rows.first().innerText()).toContain(target.email);
  });

  it('opens a contact with the tasks the service links to it, and the task shows the contact', async () => {
    const target = contacts.find((c) => c.id === linkedContactId) ?? contacts[0]!;
    await crm.search(target.email);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="crm-row"]').length === 1);
    await crm.rows.first().click();
    await crm.detail.waitFor();
    await expect.poll(() => crm.detail.innerText()).toContain(target.email);
    // Opening a record keeps the search and its one row.
    await expect.poll(() => page.getByTestId('crm-search').inputValue()).toBe(target.email);
    await expect.poll(() => crm.rows.count()).toBe(1);
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
    await expect.poll(() => crm.detail.innerText()).toContain('Contacts');
    await screenshot(page, 'crm-account');
  });
});

describe('CRM records: type ids, a contact’s parts in order, forms that open what they create', () => {
  const suite = appSuite({ service: { seed: 'demo' }, viewport: { width: 1280, height: 800 } });

  it('labels a contact’s type "Type" and shows the service’s id, since the service names no types', async () => {
    const { page } = suite;
    const crm = new CrmPage(page);
    await crm.openContacts();
    await crm.rows.first().click();
    const value = crm.detail.getByTestId('contact-type-value');
    await value.waitFor();
    // Before: "Type: ct-lead", as if "ct-lead" were the type's name.
    expect(await value.evaluate((dd) => dd.previousElementSibling?.textContent?.trim())).toBe('Type');
    const id = value.locator('code');
    await expect.poll(() => id.innerText()).toMatch(/^ct-/);
    await expect.poll(() => id.getAttribute('title')).toContain('lists no type names');
    await screenshot(page, 'crm-contact-type');
  });

  it('shows a contact’s linked tasks before its custom fields, with the link search’s results in view', async () => {
    const { page } = suite;
    await page.setViewportSize({ width: 900, height: 700 });
    const crm = new CrmPage(page);
    await crm.openContacts();
    await crm.rows.filter({ hasText: 'Maya Novak' }).click();
    // The record is drawn after the click: read its headings once both are there.
    const headings = crm.detail.locator('h3');
    await headings.filter({ hasText: 'Custom fields' }).first().waitFor();
    const order = await headings.allInnerTexts();
    // Before: a dozen empty custom fields came first and put the tasks below the fold.
    expect(order.indexOf('Tasks')).toBeGreaterThanOrEqual(0);
    expect(order.indexOf('Tasks')).toBeLessThan(order.indexOf('Custom fields'));
    await crm.detail.getByTestId('link-task-search').fill('audit');
    const results = page.getByRole('listbox', { name: 'Items found' });
    await results.waitFor();
    const [list, record] = await Promise.all([results.boundingBox(), crm.detail.boundingBox()]);
    if (!list || !record) throw new Error('the results or the record are not drawn');
    expect(list.y + list.height).toBeLessThanOrEqual(record.y + record.height);
    await screenshot(page, 'crm-contact-link-search');
    await page.keyboard.press('Escape');
    await crm.detail.getByTestId('link-task-search').fill('');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('opens a contact or an account just created, with the focus on it', async () => {
    const { page } = suite;
    await page.setViewportSize({ width: 1024, height: 700 });
    const palette = new PalettePage(page);
    await palette.runCommand('New CRM contact');
    const form = page.getByTestId('contact-form');
    await form.getByTestId('contact-first-name').fill('Rita');
    await form.getByTestId('contact-last-name').fill('Reviewer');
    await form.getByTestId('contact-save').click();
    await form.waitFor({ state: 'hidden' });
    // Before: the form closed on the list, the new contact somewhere in it, nothing open.
    const record = page.getByTestId('crm-detail');
    await record.getByRole('heading', { name: 'Rita Reviewer' }).waitFor();
    await page.locator('[data-testid="crm-detail"]:focus').waitFor();
    await screenshot(page, 'crm-contact-created');

    await palette.runCommand('New CRM account');
    const accountForm = page.getByTestId('account-form');
    await accountForm.getByTestId('account-name').fill('Reviewer Holdings');
    await accountForm.getByTestId('account-save').click();
    await accountForm.waitFor({ state: 'hidden' });
    await record.getByRole('heading', { name: 'Reviewer Holdings' }).waitFor();
    await page.locator('[data-testid="crm-detail"]:focus').waitFor();
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('drops the message of a previous try when the browser refuses an email address', async () => {
    const { page } = suite;
    await page.setViewportSize({ width: 1024, height: 700 });
    await new PalettePage(page).runCommand('New CRM contact');
    const form = page.getByTestId('contact-form');
    await form.getByTestId('contact-save').click();
    await expect
      .poll(() => form.getByTestId('contact-problem').innerText())
      .toBe('First name: must not be empty');
    await form.getByTestId('contact-first-name').fill('Nora');
    await form.getByTestId('contact-email').fill('not-an-email');
    await form.getByTestId('contact-save').click();
    // Before: under the browser's bubble on Email, the footer still said "First name: must not be
    // empty", and First name (filled) was still marked in red.
    await form.getByTestId('contact-problem').waitFor({ state: 'detached' });
    await expect
      .poll(() => form.getByTestId('contact-first-name').getAttribute('aria-invalid'))
      .not.toBe('true');
    expect(
      await form.getByTestId('contact-email').evaluate((el) => (el as HTMLInputElement).validity.valid),
    ).toBe(false);
    await page.keyboard.press('Escape');
    await form.waitFor({ state: 'hidden' });
    await page.setViewportSize({ width: 1280, height: 800 });
  });
});
