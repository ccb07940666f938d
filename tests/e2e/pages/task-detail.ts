import type { Locator, Page } from 'playwright-core';
import { choose } from './picker';

/** The task detail (side panel or full view): fields, tags, custom fields, messages, subtasks. */
export class TaskDetailPage {
  constructor(readonly page: Page) {}

  get root(): Locator {
    return this.page.getByTestId('task-detail');
  }
  async waitFor(name?: string): Promise<void> {
    await this.root.waitFor();
    if (name) {
      await this.page.waitForFunction(
        (expected) =>
          (document.querySelector('[data-testid="task-title"]') as HTMLTextAreaElement | null)?.value ===
          expected,
        name,
      );
    }
  }
  async title(): Promise<string> {
    return this.page.getByTestId('task-title').inputValue();
  }
  async rename(next: string): Promise<void> {
    const input = this.page.getByTestId('task-title');
    await input.fill(next);
    await input.press('Enter');
  }
  field(testId: string): Locator {
    return this.root.getByTestId(testId);
  }
  async pick(testId: string, option: string): Promise<void> {
    await choose(this.page, this.field(testId), option);
  }
  /** A status applies at once; with a message, through the picker's "With a message…". */
  async setStatus(status: string, message?: string): Promise<void> {
    if (!message) return this.pick('field-status', status);
    await this.pick('field-status', 'With a message…');
    await withMessage(this.page, status, message);
  }
  async comment(text: string): Promise<void> {
    await this.root.getByPlaceholder('Write a comment…').fill(text);
    await this.root.getByTestId('send-message').click();
  }
  async reply(toUser: string, text: string): Promise<void> {
    await this.root.getByTestId('mode-reply').check();
    await choose(this.page, this.root.getByTestId('reply-to'), toUser);
    await this.root.getByPlaceholder('Reply (optional)…').fill(text);
    await this.root.getByTestId('send-message').click();
  }
  get messages(): Locator {
    return this.root.getByTestId('message');
  }
  get tags(): Locator {
    return this.root.getByTestId('task-tag');
  }
  async addTag(name: string): Promise<void> {
    await choose(this.page, this.root.getByTestId('add-tag'), name);
  }
  async removeTag(name: string): Promise<void> {
    await this.root.getByRole('button', { name: `Remove tag ${name}` }).click();
  }
  async addSubtask(title: string): Promise<void> {
    await this.root.getByTestId('new-subtask').fill(title);
    await this.root.getByTestId('new-subtask').press('Enter');
  }
  get subtasks(): Locator {
    return this.root.getByTestId('subtask');
  }
  customField(name: string): Locator {
    return this.root.getByTestId(`cf-${name}`);
  }
  async delete(): Promise<void> {
    await this.root.getByTestId('delete-task').click();
    await this.page.getByTestId('confirm-dialog').getByTestId('confirm').click();
  }
}

/** Fills and confirms the status dialog ("With a message…" of any status picker, Alt on the board). */
export async function withMessage(page: Page, status: string | undefined, message: string): Promise<void> {
  const dialog = page.getByTestId('status-dialog');
  await dialog.waitFor();
  if (status) await choose(page, dialog.getByTestId('status-dialog-status'), status);
  await dialog.getByLabel('Message (optional)').fill(message);
  await dialog.getByTestId('confirm-status').click();
  await dialog.waitFor({ state: 'hidden' });
}
