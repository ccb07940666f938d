/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, screenshot } from './support/browser';
import { startApp, type RunningApp } from './support/web-host';
import { AppPage } from './pages/app';
import { CalendarPage } from './pages/calendar';
import { appSuite } from './support/suite';
import { PalettePage } from './pages/palette';

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
    await expect.poll(() => page.getByTestId('event-end').count()).toBe(0);
    await page.getByTestId('event-name').fill('Launch');
    await page.getByTestId('event-create').click();
    await expect
      .poll(() => page.getByTestId('event-problem').innerText())
      .toMatch(/^Project: is required for a milestone/);

    await page.getByTestId('event-type').selectOption('personal-vacation');
    await page.getByTestId('event-end').waitFor();
    await page.getByTestId('event-create').click();
    await expect
      .poll(() => page.getByTestId('event-problem').innerText())
      .toMatch(/^Person: is required for a vacation/);
    await screenshot(page, 'calendar-new-event');
    await page.keyboard.press('Escape');
    await calendar.newEvent.waitFor({ state: 'hidden' });
  });

  it('opens an event’s details with its type and a delete that asks first', async () => {
    const first = monthEvents[0]!;
    await calendar.chips.filter({ hasText: first.name }).first().click();
    await calendar.detail.waitFor();
    await expect.poll(() => calendar.detail.innerText()).toContain(first.name);
    await calendar.detail.getByTestId('event-delete').click();
    await page.getByTestId('confirm-dialog').waitFor();
    await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Cancel' }).click();
  });
});

