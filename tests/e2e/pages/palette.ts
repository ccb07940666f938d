/// <reference lib="dom" />
import type { Locator, Page } from 'playwright-core';

/** The command palette (Ctrl+K) and the shortcuts help (?). */
export class PalettePage {
  constructor(readonly page: Page) {}

  get dialog(): Locator {
    return this.page.getByTestId('palette');
  }
  get input(): Locator {
    return this.page.getByTestId('palette-input');
  }
  get items(): Locator {
    return this.page.getByTestId('palette-item');
  }
  get groups(): Locator {
    return this.page.getByTestId('palette-group');
  }
  get help(): Locator {
    return this.page.getByTestId('shortcuts-help');
  }

  async open(): Promise<void> {
    await this.page.keyboard.press('Control+k');
    await this.input.waitFor();
  }

  /** Types the query and waits until the results show a row of `group`. */
  async search(text: string, group?: string): Promise<void> {
    await this.input.fill(text);
    if (group)
      await this.dialog.locator(`[data-testid="palette-item"][data-group="${group}"]`).first().waitFor();
  }

  /** Opens the palette, searches, runs the active row with Enter; answers the label it ran. */
  async runCommand(query: string): Promise<string> {
    await this.open();
    await this.search(query);
    const label = await this.activeLabel();
    await this.page.keyboard.press('Enter');
    return label;
  }

  /** Opens the palette, searches, and opens the first result (Enter) once `group` lists one. */
  async openHit(text: string, group: string): Promise<void> {
    await this.open();
    await this.search(text, group);
    await this.page.keyboard.press('Enter');
  }

  /** Opens a project found by name, in one of its layouts. */
  async openProject(name: string, layout: 'list' | 'board' | 'timeline' | 'overview'): Promise<void> {
    await this.openHit(name, 'Projects');
    await this.page.locator('[data-testid="view-title"]', { hasText: name }).waitFor();
    await this.page.getByTestId(`layout-${layout}`).click();
  }

  /** The active row's label (the one Enter runs). */
  async activeLabel(): Promise<string> {
    return (await this.dialog.locator('[role="option"][aria-selected="true"] .label').innerText()).trim();
  }

  async groupNames(): Promise<string[]> {
    return (await this.groups.allTextContents()).map((text) => text.trim());
  }
}
