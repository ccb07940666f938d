/// <reference lib="dom" />
// The month grid as a desktop calendar draws it: an event of several days is one bar across
// its days, cut at the week's edge and going on in the next row; and a new personal event is
// the acting user's unless another person is chosen.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceClient } from '../../src/main/core/api/client';
import { startService, type RunningService } from '../support/service';
import { DEFAULT_SETTINGS } from '../../src/shared/ipc/settings';
import { screenshot } from './support/browser';
import { appSuite, sessionSuite } from './support/suite';
import { eventually } from './support/wait';
import { CalendarPage } from './pages/calendar';
import { eventEndpoints } from '../../src/shared/api/events';

/** A day of this month as `YYYY-MM-DD` (local dates, as the grid's). */
function day(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}
/** The second Monday of this month: its week and the next lie in the month shown. */
function secondMonday(): Date {
  const now = new Date();
  const first = new Date(now.getFullYear(), now.getMonth(), 1);
  const offset = (8 - first.getDay()) % 7; // days to the first Monday
  return new Date(now.getFullYear(), now.getMonth(), 1 + offset + 7);
}
const plus = (date: Date, days: number): string =>
  day(new Date(date.getFullYear(), date.getMonth(), date.getDate() + days));

describe('month grid: events of several days as spanning bars', () => {
  const suite = appSuite({ service: { seed: 'demo' }, viewport: { width: 1440, height: 900 } });
  const monday = secondMonday();

  it('draws a 3-day event as one bar over its days, and one crossing a week as two joined bars', async () => {
    const { app, page } = suite;
    for (const [name, startDate, endDate] of [
      ['Three-day offsite', plus(monday, 1), plus(monday, 3)],
      ['Long weekend trip', plus(monday, 4), plus(monday, 8)],
    ] as const) {
      const created = await app.core.dispatch('events.create', {
        eventType: 'company-event',
        name,
        startDate,
        endDate,
      });
      // The refusal, if any, says why.
      expect(created.ok ? created : created.error).toMatchObject({ ok: true });
    }
    const calendar = new CalendarPage(page);
    await calendar.open();

    // One bar, not a chip per day, starting on its first day and as wide as its three days.
    const offsite = page.getByTestId('event-bar').filter({ hasText: 'Three-day offsite' });
    await expect.poll(() => offsite.count()).toBe(1);
    expect(await calendar.chips.filter({ hasText: 'Three-day offsite' }).count()).toBe(1);
    expect(await offsite.getAttribute('data-span')).toBe('3');
    const startCell = page.locator(`[data-testid="day-cell"][data-day="${plus(monday, 1)}"]`);
    expect(await startCell.getByTestId('event-bar').filter({ hasText: 'Three-day offsite' }).count()).toBe(1);
    const cellBox = await startCell.boundingBox();
    const endBox = await page
      .locator(`[data-testid="day-cell"][data-day="${plus(monday, 3)}"]`)
      .boundingBox();
    const barBox = await offsite.boundingBox();
    expect(cellBox && endBox && barBox).toBeTruthy();
    // From within the first day's cell to within the third's: it covers the days between.
    expect(barBox!.x).toBeGreaterThanOrEqual(cellBox!.x);
    expect(barBox!.x).toBeLessThan(cellBox!.x + 12);
    expect(barBox!.x + barBox!.width).toBeGreaterThan(endBox!.x + endBox!.width - 12);
    expect(barBox!.x + barBox!.width).toBeLessThanOrEqual(endBox!.x + endBox!.width);

    // Friday to Tuesday: Friday–Sunday open on the right, then Monday–Tuesday open on the left.
    const trip = page.getByTestId('event-bar').filter({ hasText: 'Long weekend trip' });
    await expect.poll(() => trip.count()).toBe(2);
    expect(await trip.evaluateAll((bars) => bars.map((bar) => bar.getAttribute('data-span')))).toEqual([
      '3',
      '2',
    ]);
    expect(await trip.nth(0).innerText()).toContain('▸');
    expect(await trip.nth(1).innerText()).toContain('◂');
    const nextMonday = page.locator(`[data-testid="day-cell"][data-day="${plus(monday, 7)}"]`);
    expect(await nextMonday.getByTestId('event-bar').filter({ hasText: 'Long weekend trip' }).count()).toBe(
      1,
    );
    await screenshot(page, 'calendar-spanning-bars');

    // Either piece opens the one event.
    await trip.nth(1).getByTestId('event-chip').click();
    await calendar.detail.waitFor();
    await expect.poll(() => calendar.detail.innerText()).toContain('Long weekend trip');
    await page.keyboard.press('Escape');
    await calendar.detail.waitFor({ state: 'hidden' });
  });
});

describe('a new personal event is the acting user’s by default', () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService({ seed: 'demo', token: 'team-token' });
  });
  afterAll(async () => {
    await service?.close();
  });
  const suite = sessionSuite({
    viewport: { width: 1280, height: 860 },
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
      secrets.set('team', 'team-token');
    },
  });

  it('fills the person with me, named so, and the service gets my id', async () => {
    const { page, ui } = suite;
    const api = createServiceClient({ baseUrl: service.baseUrl, token: service.token });
    await ui.treeItem('Company Workspace').waitFor({ timeout: 30_000 });
    const calendar = new CalendarPage(page);
    await calendar.open();
    await page.getByTestId('event-new').click();
    await calendar.newEvent.waitFor();
    await page.getByTestId('event-type').selectOption('personal-vacation');
    await page.getByTestId('event-name').fill('My week off');
    const person = page.getByTestId('event-user');
    await expect.poll(() => person.getAttribute('aria-label')).toMatch(/^Person: .+ \(me\)$/);
    await screenshot(page, 'calendar-new-personal-event-me');
    await page.getByTestId('event-create').click();
    await calendar.newEvent.waitFor({ state: 'hidden' });
    const from = day(new Date(Date.now() - 40 * 86_400_000));
    const to = day(new Date(Date.now() + 40 * 86_400_000));
    const created = await eventually(
      async () =>
        (await api.call(eventEndpoints.events, { query: { startDate: from, endDate: to } })).find(
          (e) => e.name === 'My week off',
        ),
      (event) => event !== undefined,
    );
    expect(created).toMatchObject({ eventType: 'personal-vacation', userId: service.users.actingUserId });
  });
});
