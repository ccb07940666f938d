/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, screenshot } from './support/browser';
import { startApp, type RunningApp } from './support/web-host';
import { eventually } from './support/wait';
import { dayString } from './support/demo';
import { AppPage } from './pages/app';
import { CalendarPage } from './pages/calendar';
import { choose } from './pages/picker';

interface ServiceEvent {
  id: string;
  name: string;
  eventType: string;
  startDate: string;
  endDate?: string | null;
  userId: string | null;
  projectId: string | null;
}

describe('calendar writes: each type created under its rule, and deleted', () => {
  let app: RunningApp;
  let browser: Browser;
  let page: Page;
  let calendar: CalendarPage;

  const events = (): Promise<ServiceEvent[]> =>
    app.api<ServiceEvent[]>(`/events?startDate=${dayString(-40)}&endDate=${dayString(40)}`);
  const named = async (name: string): Promise<ServiceEvent | undefined> =>
    (await events()).find((event) => event.name === name);

  beforeAll(async () => {
    app = await startApp({ service: { seed: 'demo' } });
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    calendar = new CalendarPage(page);
    await new AppPage(page).open(app.host.url);
    await calendar.open();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  async function startNew(type: string, name: string): Promise<void> {
    await page.getByTestId('event-new').click();
    await calendar.newEvent.waitFor();
    await page.getByTestId('event-type').selectOption(type);
    await page.getByTestId('event-name').fill(name);
  }
  async function create(): Promise<void> {
    await page.getByTestId('event-create').click();
    await calendar.newEvent.waitFor({ state: 'hidden' });
  }

  it('creates a milestone: one day, only once it names its project', async () => {
    await startNew('project-milestone', 'Launch review');
    await expect.poll(() => page.getByTestId('event-end').count()).toBe(0);
    await page.getByTestId('event-create').click();
    await expect.poll(() => page.getByTestId('event-problem').innerText()).toMatch(/^Project: /);
    await choose(page, page.getByTestId('event-project'), 'Support desk 1');
    await create();
    const milestone = await eventually(
      () => named('Launch review'),
      (event) => event !== undefined,
    );
    expect(milestone?.eventType).toBe('project-milestone');
    expect(milestone?.projectId).toBe('g7-p1');
    expect(milestone?.endDate ?? null).toBeNull();
    await calendar.chips.filter({ hasText: 'Launch review' }).first().waitFor();
  });

  it('creates a vacation only once it names the person, over the chosen days', async () => {
    await startNew('personal-vacation', 'Bob in the mountains');
    await page.getByTestId('event-start').fill(dayString(2));
    await page.getByTestId('event-end').fill(dayString(4));
    await page.getByTestId('event-create').click();
    await expect.poll(() => page.getByTestId('event-problem').innerText()).toMatch(/^Person: /);
    await choose(page, page.getByTestId('event-user'), 'Bob Okafor');
    await screenshot(page, 'calendar-new-vacation');
    await create();
    const vacation = await eventually(
      () => named('Bob in the mountains'),
      (event) => event !== undefined,
    );
    expect(vacation).toMatchObject({
      eventType: 'personal-vacation',
      userId: app.service!.users.bob,
      startDate: dayString(2),
      endDate: dayString(4),
    });
  });

  it('creates a project event for its project, and a holiday that needs neither', async () => {
    await startNew('project-event', 'Support retro');
    await page.getByTestId('event-create').click();
    await expect.poll(() => page.getByTestId('event-problem').innerText()).toMatch(/^Project: /);
    await choose(page, page.getByTestId('event-project'), 'Support desk 1');
    await create();
    await startNew('company-holiday', 'Founders day');
    await expect.poll(() => page.getByTestId('event-user').count()).toBe(0);
    await expect.poll(() => page.getByTestId('event-project').count()).toBe(0);
    await create();
    const all = await eventually(events, (list) =>
      ['Support retro', 'Founders day'].every((name) => list.some((event) => event.name === name)),
    );
    expect(all.find((event) => event.name === 'Support retro')).toMatchObject({
      eventType: 'project-event',
      projectId: 'g7-p1',
    });
    expect(all.find((event) => event.name === 'Founders day')).toMatchObject({
      eventType: 'company-holiday',
      userId: null,
      projectId: null,
    });
    await calendar.chips.filter({ hasText: 'Founders day' }).first().waitFor();
    await screenshot(page, 'calendar-created');
  });

  it('deletes an event after asking, and the service no longer has it', async () => {
    await calendar.chips.filter({ hasText: 'Launch review' }).first().click();
    await calendar.detail.waitFor();
    await calendar.detail.getByTestId('event-delete').click();
    const confirm = page.locator('dialog[open][data-testid="confirm-dialog"]');
    await confirm.waitFor();
    await confirm.getByTestId('confirm').click();
    await eventually(
      () => named('Launch review'),
      (event) => event === undefined,
    );
    await page.waitForFunction(
      () =>
        ![...document.querySelectorAll('[data-testid="event-chip"]')].some((chip) =>
          chip.textContent?.includes('Launch review'),
        ),
    );
    await screenshot(page, 'calendar-deleted');
  });
});
