/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, screenshot } from './support/browser';
import { startApp, type RunningApp } from './support/web-host';
import { dayString } from './support/demo';
import { AppPage } from './pages/app';
import { appSuite } from './support/suite';
import { PalettePage } from './pages/palette';

interface ServiceTask {
  id: string;
  name: string;
}

describe('timeline strip and the dependencies of a task', () => {
  let app: RunningApp;
  let browser: Browser;
  let page: Page;
  let ui: AppPage;
  let first: ServiceTask;
  let second: ServiceTask;

  beforeAll(async () => {
    app = await startApp({ service: { seed: 'demo' } });
    const userId = app.service!.users.actingUserId;
    const tasks = await app.api<ServiceTask[]>('/project/g7-p1/tasks');
    [first, second] = [tasks[0]!, tasks[1]!];
    // Another client dates two tasks and links them Finish to Start; the app syncs it in.
    await app.api(`/task/${first.id}/update`, {
      method: 'PUT',
      body: { userId, startDate: dayString(-3), endDate: dayString(1) },
    });
    await app.api(`/task/${second.id}/update`, {
      method: 'PUT',
      body: { userId, startDate: dayString(3), endDate: dayString(6) },
    });
    await app.api('/dependencies', {
      method: 'POST',
      body: { type: 5, createdByUserId: userId, predecessorTaskId: first.id, successorTaskId: second.id },
    });
    const synced = await app.core.dispatch('sync.now', { wait: true });
    if (!synced.ok) throw new Error(synced.error.message);
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    ui = new AppPage(page);
    await ui.open(app.host.url);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('draws the project’s dated tasks and milestones with an arrow for the dependency', async () => {
    await ui.openDemoProject('Support desk 1');
    await page.getByTestId('layout-timeline').click();
    await page.getByTestId('timeline').waitFor();
    await page.getByTestId('timeline-row').first().waitFor();
    const labels = await page.locator('[data-testid="timeline-row"] .label').allTextContents();
    expect(labels.some((label) => first.name.startsWith(label.replace('…', '')))).toBe(true);
    expect(labels.some((label) => second.name.startsWith(label.replace('…', '')))).toBe(true);
    await page.getByTestId('timeline-arrow').first().waitFor({ state: 'attached' });
    await expect
      .poll(() => page.locator('[data-testid="timeline-row"][data-kind="event"]').count())
      .toBeGreaterThan(0);
    await screenshot(page, 'timeline');
  });

  it('opens a bar’s task, which lists the dependency with its type name', async () => {
    await page
      .getByRole('button', { name: `${second.name}, ` })
      .first()
      .click();
    await ui.waitForTitle(second.name);
    const predecessors = page.getByTestId('predecessors');
    await predecessors.getByText(first.name).waitFor();
    await expect.poll(() => predecessors.innerText()).toContain('Finish to Start');
    await page.getByTestId('dependency-panel').scrollIntoViewIfNeeded();
    await screenshot(page, 'timeline-task-dependencies');
  });
});

describe('timeline: today, names on hover, names in view when scrolled', () => {
  const suite = appSuite({ service: { seed: 'demo' }, viewport: { width: 1280, height: 800 } });

  it('marks today on the timeline and names each bar and milestone on hover', async () => {
    const { page, ui } = suite;
    await ui.openDemoProject('Mobile app 5');
    await page.getByTestId('layout-timeline').click();
    const strip = page.getByTestId('timeline');
    await strip.locator('rect.bar').first().waitFor();
    // Before: no line for today, and a bar said nothing to the mouse (its name and dates were
    // only spoken).
    await strip.getByTestId('timeline-today').waitFor({ state: 'attached' });
    const bar = strip.locator('rect.bar').first();
    await expect.poll(() => bar.locator('title').textContent()).toBe(await bar.getAttribute('aria-label'));
    await expect.poll(() => bar.getAttribute('aria-label')).toMatch(/^.+, .+/);
    await screenshot(page, 'timeline-today');
  });

  it('keeps the timeline’s names in view when its chart scrolls sideways', async () => {
    const { page } = suite;
    await page.setViewportSize({ width: 1024, height: 700 });
    await new PalettePage(page).openProject('Support desk 1', 'timeline');
    const strip = page.getByTestId('timeline');
    await strip.locator('rect.bar').first().waitFor();
    // At 1024 px the chart is wider than the view: scrolled to its end, as to see the last bars.
    const scrolled = await strip.evaluate((el) => {
      el.scrollLeft = el.scrollWidth;
      return el.scrollLeft;
    });
    expect(scrolled).toBeGreaterThan(0);
    const view = await strip.boundingBox();
    const label = await strip.locator('[data-testid="timeline-row"] .label').first().boundingBox();
    // Before: the names scrolled away with the chart, and the bars in view had none.
    expect(view && label && label.x >= view.x).toBe(true);
    await screenshot(page, 'timeline-scrolled');
    await page.setViewportSize({ width: 1280, height: 800 });
  });
});
