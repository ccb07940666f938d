import { afterEach, describe, expect, it } from 'vitest';
import { stampOn, type ServiceClock } from '../../../../shared/service-clock';
import { COMMUNICATION_FLOW } from '../../../../shared/api/messages';
import { earliestCreated, LOOKUP_SLACK_MS, lookUpInstant, sameFlow, sameIfListed, stampOf } from './support';

interface Item {
  id: string;
  name: string;
  moment: string;
}

const SENT_AT = Date.UTC(2026, 10, 22, 12, 0, 0);
const at = (ms: number) => stampOf(ms);
const ZONES = ['Asia/Taipei', 'America/Los_Angeles', 'UTC'] as const;
const savedTz = process.env.TZ;
afterEach(() => {
  if (savedTz === undefined) delete process.env.TZ;
  else process.env.TZ = savedTz;
});

describe('earliestCreated (the look-up of a create among listed items)', () => {
  const mine = (item: Item) => item.name === 'Launch plan';
  const none = () => false;

  it('takes the earliest matching item stamped after the floor, whatever the list order', () => {
    const items: Item[] = [
      { id: 'later', name: 'Launch plan', moment: at(SENT_AT + 2_000) },
      { id: 'other', name: 'Something else', moment: at(SENT_AT) },
      { id: 'first', name: 'Launch plan', moment: at(SENT_AT + 1_000) },
    ];
    const found = earliestCreated(
      items,
      { sentAt: SENT_AT, momentOf: (i) => i.moment, isMapped: none, clock: 'local' },
      mine,
    );
    expect(found?.id).toBe('first');
  });

  it('accepts the slack before the send (another machine keeps its own time), and nothing older', () => {
    const items: Item[] = [
      { id: 'too-old', name: 'Launch plan', moment: at(SENT_AT - LOOKUP_SLACK_MS - 1_000) },
      { id: 'within-slack', name: 'Launch plan', moment: at(SENT_AT - LOOKUP_SLACK_MS + 1_000) },
    ];
    const options = {
      sentAt: SENT_AT,
      momentOf: (i: Item) => i.moment,
      isMapped: none,
      clock: 'local' as const,
    };
    expect(earliestCreated(items, options, mine)?.id).toBe('within-slack');
    expect(earliestCreated(items.slice(0, 1), options, mine)).toBeUndefined();
  });

  it('never takes an item another create already claimed, and compares space- and T-written stamps', () => {
    const items: Item[] = [
      { id: 'claimed', name: 'Launch plan', moment: at(SENT_AT) },
      { id: 'free', name: 'Launch plan', moment: stampOn(SENT_AT + 1_000, 'local', ' ') },
    ];
    const found = earliestCreated(
      items,
      { sentAt: SENT_AT, momentOf: (i) => i.moment, isMapped: (id) => id === 'claimed', clock: 'local' },
      mine,
    );
    expect(found?.id).toBe('free');
  });

  describe.each(ZONES)('with this machine in %s', (zone) => {
    it.each(['utc', 'local'] as ServiceClock[])(
      'finds an item the service stamped on %s a second after the send, and not one stamped an hour before',
      (clock) => {
        process.env.TZ = zone;
        const items: Item[] = [
          { id: 'old', name: 'Launch plan', moment: stampOn(SENT_AT - 3_600_000, clock) },
          { id: 'made', name: 'Launch plan', moment: stampOn(SENT_AT + 1_000, clock) },
        ];
        // The look-up runs a minute after the send.
        const options = {
          sentAt: SENT_AT,
          momentOf: (i: Item) => i.moment,
          isMapped: none,
          now: SENT_AT + 60_000,
        };
        expect(earliestCreated(items, { ...options, clock }, mine)?.id).toBe('made');
        // While the clock is not known yet, the window takes either reading: still found.
        expect(earliestCreated(items, { ...options, clock: null }, mine)?.id).toBe('made');
        expect(earliestCreated(items.slice(0, 1), { ...options, clock }, mine)).toBeUndefined();
      },
    );

    it('reads a UTC stamp on the wrong clock as hours away (what the look-up did before the clock)', () => {
      process.env.TZ = zone;
      const stamp = stampOn(SENT_AT, 'utc');
      const window = { floor: SENT_AT - LOOKUP_SLACK_MS, ceiling: SENT_AT + LOOKUP_SLACK_MS };
      expect(lookUpInstant(stamp, 'utc', window)).toBe(SENT_AT);
      const offsetMs = new Date(SENT_AT).getTimezoneOffset() * 60_000;
      expect(lookUpInstant(stamp, 'local', window)).toBe(SENT_AT + offsetMs);
      // Clock unknown: the reading inside the window; on this machine's zone both agree on UTC.
      expect(lookUpInstant(stamp, null, window)).toBe(SENT_AT);
    });
  });
});

describe('sameIfListed (a field the live service may leave out)', () => {
  it('compares a listed value and accepts an absent one', () => {
    expect(sameIfListed(2, 2)).toBe(true);
    expect(sameIfListed(3, 2)).toBe(false);
    expect(sameIfListed(undefined, 2)).toBe(true);
    expect(sameIfListed(null, 'u1')).toBe(true);
  });
});

describe('sameFlow (a message list read leniently)', () => {
  const { comment, reply, statusChange } = COMMUNICATION_FLOW;
  it('takes a reply listed as a comment (its flow left out, read as a comment), not the other way', () => {
    expect(sameFlow(reply, reply)).toBe(true);
    expect(sameFlow(comment, reply)).toBe(true);
    expect(sameFlow(statusChange, reply)).toBe(false);
    expect(sameFlow(comment, comment)).toBe(true);
    expect(sameFlow(reply, comment)).toBe(false);
    expect(sameFlow(undefined, comment)).toBe(true);
  });
});
