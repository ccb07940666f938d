import type { Locator, Page } from 'playwright-core';
import { choose } from './picker';

export interface TaskRef {
  id: string;
  name: string;
}

/** A task grid (project, My Work, tag): rows, sorting, toggles, selection, inline edits. */
export class TaskListPage {
  constructor(readonly page: Page) {}

  get table(): Locator {
    return this.page.getByTestId('task-table');
  }
  get rows(): Locator {
    return this.page.getByTestId('task-row');
  }
  /** A row by task (names repeat in generated data, so the id decides). */
  row(task: TaskRef): Locator {
    return this.page.locator(`[data-testid="task-row"][data-task-id="${task.id}"]`);
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
  async open(task: TaskRef): Promise<void> {
    await this.row(task).locator('.task-name').click();
    await this.page.getByTestId('detail-panel').waitFor();
  }
  /** Opens the task of the `index`th row beside the list; answers its id and name. */
  async openRow(index: number): Promise<TaskRef> {
    const row = this.rows.nth(index);
    const task = {
      id: (await row.getAttribute('data-task-id')) ?? '',
      name: await row.locator('.task-name').innerText(),
    };
    await this.open(task);
    return task;
  }
  async select(tasks: TaskRef[]): Promise<void> {
    for (const task of tasks)
      await this.row(task)
        .locator('.task-name')
        .click({ modifiers: ['Control'] });
  }
  async setStatusInline(task: TaskRef, status: string): Promise<void> {
    await choose(this.page, this.row(task).getByTestId('cell-status'), status);
  }
  async setAssigneeInline(task: TaskRef, user: string): Promise<void> {
    await choose(this.page, this.row(task).getByTestId('cell-assignee'), user);
  }
  async setPriorityInline(task: TaskRef, priority: string): Promise<void> {
    await choose(this.page, this.row(task).getByTestId('cell-priority'), priority);
  }
  async setDeadlineInline(task: TaskRef, day: string): Promise<void> {
    await this.row(task).getByTestId('cell-deadline').click();
    const input = this.row(task).locator('input[type="date"]');
    // Filling a date input fires its change, which saves and closes the editor.
    await input.fill(day);
  }
  async rename(task: TaskRef, next: string): Promise<void> {
    await this.row(task)
      .getByRole('button', { name: `Rename ${task.name}` })
      .click();
    const input = this.page.getByRole('textbox', { name: `Name of ${task.name}` });
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
