import type { Locator, Page } from 'playwright-core';

/** Opens a picker (the button), filters by the option's text and chooses it with Enter. */
export async function choose(page: Page, trigger: Locator, option: string): Promise<void> {
  await trigger.click();
  // The open picker's own filter; other comboboxes (the dependency search) share the page.
  const filter = page.getByRole('combobox', { name: /^Filter / });
  await filter.fill(option);
  await page.getByRole('option', { name: option, exact: true }).first().waitFor();
  await filter.press('Enter');
  await filter.waitFor({ state: 'detached' });
}
