// The inbox state's wanted range: how far down the list the next read reads. Its runes are
// stood in for by plain values (no component draws from it here), so the logic runs in node.
import { describe, expect, it, vi } from 'vitest';
import type { InboxRow } from '@shared/ipc/inbox';
import type { Bridge } from '../lib/bridge';

vi.hoisted(() => {
  const plain = <T>(value: T): T => value;
  (globalThis as Record<string, unknown>)['$state'] = Object.assign(plain, { raw: plain });
});
vi.mock('../lib/toasts.svelte', () => ({ toasts: { show: () => undefined } }));
// The app's bridge is made when its module loads (it needs a window); each test makes its own.
vi.mock('../lib/bridge', () => ({ bridge: {}, BridgeError: class BridgeError extends Error {} }));

const { InboxState, INBOX_FIRST_PAGE } = await import('./inbox.svelte');

const TOTAL = 1_500;

function row(n: number): InboxRow {
  return {
    taskId: `t${n}`,
    shortId: String(n),
    name: `Task ${n}`,
    projectId: 'p1',
    statusId: 's1',
    statusName: 'New',
    priority: 0,
    deadline: null,
    todoDone: 0,
    todoTotal: 0,
    handedBy: null,
    handedAt: null,
    last: null,
    unread: false,
  };
}

/**
 * A bridge whose `inbox.list` answers the first `first` rows of a long inbox: at once, or, for
 * a read of more than `holdOver` rows, when the test lets it (`release`).
 */
function longInbox() {
  const asked: number[] = [];
  let release: (() => void) | undefined;
  let holdOver = Infinity;
  const bridge = {
    invoke: async (channel: string, input: { first: number }) => {
      if (channel !== 'inbox.list') throw new Error(`unexpected ${channel}`);
      asked.push(input.first);
      if (input.first > holdOver) await new Promise<void>((done) => (release = done));
      return { rows: Array.from({ length: Math.min(input.first, TOTAL) }, (_, i) => row(i)), total: TOTAL };
    },
    on: () => () => undefined,
  } as unknown as Bridge;
  return {
    bridge,
    asked,
    hold: (over: number) => (holdOver = over),
    /** Answers the read held, and holds no later one. */
    release: () => {
      holdOver = Infinity;
      release?.();
    },
  };
}

describe('the inbox state: how far the next read reads', () => {
  it('reads the first page again after the list was left during a read of every row (End)', async () => {
    const service = longInbox();
    const inbox = new InboxState(service.bridge);
    await inbox.load();
    expect(service.asked).toEqual([INBOX_FIRST_PAGE]);

    // End asks for every row; the read is on its way when the user leaves My Work (the list's
    // unmount keeps to its first page).
    service.hold(INBOX_FIRST_PAGE);
    const end = inbox.more(TOTAL);
    await vi.waitFor(() => expect(service.asked).toEqual([INBOX_FIRST_PAGE, TOTAL]));
    inbox.keepFirstPage();
    service.release();
    await end;
    expect(inbox.rows).toHaveLength(TOTAL);

    // A sync's burst reads the list again while it is not shown: its first page, as the list
    // left asked. Before, every row (1,500) was read again on each sync until it was shown.
    await inbox.load();
    expect(service.asked.at(-1)).toBe(INBOX_FIRST_PAGE);
  });

  it('keeps to the rows near the view the user reached when the read further ends', async () => {
    const service = longInbox();
    const inbox = new InboxState(service.bridge);
    await inbox.load();
    await inbox.more(600);
    // Scrolled near the end of the rows read: a page more is read, and meanwhile the user scrolls
    // back to about row 300. The next read reads that far (whole pages), not 660.
    service.hold(600);
    const further = inbox.more();
    await vi.waitFor(() => expect(service.asked.at(-1)).toBe(660));
    inbox.keepTo(300);
    service.release();
    await further;
    await inbox.load();
    expect(service.asked.at(-1)).toBe(300);
  });

  it("keeps End's rows wanted when a keep is asked while End's read is on its way", async () => {
    const service = longInbox();
    const inbox = new InboxState(service.bridge);
    await inbox.load();
    service.hold(INBOX_FIRST_PAGE);
    const end = inbox.more(TOTAL);
    await vi.waitFor(() => expect(service.asked.at(-1)).toBe(TOTAL));
    // Meanwhile the list scrolls where it still is (its top: the view moves to the last row once
    // End's rows are read), and a sync's burst asks for a read of the list, which waits its turn.
    inbox.keepTo(INBOX_FIRST_PAGE);
    const burst = inbox.load();
    service.release();
    await end;
    await burst;
    // The burst's read reads the rows End jumped to. Before, the keep applied when End's read
    // ended, so the burst read the first page only: the rows the user jumped to were dropped,
    // and End read them again.
    expect(service.asked).toEqual([INBOX_FIRST_PAGE, TOTAL, TOTAL]);
    expect(inbox.rows).toHaveLength(TOTAL);
  });

  it('a read further with no keep asked meanwhile leaves the range it read', async () => {
    const service = longInbox();
    const inbox = new InboxState(service.bridge);
    await inbox.load();
    await inbox.more(600);
    await inbox.load();
    expect(service.asked.at(-1)).toBe(600);
  });
});
