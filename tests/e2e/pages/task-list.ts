/// <reference lib="dom" />
import type { Locator, Page } from 'playwright-core';
import { choose } from './picker';

/** A task grid (project, My Work, tag): rows, sorting, toggles, selection, inline edits. */
export class TaskListPage {
  constructor(readonly page: Page) {}

  get table(): Locator {
    return this.page.getByTestId('task-table');
  }
  get rows(): Locator {
    return this.page.getByTestId('task-row');
  }
  row(name: string): Locator {
    return this.rows.filter({ has: this.page.locator('.task-name', { hasText: name }) }).first();
  }
  async waitForRows(): Promise<void> {
    await this.rows.first().waitFor();
  }
  /** The "N tasks" count above the list. */
  async total(): Promise<number> {
    const text = await this.page.getByTestId('list-total').innerText();
    return Number(text.split(' ')[0]);
  }
  async waitForTotal(count: number): Promise<void> {
    await this.page.waitForFunction(
      (expected) =>
        document.querySelector('[data-testid="list-total"]')?.textContent?.startsWith(`${expected} `),
      count,
    );
  }
  /** Names of the rendered rows, top to bottom. */
  async visibleNames(): Promise<string[]> {
    return this.page.$$eval('[data-testid="task-row"] .task-name', (els) =>
      els
        .map((el) => ({ top: el.getBoundingClientRect().top, text: el.textContent ?? '' }))
        .sort((a, b) => a.top - b.top)
        .map((el) => el.text),
    );
  }
  async sortBy(column: string): Promise<void> {
    await this.table.getByRole('columnheader', { name: column }).getByRole('button').click();
  }
  async setToggle(
    testId: 'toggle-closed' | 'toggle-subfolders' | 'toggle-group',
    on: boolean,
  ): Promise<void> {
    await this.page.getByTestId(testId).setChecked(on);
  }
  async filterStatus(status: string): Promise<void> {
    await choose(this.page, this.page.getByTestId('filter-status'), status);
  }
  async open(name: string): Promise<void> {
    await this.row(name).locator('.task-name').click();
    await this.page.getByTestId('detail-panel').waitFor();
  }
  async select(names: string[]): Promise<void> {
    for (const name of names)
      await this.row(name)
        .locator('.task-name')
        .click({ modifiers: ['Control'] });
  }
  async setStatusInline(name: string, status: string): Promise<void> {
    await choose(this.page, this.row(name).getByTestId('cell-status'), status);
  }
  async setAssigneeInline(name: string, user: string): Promise<void> {
    await choose(this.page, this.row(name).getByTestId('cell-assignee'), user);
  }
  async setPriorityInline(name: string, priority: string): Promise<void> {
    await choose(this.page, this.row(name).getByTestId('cell-priority'), priority);
  }
  async setDeadlineInline(name: string, day: string): Promise<void> {
    await this.row(name).getByTestId('cell-deadline').click();
    const input = this.row(name).locator('input[type="date"]');
    await input.fill(day);
    await input.press('Tab');
  }
  async rename(name: string, next: string): Promise<void> {
    await this.row(name).locator('.task-name').dblclick();
    const input = this.page.getByRole('textbox', { name: `Name of ${name}` });
    await input.fill(next);
    await input.press('Enter');
  }
  async bulk(kind: 'status' | 'assignee' | 'priority', value: string): Promise<void> {
    await choose(this.page, this.page.getByTestId(`bulk-${kind}`), value);
  }
  /** Scrolls the grid by `pixels` and waits a frame. */
  async scrollBy(pixels: number): Promise<void> {
    await this.page.evaluate((dy) => {
      document.querySelector('[data-testid="task-table"] [data-testid="virtual-list"]')?.scrollBy(0, dy);
    }, pixels);
    await this.page.evaluate(() => new Promise((done) => requestAnimationFrame(() => done(null))));
  }
}
