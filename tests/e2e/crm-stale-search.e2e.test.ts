/// <reference lib="dom" />
import { describe, expect, it } from 'vitest';
import { screenshot } from './support/browser';
import { appSuite } from './support/suite';
import { CrmPage } from './pages/crm';

interface ServiceContact {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  isDeleted: boolean;
}

/**
 * The contact list shows the rows of the search before until the answer for the text typed
 * comes. A user who types a new search and clicks a row at once must not open a record of the
 * old search: until the answer, the rows are marked stale and a click on one opens nothing.
 */
describe('CRM: a click on the rows of the search before opens nothing', () => {
  const suite = appSuite({ service: { seed: 'demo' }, viewport: { width: 1280, height: 900 } });

  it('ignores a click on a row of the old search, then opens a row of the new one', async () => {
    const { app, page } = suite;
    const crm = new CrmPage(page);
    const contacts = (await app.api<ServiceContact[]>('/crm/contacts')).filter((c) => !c.isDeleted);
    await crm.openContacts();
    // A retry of this test finds the search it left.
    await crm.search('');
    await expect.poll(() => crm.count()).toBe(contacts.length);
    const firstShown = (await crm.rows.first().innerText()).split('\n')[0]!;
    const target = contacts.find(
      (c) =>
        c.email &&
        !firstShown.includes(c.firstName) &&
        contacts.every((o) => o === c || !o.email.includes(c.email)),
    );
    if (!target)
      throw new Error('the demo seed has no contact besides the first row with an email of its own');

    // Types the new search and clicks the first row in one go, before the search's answer comes.
    const opened = await page.evaluate((email) => {
      const box = document.querySelector<HTMLInputElement>('[data-testid="crm-search"]')!;
      box.value = email;
      box.dispatchEvent(new Event('input', { bubbles: true }));
      const row = document.querySelector<HTMLButtonElement>('[data-testid="crm-row"]')!;
      row.click();
      return row.innerText.split('\n')[0];
    }, target.email);
    // The click landed on the old search's first row.
    expect(opened).toBe(firstShown);

    // The answer for the new text: one row, the target's; no record opened from the old rows.
    await expect.poll(() => crm.count()).toBe(1);
    await expect.poll(() => crm.rows.count()).toBe(1);
    expect(await crm.rows.first().innerText()).toContain(target.email);
    expect(await page.getByTestId('crm-list').getAttribute('data-stale')).toBeNull();
    // Before, the click opened the old first row's record beside the list.
    expect(await crm.detail.count()).toBe(0);
    expect(await page.locator('aside.record').count()).toBe(0);

    await crm.rows.first().click();
    await expect.poll(() => crm.detail.innerText()).toContain(target.email);
    await screenshot(page, 'crm-stale-search');
  });
});
