/// <reference lib="dom" />
// Editing an event from its details: the same form as New event, filled in. The service has no
// event update, so saving creates the edited event and deletes the old one; the form warns
// first when the event's links to other items would be lost.
import { describe, expect, it } from 'vitest';
import { screenshot } from './support/browser';
import { appSuite } from './support/suite';
import { eventually } from './support/wait';
import { dayString } from './support/demo';
import { CalendarPage } from './pages/calendar';

interface ServiceEvent {
  id: string;
  name: string;
  startDate: string;
  endDate?: string | null;
}

describe('editing an event', () => {
  const suite = appSuite({ service: { seed: 'demo' }, viewport: { width: 1440, height: 900 } });

  it('changes the title and dates: the service has the new event and not the old', async () => {
    const { app, page } = suite;
    const events = (): Promise<ServiceEvent[]> =>
      app.api<ServiceEvent[]>(`/events?startDate=${dayString(-40)}&endDate=${dayString(40)}`);
    const created = await app.core.dispatch('events.create', {
      eventType: 'company-event',
      name: 'Planning days',
      startDate: dayString(1),
      endDate: dayString(2),
    });
    if (!created.ok) throw new Error(created.error.message);
    const task = await app.core.dispatch('tasks.create', {
      projectId: 'g7-p1',
      title: 'Prepare the planning',
    });
    if (!task.ok) throw new Error(task.error.message);
    const link = await app.core.dispatch('dependencies.create', {
      type: 5,
      predecessor: { kind: 'task', id: (task.value as { id: string }).id },
      successor: { kind: 'event', id: (created.value as { id: string }).id },
    });
    expect(link).toMatchObject({ ok: true });
    const old = await eventually(
      async () => (await events()).find((event) => event.name === 'Planning days'),
      (event) => event !== undefined,
    );

    const calendar = new CalendarPage(page);
    await calendar.open();
    await calendar.chips.filter({ hasText: 'Planning days' }).first().click();
    await calendar.detail.waitFor();
    await calendar.detail.getByTestId('event-edit').click();
    await calendar.newEvent.waitFor();
    await expect.poll(() => calendar.newEvent.getByRole('heading').first().innerText()).toBe('Edit event');
    await expect.poll(() => page.getByTestId('event-name').inputValue()).toBe('Planning days');
    expect(await page.getByTestId('event-start').inputValue()).toBe(dayString(1));
    expect(await page.getByTestId('event-end').inputValue()).toBe(dayString(2));
    // The link to the task goes with the old event: said before saving.
    await expect
      .poll(() => page.getByTestId('event-links-lost').innerText())
      .toMatch(/^1 link to other items will be lost/);

    await page.getByTestId('event-name').fill('Planning week');
    await page.getByTestId('event-start').fill(dayString(3));
    await page.getByTestId('event-end').fill(dayString(5));
    await screenshot(page, 'calendar-edit-event');
    await page.getByTestId('event-create').click();
    await calendar.newEvent.waitFor({ state: 'hidden' });

    // At once in the calendar: the new one shows, the old one is gone.
    await calendar.chips.filter({ hasText: 'Planning week' }).first().waitFor();
    await expect.poll(() => calendar.chips.filter({ hasText: 'Planning days' }).count()).toBe(0);
    const after = await eventually(
      events,
      (list) =>
        list.some((event) => event.name === 'Planning week') && !list.some((event) => event.id === old!.id),
    );
    expect(after.filter((event) => event.name === 'Planning week')).toMatchObject([
      { startDate: dayString(3), endDate: dayString(5) },
    ]);
    expect(after.filter((event) => event.name === 'Planning days')).toEqual([]);
    await screenshot(page, 'calendar-edited');

    // Saved unchanged: nothing is replaced, the event keeps its id.
    const kept = after.find((event) => event.name === 'Planning week')!;
    await calendar.chips.filter({ hasText: 'Planning week' }).first().click();
    await calendar.detail.getByTestId('event-edit').click();
    await expect.poll(() => page.getByTestId('event-name').inputValue()).toBe('Planning week');
    await page.getByTestId('event-create').click();
    await calendar.newEvent.waitFor({ state: 'hidden' });
    // Had it been replaced, the cache would have dropped the old id at once (the delete's apply).
    const cached = await app.core.dispatch('events.list', { from: dayString(-40), to: dayString(40) });
    if (!cached.ok) throw new Error(cached.error.message);
    expect(
      (cached.value as ServiceEvent[])
        .filter((event) => event.name === 'Planning week')
        .map((event) => event.id),
    ).toEqual([kept.id]);
    expect(
      (await events()).filter((event) => event.name === 'Planning week').map((event) => event.id),
    ).toEqual([kept.id]);
  });
});
