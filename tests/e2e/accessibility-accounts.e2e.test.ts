/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../support/service';
import { screenshot } from './support/browser';
import { sessionSuite } from './support/suite';
import { audit, describeFindings, failing, type AxeFinding } from './support/axe';
import { AppPage } from './pages/app';
import { SettingsPage } from './pages/settings';

// Settings as the app runs it (`npm run web`: the accounts session, the local workspace first),
// where accounts are listed and added: what the core-only walk of accessibility.e2e.test.ts
// cannot show.
describe('accessibility: the accounts in Settings, light and dark', () => {
  let other: RunningService;
  beforeAll(async () => {
    other = await startService({ seed: 'demo', token: 'a11y-service-token' });
  });
  afterAll(async () => {
    await other?.close();
  });
  const suite = sessionSuite({ page: false });

  it('has no serious or critical axe finding on the accounts and both steps of adding one', async () => {
    // The app's CSP allows no inline script: axe is added in a context that bypasses it.
    const context = await suite.browser.newContext({
      bypassCSP: true,
      viewport: { width: 1280, height: 800 },
    });
    try {
      const page = await context.newPage();
      const ui = new AppPage(page);
      await ui.open(suite.app.host.url);
      const findings: AxeFinding[] = [];
      /** Audits what is shown in both themes (the theme follows the system's by default). */
      const check = async (view: string): Promise<void> => {
        for (const theme of ['light', 'dark'] as const) {
          await page.emulateMedia({ colorScheme: theme });
          await page.waitForFunction(
            (expected) => document.documentElement.dataset['theme'] === expected,
            theme,
          );
          const result = await audit(page, `${view}-${theme}`);
          expect(result.rulesPassed, view).toBeGreaterThan(15);
          findings.push(...result.findings);
          await screenshot(page, `accessibility-${theme}-${view}`);
        }
      };

      await ui.goToSettings();
      await page.getByTestId('accounts').waitFor();
      await check('settings-accounts');

      await page.getByRole('button', { name: 'Add a remote account…' }).click();
      await page.getByTestId('add-account-form').waitFor();
      await check('add-account-connection');

      await new SettingsPage(page).connect({
        label: 'Second',
        baseUrl: other.baseUrl.replace(/\/2\.0$/, ''),
        token: other.token,
      });
      await page.getByTestId('account-user').first().waitFor();
      await check('add-account-user');

      const bad = failing(findings);
      expect(bad, describeFindings(bad)).toEqual([]);
      expect(ui.errors).toEqual([]);
    } finally {
      await context.close().catch(() => undefined);
    }
  });
});
