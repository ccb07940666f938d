import type { Locator, Page } from 'playwright-core';

export class BoardPage {
  constructor(readonly page: Page) {}

  get root(): Locator {
    return this.page.getByTestId('board');
  }
  column(statusName: string): Locator {
    return this.page
      .getByTestId('board-column')
      .filter({ has: this.page.getByRole('heading', { name: statusName, exact: true }) });
  }
  card(name: string): Locator {
    return this.page.getByTestId('board-card').filter({ hasText: name }).first();
  }
  async drag(name: string, toStatus: string): Promise<void> {
    await this.card(name).dragTo(this.column(toStatus));
  }
}
