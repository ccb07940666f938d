/// <reference lib="dom" />
import type { Locator, Page } from 'playwright-core';

/** The CRM lists and the record open beside them. */
export class CrmPage {
  constructor(readonly page: Page) {}

  get rows(): Locator {
    return this.page.getByTestId('crm-row');
  }
  get detail(): Locator {
    return this.page.getByTestId('crm-detail');
  }
  get linkedTasks(): Locator {
    return this.detail.getByTestId('linked-task');
  }

  async openContacts(): Promise<void> {
    await this.page.getByTestId('nav-contacts').click();
    await this.page.getByTestId('crm-list').waitFor();
  }
  async openAccounts(): Promise<void> {
    await this.page.getByTestId('nav-accounts').click();
    await this.page.getByTestId('crm-list').waitFor();
  }
  async search(text: string): Promise<void> {
    await this.page.getByTestId('crm-search').fill(text);
  }
  /**
   * Searches for `text` and opens the row showing it. The list shows the rows of the search before
   * until the new search's answer comes, stale (`aria-disabled`, which the click waits out): its
   * first row may be another record.
   */
  async openFound(text: string): Promise<void> {
    await this.search(text);
    await this.rows.filter({ hasText: text }).first().click();
  }
  async count(): Promise<number> {
    return Number(await this.page.getByTestId('crm-count').innerText());
  }
  /** Finds a task by name in the record's "Link a task" search and links it. */
  async linkTask(name: string): Promise<void> {
    await this.detail.getByTestId('link-task-search').fill(name);
    await this.page.getByTestId('dependency-result').filter({ hasText: name }).first().click();
  }
}
