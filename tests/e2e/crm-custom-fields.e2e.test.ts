import { describe, expect, it } from 'vitest';
import { screenshot } from './support/browser';
import { appSuite } from './support/suite';
import { eventually } from './support/wait';
import { CrmPage } from './pages/crm';

interface ServiceRecord {
  id: string;
  name?: string;
  firstName?: string;
  email: string;
  customFieldsData: Record<string, unknown>;
}

/**
 * CRM records' `customFieldsData` (create and update of contacts and accounts): the service
 * checks the values against the organization's definitions, so the task's editors serve.
 */
describe("CRM records' custom fields", () => {
  const suite = appSuite({ service: { seed: 'demo' }, viewport: { width: 1440, height: 1000 } });
  const crm = () => new CrmPage(suite.page);

  it("shows an account's values and edits them one at a time; the service keeps the others", async () => {
    const { app, page, ui } = suite;
    const accounts = await app.api<ServiceRecord[]>('/crm/accounts');
    // The demo gives its first account a RAG value of Red.
    const account = accounts.find((a) => a.customFieldsData['cf-rag'] === 0)!;
    await ui.treeItem('Company Workspace').waitFor();
    await crm().openAccounts();
    await crm().search(account.name!);
    await crm().rows.filter({ hasText: account.name! }).first().click();
    const fields = crm().detail.getByTestId('crm-custom-fields');
    await fields.waitFor();
    const rag = fields.getByTestId('cf-RAG');
    await expect
      .poll(() => rag.getByRole('radio', { name: 'Red' }).getAttribute('aria-checked'))
      .toBe('true');

    await rag.getByRole('radio', { name: 'Green' }).click();
    const reference = fields.getByTestId('cf-Customer reference').locator('input');
    await reference.fill('NW-2027');
    await reference.press('Tab');
    await ui.waitForPendingCount(0);
    const after = await eventually(
      () => app.api<{ account: ServiceRecord }>(`/crm/account/${account.id}`),
      (a) => a.account.customFieldsData['cf-text'] === 'NW-2027',
    );
    expect(after.account.customFieldsData['cf-rag']).toBe(2);
    await screenshot(page, 'crm-account-custom-fields');
  });

  it("sets a contact's custom field and refuses a value its type does not take", async () => {
    const { app, ui } = suite;
    const contact = (await app.api<ServiceRecord[]>('/crm/contacts'))[0]!;
    await crm().openContacts();
    await crm().openFound(contact.email);
    const fields = crm().detail.getByTestId('crm-custom-fields');
    await fields.waitFor();
    const units = fields.getByTestId('cf-Units').locator('input');
    await units.fill('twelve');
    await units.press('Tab');
    await expect.poll(() => units.getAttribute('aria-invalid')).toBe('true');
    await units.fill('12');
    await units.press('Tab');
    await ui.waitForPendingCount(0);
    await eventually(
      () => app.api<{ contact: ServiceRecord }>(`/crm/contact/${contact.id}`),
      (c) => c.contact.customFieldsData['cf-number'] === 12,
    );
  });
});
