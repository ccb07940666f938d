import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from './browser';
import { startApp, type AppOptions, type RunningApp } from './web-host';
import { AppPage } from '../pages/app';

export interface AppSuite {
  readonly app: RunningApp;
  readonly page: Page;
  readonly ui: AppPage;
}

/**
 * The hooks of a suite that drives one app in one Chromium page: starts both before the tests,
 * opens the app, checks after each test that the page threw nothing, and stops both at the end.
 * Read the fields inside tests (they are set once `beforeAll` ran).
 */
export function appSuite(
  options: AppOptions & { viewport?: { width: number; height: number } } = {},
): AppSuite {
  let app: RunningApp | undefined;
  let browser: Browser | undefined;
  let page: Page | undefined;
  let ui: AppPage | undefined;
  beforeAll(async () => {
    app = await startApp(options);
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: options.viewport ?? { width: 1280, height: 760 } });
    ui = new AppPage(page);
    await ui.open(app.host.url);
  });
  afterEach(() => {
    expect(ui?.errors).toEqual([]);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('appSuite: used before beforeAll ran');
    return value;
  };
  return {
    get app() {
      return ready(app);
    },
    get page() {
      return ready(page);
    },
    get ui() {
      return ready(ui);
    },
  };
}
