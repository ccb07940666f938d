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
  /** Drags a card onto the column named `to` (a status, a person or a priority). */
  async drag(name: string, to: string): Promise<void> {
    await this.card(name).dragTo(this.column(to));
  }
  async groupBy(grouping: 'status' | 'assignee' | 'priority'): Promise<void> {
    await this.page.getByTestId(`board-group-${grouping}`).click();
  }
  async grouping(): Promise<string | null> {
    return this.page
      .locator('[data-testid^="board-group-"][aria-checked="true"]')
      .getAttribute('data-testid');
  }
  /** Column headings, left to right. */
  async columnNames(): Promise<string[]> {
    return this.root.getByTestId('board-column').locator('h2').allInnerTexts();
  }
}
