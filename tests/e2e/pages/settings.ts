import type { Page } from 'playwright-core';

/** What the add-account form asks, in its two steps. */
export interface NewAccount {
  label: string;
  baseUrl: string;
  token: string;
  /** The token header's option value; the form's default (the spec's) when absent. */
  tokenHeader?: 'svc-api-token' | 'gd-api-token';
}

export class SettingsPage {
  constructor(readonly page: Page) {}

  async chooseTheme(theme: 'light' | 'dark' | 'system'): Promise<void> {
    await this.page.getByTestId(`theme-${theme}`).check();
  }
  /** The theme the page applied (`data-theme` on <html>). */
  async appliedTheme(): Promise<string | null> {
    return this.page.evaluate(() => document.documentElement.dataset['theme'] ?? null);
  }

  /** Step one of adding an account: opens the form if needed, fills the connection, Connect. */
  async connect(account: NewAccount): Promise<void> {
    const open = this.page.getByRole('button', { name: 'Add a remote account…' });
    if (await open.isVisible()) await open.click();
    await this.page.getByLabel('Name').fill(account.label);
    await this.page.getByLabel('Service address').fill(account.baseUrl);
    await this.page.getByLabel('API token').fill(account.token);
    if (account.tokenHeader) await this.page.getByLabel('Token header').selectOption(account.tokenHeader);
    await this.page.getByRole('button', { name: 'Connect' }).click();
  }

  /** Step two: narrows the organization's users by `filter` and picks `name`, then adds. */
  async pickUserAndAdd(name: string, filter = name.split(' ')[0] ?? name): Promise<void> {
    await this.page.getByLabel('Who are you?').fill(filter);
    await this.page.getByTestId('account-user').filter({ hasText: name }).click();
    await this.page.getByRole('button', { name: `Add as ${name}` }).click();
  }
}
