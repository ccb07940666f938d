import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from './browser';
import { startApp, type AppOptions, type RunningApp } from './web-host';
import { startSessionApp, type SessionApp, type SessionAppOptions } from './session-host';
import type { WebHost } from '../../../src/main/core/web-host';
import { AppPage } from '../pages/app';

export interface Suite<A> {
  readonly app: A;
  readonly browser: Browser;
  /** The page that opened the app (not with `page: false`). */
  readonly page: Page;
  readonly ui: AppPage;
}

export interface SuiteOptions {
  viewport?: { width: number; height: number };
  /**
   * false: open no page; each test opens its own from `browser` (and checks its own errors).
   * Default: one page opens the app before the tests, and after each test it must have thrown
   * nothing.
   */
  page?: boolean;
  /** For a start-up slower than the hook timeout (a very large seed). */
  startTimeoutMs?: number;
}

/**
 * The hooks of a suite that drives the app (started without a session: a core on one seeded
 * service, see `startApp`) in Chromium. Set-up a test needs before the app starts (say, a
 * second service) goes in a `beforeAll` registered before this call; set-up after it (opening a
 * view) in one registered after. Read the fields inside tests (they are set once `beforeAll` ran).
 */
export function appSuite(options: AppOptions & SuiteOptions = {}): Suite<RunningApp> {
  return browserSuite(() => startApp(options), options);
}

/** The same hooks around the web host with its accounts session (`startSessionApp`). */
export function sessionSuite(options: SessionAppOptions & SuiteOptions = {}): Suite<SessionApp> {
  return browserSuite(() => startSessionApp(options), options);
}

function browserSuite<A extends { host: WebHost; close(): Promise<void> }>(
  start: () => Promise<A>,
  options: SuiteOptions,
): Suite<A> {
  let app: A | undefined;
  let browser: Browser | undefined;
  let page: Page | undefined;
  let ui: AppPage | undefined;
  beforeAll(async () => {
    app = await start();
    browser = await launchBrowser();
    if (options.page === false) return;
    page = await browser.newPage({ viewport: options.viewport ?? { width: 1280, height: 760 } });
    ui = new AppPage(page);
    await ui.open(app.host.url);
  }, options.startTimeoutMs);
  afterEach(() => {
    if (ui) expect(ui.errors).toEqual([]);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('appSuite: used before beforeAll ran, or without its page');
    return value;
  };
  return {
    get app() {
      return ready(app);
    },
    get browser() {
      return ready(browser);
    },
    get page() {
      return ready(page);
    },
    get ui() {
      return ready(ui);
    },
  };
}
