import type { Locator, Page } from 'playwright-core';
import { choose } from './picker';

export class NewTaskDialogPage {
  constructor(readonly page: Page) {}

  get root(): Locator {
    return this.page.getByTestId('new-task-dialog');
  }
  async openWithShortcut(): Promise<void> {
    await this.page.keyboard.press('Control+n');
    await this.root.getByRole('heading').waitFor();
  }
  async fill(fields: {
    title?: string;
    project?: string;
    assignee?: string;
    priority?: string;
    deadline?: string;
    description?: string;
  }): Promise<void> {
    if (fields.title !== undefined) await this.page.getByTestId('nt-title').fill(fields.title);
    if (fields.project) await choose(this.page, this.page.getByTestId('nt-project'), fields.project);
    if (fields.assignee) await choose(this.page, this.page.getByTestId('nt-assignee'), fields.assignee);
    if (fields.priority) await choose(this.page, this.page.getByTestId('nt-priority'), fields.priority);
    if (fields.deadline) await this.page.getByTestId('nt-deadline').fill(fields.deadline);
    if (fields.description) await this.root.getByLabel('Description').fill(fields.description);
  }
  async projectLabel(): Promise<string> {
    return (await this.page.getByTestId('nt-project').getAttribute('aria-label')) ?? '';
  }
  async submit(): Promise<void> {
    await this.page.getByTestId('nt-create').click();
  }
  get error(): Locator {
    return this.page.getByTestId('nt-error');
  }
}
