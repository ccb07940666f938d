import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../src/shared/ipc/settings';
import { startService, type RunningService } from '../support/service';
import { screenshot } from './support/browser';
import { sessionSuite } from './support/suite';

describe('a refused token: the status bar asks for a new one', () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService({ seed: 'demo', token: 'the-current-token' });
  });
  afterAll(async () => {
    await service?.close();
  });
  const suite = sessionSuite({
    configure({ settings, secrets }) {
      settings.write({
        ...DEFAULT_SETTINGS,
        accounts: [
          {
            id: 'team',
            kind: 'remote',
            label: 'Team service',
            baseUrl: service.baseUrl,
            tokenHeader: 'svc-api-token',
            userId: service.users.actingUserId,
          },
        ],
        activeAccountId: 'team',
      });
      // The token stored for the account was revoked on the service.
      secrets.set('team', 'the-revoked-token');
    },
  });

  it('takes a new token in a password field, refuses a wrong one, and syncs with the right one', async () => {
    const { app, page, ui } = suite;
    const prompt = page.getByTestId('token-needed');
    await prompt.waitFor({ timeout: 30_000 });
    await screenshot(page, 'token-needed');
    await prompt.click();
    const dialog = page.getByTestId('token-dialog');
    const input = dialog.getByLabel('New API token');
    await expect.poll(() => input.getAttribute('type')).toBe('password');

    await input.fill('not-a-token-either');
    await dialog.getByTestId('token-dialog-submit').click();
    const error = dialog.getByTestId('token-dialog-error');
    await error.waitFor();
    await expect.poll(() => error.innerText()).toMatch(/^Token: /);
    await screenshot(page, 'token-dialog-refused');

    await input.fill('the-current-token');
    await dialog.getByTestId('token-dialog-submit').click();
    await dialog.waitFor({ state: 'hidden' });
    await prompt.waitFor({ state: 'detached', timeout: 30_000 });
    // The account's data comes in with the new token.
    await ui.treeItem('Company Workspace').waitFor({ timeout: 30_000 });
    await page
      .getByTestId('last-synced')
      .filter({ hasText: /^Synced/ })
      .waitFor({ timeout: 30_000 });
    // The first sync filled the cache: the tasks already waiting for the acting user are the
    // baseline, not news (they were announced as a burst of toasts before). The watcher reads
    // again after the sync's last cache event; give that read time to land.
    await page.waitForTimeout(1_000);
    const toasts = page.getByTestId('toast');
    await expect
      .poll(() => toasts.filter({ hasText: /action is required|need your action/ }).count())
      .toBe(0);
    await screenshot(page, 'token-resumed');

    // Stored for the account, and never handed back to the page.
    expect(readFileSync(join(app.dataDir, 'secrets.json'), 'utf8')).toContain('the-current-token');
    expect(await page.content()).not.toContain('the-current-token');
  });
});
