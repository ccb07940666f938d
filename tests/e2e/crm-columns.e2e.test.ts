// The contact and account lists name their columns, for the eye (a header
// line) and for a screen reader (each row's phone or website and owner are read with their name).
import { describe, expect, it } from 'vitest';
import { screenshot } from './support/browser';
import { appSuite } from './support/suite';
import { CrmPage } from './pages/crm';

interface ServiceContact {
  phone: string | null;
  contactOwnerUserId: string | null;
  isDeleted: boolean;
}

describe('CRM lists: column headers', () => {
  const suite = appSuite({ service: { seed: 'demo' } });

  it('names the contact and the account columns, and reads each value with its column', async () => {
    const { app, page } = suite;
    const crm = new CrmPage(page);
    const columns = page.getByTestId('crm-columns');
    const contact = (await app.api<ServiceContact[]>('/crm/contacts')).find(
      (c) => !c.isDeleted && c.phone && c.contactOwnerUserId,
    );
    if (!contact) throw new Error('the demo seed has a contact with a phone and an owner');

    await crm.openContacts();
    await expect
      .poll(() => columns.locator('span').allInnerTexts())
      .toEqual(['Name', 'Email', 'Phone', 'Owner']);
    const row = crm.rows.filter({ hasText: contact.phone! }).first();
    const name = await row.evaluate((el) => el.textContent ?? '');
    expect(name).toContain(`Phone: ${contact.phone}`);
    expect(name).toMatch(/Owner: \S/);
    await screenshot(page, 'crm-contacts-columns');

    await crm.openAccounts();
    await expect
      .poll(() => columns.locator('span').allInnerTexts())
      .toEqual(['Name', 'Email', 'Website', 'Owner']);
    await screenshot(page, 'crm-accounts-columns');
  });
});
