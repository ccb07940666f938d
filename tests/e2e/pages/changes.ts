import type { Locator, Page } from 'playwright-core';

export class ChangesPage {
  constructor(readonly page: Page) {}

  get entries(): Locator {
    return this.page.getByTestId('change');
  }
  entry(text: string): Locator {
    return this.entries.filter({ hasText: text }).first();
  }
  get conflicts(): Locator {
    return this.page.getByTestId('conflict');
  }
}
