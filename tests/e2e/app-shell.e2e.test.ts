import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, screenshot } from './support/browser';
import { startApp, type RunningApp } from './support/web-host';

describe('web host in Chromium', () => {
  let app: RunningApp;
  let browser: Browser;

  beforeAll(async () => {
    app = await startApp();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('shows a value that came from the core through the WebSocket bridge', async () => {
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
    const page = await browser.newPage();
    await page.goto(app.host.url.replace(/#.*$/, '#secret=wrong'));
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/Could not reach the Workdesk core/);
  });
});