/** Today as the app writes a day (local time). */
function today(): string {
  const d = new Date();
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

describe('calendar: events from a dependency, create refusals in words, crowded days, agenda lines, narrow titles', () => {
  const suite = appSuite({ service: { seed: 'demo' }, viewport: { width: 1280, height: 800 } });

  // First of the describe: the New event dialog keeps the type last chosen, and this test needs
  // the default one (a milestone, chosen further down, has no end date).
  it('moves a new event’s end with its start, and words a refusal with the fields’ labels', async () => {
    const { page } = suite;
    await page.setViewportSize({ width: 1024, height: 700 });
    await new PalettePage(page).runCommand('New calendar event');
    const dialog = page.getByTestId('new-event');
    await dialog.getByTestId('event-name').fill('Offsite');
    const day = await dialog.getByTestId('event-end').inputValue();
    const later = new Date(Date.parse(`${day}T12:00:00Z`) + 3 * 86_400_000).toISOString().slice(0, 10);
    await dialog.getByTestId('event-start').fill(later);
    // Before: the end stayed on the day the form opened with, and Create said
    // "End date: must not be before startDate".
    await expect.poll(() => dialog.getByTestId('event-end').inputValue()).toBe(later);
    await dialog.getByTestId('event-end').fill(day);
    await dialog.getByTestId('event-create').click();
    await expect
      .poll(() => dialog.getByTestId('event-problem').innerText())
      .toBe('End date: must not be before start date');
    await page.keyboard.press('Escape');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('opens an event a task depends on from the task’s dependencies, in the calendar', async () => {
    const { page } = suite;
    const calendar = new CalendarPage(page);
    await calendar.open();
    // The demo's milestone waits for a task; go to that task from the milestone's detail.
    const milestone = new Date();
    milestone.setDate(milestone.getDate() - 5);
    if (milestone.getMonth() !== new Date().getMonth()) await page.getByTestId('month-prev').click();
    await calendar.chips.filter({ hasText: 'project milestone 1' }).first().click();
    await calendar.detail.getByTestId('predecessors').getByRole('button').first().click();
    // Before: the task opened beside the calendar, behind the event's (modal) dialog.
    await calendar.detail.getByRole('heading').waitFor({ state: 'detached' });
    const panel = page.getByTestId('detail-panel');
    const blocks = panel.getByTestId('successors');
    await blocks.waitFor();
    // Before: the event was a disabled link; nothing led back to it.
    const link = blocks.locator('.link-button', { hasText: 'project milestone 1' });
    await expect.poll(() => link.isDisabled()).toBe(false);
    await link.click();
    await calendar.detail.getByRole('heading', { name: 'project milestone 1' }).waitFor();
    await screenshot(page, 'calendar-event-from-dependency');
    await page.keyboard.press('Escape');
    await calendar.detail.getByRole('heading').waitFor({ state: 'detached' });
  });

  it('names the event type in words when a new event misses its person or project', async () => {
    const { page } = suite;
    const calendar = new CalendarPage(page);
    await calendar.open();
    await page.getByTestId('event-new').click();
    await calendar.newEvent.waitFor();
    await page.getByTestId('event-type').selectOption('personal-vacation');
    await page.getByTestId('event-name').fill('Trip');
    await calendar.newEvent.getByRole('button', { name: 'Create' }).click();
    const problem = calendar.newEvent.getByRole('alert');
    // Before: "Person: is required for personal-vacation" (the service's type id).
    await page.waitForFunction(() => document.querySelector('dialog[open] [role="alert"]')?.textContent);
    expect((await problem.innerText()).trim()).toBe('Person: is required for a vacation');
    await page.getByTestId('event-type').selectOption('project-milestone');
    await calendar.newEvent.getByRole('button', { name: 'Create' }).click();
    await page.waitForFunction(() =>
      document.querySelector('dialog[open] [role="alert"]')?.textContent?.includes('milestone'),
    );
    expect((await problem.innerText()).trim()).toBe('Project: is required for a milestone');
    await screenshot(page, 'calendar-new-event-problem');
    await page.keyboard.press('Escape');
  });

  it('reaches the events a month’s day has no room for, from its “+N more”', async () => {
    const { app, page, ui } = suite;
    await page.setViewportSize({ width: 1024, height: 700 });
    const day = today();
    for (const n of [1, 2, 3, 4])
      expect(
        await app.core.dispatch('events.create', {
          eventType: 'company-event',
          name: `Crowded day ${n}`,
          startDate: day,
          endDate: day,
        }),
      ).toMatchObject({ ok: true });
    await new PalettePage(page).runCommand('Go to Calendar');
    const cell = page.locator(`[data-testid="day-cell"][data-day="${day}"]`);
    await cell.getByTestId('event-chip').first().waitFor();
    const shown = await cell.getByTestId('event-chip').allInnerTexts();
    // Before: "+N more" was text; the events past the cell's room could not be opened from the month.
    await cell.getByTestId('day-more').click();
    await page.getByTestId('agenda').waitFor();
    const focused = page.locator('[data-testid="agenda-item"]:focus');
    await focused.waitFor();
    const name = (await focused.locator('.name').innerText()).trim();
    expect(shown.map((text) => text.trim())).not.toContain(name);
    await screenshot(page, 'calendar-day-more');
    await page.keyboard.press('Enter');
    const detail = page.getByTestId('event-detail');
    await detail.getByRole('heading', { name }).waitFor();
    // Before: the dialog opened on the dependency form's "Waits for", not on the event.
    await detail.locator('[data-testid="event-close"]:focus').waitFor();
    await page.keyboard.press('Escape');
    await detail.waitFor({ state: 'hidden' });
    await ui.waitForTitle('Calendar');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('lists an agenda line with only the parts it has: no dot before a milestone’s project', async () => {
    const { page } = suite;
    const calendar = new CalendarPage(page);
    await calendar.open();
    // The demo's milestone is five days back, without an end; that may be last month.
    const milestone = new Date();
    milestone.setDate(milestone.getDate() - 5);
    if (milestone.getMonth() !== new Date().getMonth()) {
      await page.getByRole('button', { name: /previous month/i }).click();
    }
    await page.getByRole('radio', { name: 'Agenda', exact: true }).click();
    await calendar.agendaItems.first().waitFor();
    const metas = await calendar.agendaItems.locator('.meta').allInnerTexts();
    expect(metas.filter((meta) => /^\s*·|·\s*$|·\s*·/.test(meta))).toEqual([]);
    const line = calendar.agendaItems.filter({ hasText: 'project milestone 1' });
    expect((await line.locator('.meta').innerText()).trim()).toMatch(/^[^·\s]/);
    await screenshot(page, 'calendar-agenda-line');
  });

  it('keeps the month readable in the calendar’s title at 900x700', async () => {
    const { page } = suite;
    await page.setViewportSize({ width: 900, height: 700 });
    const calendar = new CalendarPage(page);
    await calendar.open();
    const title = page.getByTestId('view-title');
    // Every month name of the year, the longest included. Before: "Calendar · November …".
    for (let month = 0; month < 12; month++) {
      // What is drawn: the title's own text, not the words only assistive technology hears.
      const shown = await title.evaluate((h1) => ({
        cut: h1.scrollWidth > h1.clientWidth,
        text: [...h1.childNodes]
          .filter((node) => node.nodeType === Node.TEXT_NODE)
          .map((node) => node.textContent)
          .join('')
          .trim(),
      }));
      expect(shown.cut, shown.text).toBe(false);
      expect(shown.text).toMatch(/^[A-Z][a-z]+ \d{4}$/);
      if (month === 0) await screenshot(page, 'calendar-title-narrow');
      await page.getByTestId('month-next').click();
      await page.waitForFunction(
        (before) => !document.querySelector('[data-testid="view-title"]')?.textContent?.includes(before),
        shown.text,
      );
    }
    // Assistive technology still hears where the month belongs.
    await expect.poll(() => title.textContent()).toMatch(/Calendar · /);
    await page.setViewportSize({ width: 1280, height: 800 });
  });
});
