import { describe, expect, it } from 'vitest';
import { earliestCreated, LOOKUP_SLACK_MS, stampOf } from './support';

interface Item {
  id: string;
  name: string;
  moment: string;
}

const SENT_AT = Date.UTC(2026, 10, 22, 12, 0, 0);
const at = (ms: number) => stampOf(ms).replace(' ', 'T');

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
      { sentAt: SENT_AT, momentOf: (i) => i.moment, isMapped: none },
      mine,
    );
    expect(found?.id).toBe('first');
  });

  it('accepts the slack before the send (another clock), and nothing older', () => {
    const items: Item[] = [
      { id: 'too-old', name: 'Launch plan', moment: at(SENT_AT - LOOKUP_SLACK_MS - 1_000) },
      { id: 'within-slack', name: 'Launch plan', moment: at(SENT_AT - LOOKUP_SLACK_MS + 1_000) },
    ];
    const options = { sentAt: SENT_AT, momentOf: (i: Item) => i.moment, isMapped: none };
    expect(earliestCreated(items, options, mine)?.id).toBe('within-slack');
    expect(earliestCreated(items.slice(0, 1), options, mine)).toBeUndefined();
  });

  it('never takes an item another create already claimed, and compares space- and T-written stamps', () => {
    const items: Item[] = [
      { id: 'claimed', name: 'Launch plan', moment: at(SENT_AT) },
      { id: 'free', name: 'Launch plan', moment: stampOf(SENT_AT + 1_000) },
    ];
    const found = earliestCreated(
      items,
      { sentAt: SENT_AT, momentOf: (i) => i.moment, isMapped: (id) => id === 'claimed' },
      mine,
    );
    expect(found?.id).toBe('free');
  });
});
