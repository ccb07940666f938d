import { describe, expect, it } from 'vitest';
import { screenshot } from './support/browser';
import { appSuite } from './support/suite';

describe('web host in Chromium', () => {
  // Each test opens its own page: the second one is refused the bridge on purpose.
  const suite = appSuite({ page: false });

  it('shows a value that came from the core through the WebSocket bridge', async () => {
    const { app, browser } = suite;
    const page = await browser.newPage();
    await page.goto(app.host.url);
    const info = page.getByTestId('app-info');
    await info.waitFor();
    expect((await info.innerText()).replace(/\s+/g, ' ')).toMatch(
      /^Workdesk test · core on Node v\d+\.\d+\.\d+ · web bridge$/,
    );
    await screenshot(page, 'app-shell');
  });

  it('refuses a bridge connection without the secret', async () => {
    const { app, browser } = suite;
    const page = await browser.newPage();
    await page.goto(app.host.url.replace(/#.*$/, '#secret=wrong'));
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/Could not reach the Workdesk core/);
  });
});
