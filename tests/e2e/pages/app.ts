import type { Locator, Page } from 'playwright-core';
import { TaskListPage, type TaskRef } from './task-list';

/** The app frame: sidebar, toolbar, status bar, and the global gestures. */
export class AppPage {
  /** Uncaught errors of the page; every suite expects none. */
  readonly errors: string[] = [];

  constructor(readonly page: Page) {
    page.on('pageerror', (error) => this.errors.push(error.message));
  }

  async open(url: string): Promise<void> {
    await this.page.goto(url);
    await this.page.getByRole('navigation', { name: 'Sidebar' }).waitFor();
  }

  get sidebar(): Locator {
    return this.page.getByRole('navigation', { name: 'Sidebar' });
  }
  get viewTitle(): Locator {
    return this.page.getByTestId('view-title');
  }
  get statusBar(): Locator {
    return this.page.getByTestId('status-bar');
  }
  get tree(): Locator {
    return this.page.getByTestId('project-tree');
  }
  /** A folder or project by its name (its item's name goes on with its open tasks: "…, 12 open tasks"). */
  treeItem(name: string): Locator {
    const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    return this.tree.getByRole('treeitem', { name: new RegExp(`^${escaped}(, .*)?$`) });
  }

  async goToSettings(): Promise<void> {
    await this.page.getByTestId('nav-settings').click();
    await this.waitForTitle('Settings');
  }
  async goToChanges(): Promise<void> {
    await this.page.getByTestId('nav-changes').click();
    await this.waitForTitle('Changes');
  }
  async goToActionRequired(): Promise<void> {
    await this.page.getByTestId('nav-action-required').click();
    await this.waitForTitle('My Work');
  }
  async goToAssigned(): Promise<void> {
    await this.page.getByTestId('nav-assigned').click();
    await this.waitForTitle('My Work');
  }
  async openProject(name: string): Promise<void> {
    await this.treeItem(name).click();
    await this.waitForTitle(name);
  }
  /** Opens a project of the demo seed's "Website relaunch area 1" folder through the tree. */
  async openDemoProject(name: string): Promise<void> {
    await this.expand('Company Workspace');
    await this.expand('Website relaunch area 1');
    await this.openProject(name);
  }
  /** Opens a demo project's list, and the task of its `index`th row beside it. */
  async openBeside(project: string, index: number): Promise<{ list: TaskListPage; task: TaskRef }> {
    const list = new TaskListPage(this.page);
    await this.openDemoProject(project);
    await list.waitForRows();
    return { list, task: await list.openRow(index) };
  }
  /** Opens every folder on the way (the tree remembers expansion). */
  async expand(name: string): Promise<void> {
    const item = this.treeItem(name);
    if ((await item.getAttribute('aria-expanded')) === 'false') {
      await item.focus();
      await this.page.keyboard.press('ArrowRight');
    }
  }

  async waitForTitle(text: string): Promise<void> {
    await this.page.waitForFunction(
      (expected) => document.querySelector('[data-testid="view-title"]')?.textContent?.includes(expected),
      text,
    );
  }

  async back(): Promise<void> {
    await this.page.keyboard.press('Alt+ArrowLeft');
  }
  async forward(): Promise<void> {
    await this.page.keyboard.press('Alt+ArrowRight');
  }
  /** The mouse's back (button 4) or forward (button 5) button. */
  async mouseHistory(direction: 'back' | 'forward'): Promise<void> {
    await this.page.evaluate(
      (button) => {
        window.dispatchEvent(new MouseEvent('mouseup', { button, bubbles: true }));
      },
      direction === 'back' ? 3 : 4,
    );
  }

  async pendingCount(): Promise<number> {
    const value = await this.page.getByTestId('pending-count').getAttribute('data-count');
    return Number(value);
  }
  /** Until the status bar counts `count` changes waiting (or one of `count`, given several). */
  async waitForPendingCount(count: number | readonly number[], timeout = 30_000): Promise<void> {
    await this.page.waitForFunction(
      (expected) =>
        expected.includes(
          document.querySelector('[data-testid="pending-count"]')?.getAttribute('data-count') ?? '',
        ),
      (typeof count === 'number' ? [count] : count).map(String),
      { timeout },
    );
  }
  async waitForOnline(online: boolean, timeout = 30_000): Promise<void> {
    await this.page.waitForFunction(
      (expected) =>
        document.querySelector('[data-testid="connection"]')?.getAttribute('data-online') ===
        String(expected),
      online,
      { timeout },
    );
  }
}
