/// <reference lib="dom" />
import type { Page } from 'playwright-core';

export class SettingsPage {
  constructor(readonly page: Page) {}

  async chooseTheme(theme: 'light' | 'dark' | 'system'): Promise<void> {
    await this.page.getByTestId(`theme-${theme}`).check();
  }
  /** The theme the page applied (`data-theme` on <html>). */
  async appliedTheme(): Promise<string | null> {
    return this.page.evaluate(() => document.documentElement.dataset['theme'] ?? null);
  }
}
