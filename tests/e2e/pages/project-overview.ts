/// <reference lib="dom" />
import type { Locator, Page } from 'playwright-core';

/** A project's overview tab: fields, members, milestones, documents, history, settings. */
export class ProjectOverviewPage {
  constructor(readonly page: Page) {}

  get root(): Locator {
    return this.page.getByTestId('project-overview');
  }
  get members(): Locator {
    return this.page.getByTestId('member-row');
  }
  get documents(): Locator {
    return this.page.getByTestId('document-open');
  }
  get reader(): Locator {
    return this.page.getByTestId('document-reader');
  }
  get history(): Locator {
    return this.page.getByTestId('project-history');
  }
  get milestones(): Locator {
    return this.page.getByTestId('project-milestones');
  }
  get settings(): Locator {
    return this.page.getByTestId('project-settings');
  }

  /** A control of the overview by its test id. */
  field(testId: string): Locator {
    return this.root.getByTestId(testId);
  }

  async open(): Promise<void> {
    await this.page.getByTestId('layout-overview').click();
    await this.root.waitFor();
  }
}
