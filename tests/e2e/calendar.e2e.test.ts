/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, screenshot } from './support/browser';
import { startApp, type RunningApp } from './support/web-host';
import { AppPage } from './pages/app';
import { CalendarPage } from './pages/calendar';

interface ServiceEvent {
  id: string;
  name: string;
  eventType: string;
  startDate: string;
  endDate?: string;
}

function monthBounds(): { from: string; to: string } {
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  const first = new Date(now.getFullYear(), now.getMonth(), 1);
  const last = new Date(now.getFullYear(), now.getMonth() + 1, 0);
  const day = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
  return { from: day(first), to: day(last) };
}

describe('calendar: month and agenda, colors and filters per type, create rules, delete', () => {
  let app: RunningApp;
  let browser: Browser;
  let page: Page;
  let calendar: CalendarPage;
  let monthEvents: ServiceEvent[];

  beforeAll(async () => {
    app = await startApp({ service: { seed: 'demo' } });
    const { from, to } = monthBounds();
    monthEvents = await app.api<ServiceEvent[]>(`/events?startDate=${from}&endDate=${to}`);
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

  it('draws this month’s events in the grid with a color per type, and filters a type out', async () => {
    expect(monthEvents.length).toBeGreaterThan(0);
    const first = monthEvents[0]!;
    await calendar.chips.filter({ hasText: first.name }).first().waitFor();
    const colors = await calendar.chips.evaluateAll((els) =>
      els.map((el) => [el.getAttribute('data-type'), getComputedStyle(el).borderLeftColor]),
    );
    const byType = new Map<string, Set<string>>();
    for (const [type, color] of colors)
      byType.set(type ?? '', (byType.get(type ?? '') ?? new Set()).add(color ?? ''));
    for (const set of byType.values()) expect(set.size).toBe(1);
    const distinct = new Set([...byType.values()].map((set) => [...set][0]));
    expect(distinct.size).toBe(byType.size);
    await screenshot(page, 'calendar-month');

    await calendar.filter(first.eventType).click();
    await page.waitForFunction(
      (type) => !document.querySelector(`[data-testid="event-chip"][data-type="${type}"]`),
      first.eventType,
    );
    expect(await calendar.chipTypes()).not.toContain(first.eventType);
    await calendar.filter(first.eventType).click();
    await calendar.chips.filter({ hasText: first.name }).first().waitFor();
  });

  it('lists the month as an agenda', async () => {
    await page.getByTestId('view-agenda').click();
    await page.getByTestId('agenda').waitFor();
    await calendar.agendaItems.first().waitFor();
    const names = await calendar.agendaItems.allInnerTexts();
    for (const event of monthEvents) {
      if (event.startDate >= monthBounds().from) expect(names.join('\n')).toContain(event.name);
    }
    await screenshot(page, 'calendar-agenda');
    await page.getByTestId('view-month').click();
    await calendar.grid.waitFor();
  });

  it('applies the per-type rules before creating: milestone is one day, personal needs a person, project needs a project', async () => {
    await page.getByTestId('event-new').click();
    await calendar.newEvent.waitFor();
    await page.getByTestId('event-type').selectOption('project-milestone');
    expect(await page.getByTestId('event-end').count()).toBe(0);
    await page.getByTestId('event-name').fill('Launch');
    await page.getByTestId('event-create').click();
    expect(await page.getByTestId('event-problem').innerText()).toMatch(
      /^Project: is required for a milestone/,
    );

    await page.getByTestId('event-type').selectOption('personal-vacation');
    await page.getByTestId('event-end').waitFor();
    await page.getByTestId('event-create').click();
    expect(await page.getByTestId('event-problem').innerText()).toMatch(
      /^Person: is required for a vacation/,
    );
    await screenshot(page, 'calendar-new-event');
    await page.keyboard.press('Escape');
    await calendar.newEvent.waitFor({ state: 'hidden' });
  });

  it('opens an event’s details with its type and a delete that asks first', async () => {
    const first = monthEvents[0]!;
    await calendar.chips.filter({ hasText: first.name }).first().click();
    await calendar.detail.waitFor();
    expect(await calendar.detail.innerText()).toContain(first.name);
    await calendar.detail.getByTestId('event-delete').click();
    await page.getByTestId('confirm-dialog').waitFor();
    await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Cancel' }).click();
  });
});
