// The calendar's events when reading them again fails (the core lost for a moment, a refresh
// that failed): the month's events stay with a note above them; a month never read shows the
// error in their place. Its runes are stood in for by plain values, so the logic runs in node.
import { describe, expect, it, vi } from 'vitest';
import type { Bridge } from '../lib/bridge';
import { plainRunes } from '../lib/bridge-double';

vi.mock('../lib/bridge', () => import('../lib/bridge-double'));
plainRunes();

const { CalendarState } = await import('./calendar.svelte');
const { BridgeError } = await import('../lib/bridge');

const LOST = 'The connection to the Workdesk core was lost.';
const event = (name: string, startDate: string) => ({
  id: name,
  name,
  eventType: 'company-event',
  startDate,
});

/** A bridge whose `events.list` answers the events of the asked range, or fails while `lost`. */
function calendarBridge() {
  const state = { lost: false };
  const bridge = {
    invoke: (channel: string, input: { from: string }) => {
      if (channel !== 'events.list') throw new Error(`unexpected ${channel}`);
      if (state.lost) return Promise.reject(new BridgeError({ type: 'offline', message: LOST }));
      return Promise.resolve([event(`event from ${input.from}`, input.from)]);
    },
    on: () => () => undefined,
    onConnection: () => () => undefined,
  } as unknown as Bridge;
  return { bridge, state };
}

describe('the calendar when reading its events again fails', () => {
  it("keeps the month's events with the error above them, and drops the note once a read answers", async () => {
    const { bridge, state } = calendarBridge();
    const calendar = new CalendarState(bridge);
    calendar.show('2026-11');
    await vi.waitFor(() => expect(calendar.events).toHaveLength(1));
    const shown = calendar.events;
    state.lost = true;
    await calendar.load();
    expect(calendar.keptError).toBe(LOST);
    expect(calendar.error).toBeUndefined();
    expect(calendar.events).toEqual(shown);
    state.lost = false;
    await calendar.load();
    expect(calendar.keptError).toBeUndefined();
    expect(calendar.error).toBeUndefined();
  });

  it('shows the error in place of a month never read: the events held are another month’s', async () => {
    const { bridge, state } = calendarBridge();
    const calendar = new CalendarState(bridge);
    calendar.show('2026-11');
    await vi.waitFor(() => expect(calendar.events).toHaveLength(1));
    state.lost = true;
    calendar.show('2026-12');
    await vi.waitFor(() => expect(calendar.error).toBe(LOST));
    expect(calendar.keptError).toBeUndefined();
  });

  it('shows the error in place of the events when the first read fails', async () => {
    const { bridge, state } = calendarBridge();
    state.lost = true;
    const calendar = new CalendarState(bridge);
    calendar.show('2026-11');
    await vi.waitFor(() => expect(calendar.loaded).toBe(true));
    expect(calendar.error).toBe(LOST);
    expect(calendar.keptError).toBeUndefined();
  });
});
