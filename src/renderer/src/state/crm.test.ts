// The CRM list's search while the cache keeps changing (a sync): each answer for the text
// searched now is shown, whatever loads the cache's changes start meanwhile. Its runes are stood
// in for by plain values (no component draws from it here), so the logic runs in node.
import { describe, expect, it, vi } from 'vitest';
import type { CrmContact } from '@shared/api/crm';
import type { Bridge } from '../lib/bridge';
import { plainRunes } from '../lib/bridge-double';

// The app's bridge is made when its module loads (it needs a window): a double stands in.
vi.mock('../lib/bridge', () => import('../lib/bridge-double'));
plainRunes();

const { CrmState } = await import('./crm.svelte');
const { BridgeError } = await import('../lib/bridge');

const contact = (id: string) => ({ id, firstName: id, lastName: '' }) as unknown as CrmContact;

/** A bridge whose `crm.contacts` answers wait until the test answers them, in any order. */
function heldContacts() {
  const asked: { text: string; answer: () => void }[] = [];
  const bridge = {
    invoke: (channel: string, input: { text?: string }) => {
      if (channel !== 'crm.contacts') throw new Error(`unexpected ${channel}`);
      const text = input.text ?? '';
      return new Promise((resolve) =>
        asked.push({ text, answer: () => resolve({ rows: [contact(text || 'all')], total: 1 }) }),
      );
    },
    on: () => () => undefined,
  } as unknown as Bridge;
  return { bridge, asked };
}

const turn = () => new Promise<void>((done) => setTimeout(done, 0));

describe("the CRM list's search during a sync", () => {
  it('shows the answer for the text searched although a cache change started a later load', async () => {
    const { bridge, asked } = heldContacts();
    const state = new CrmState(bridge, 'contacts');
    void state.load();
    state.search('ada');
    // A sync's cache change starts another load before the search's answer comes.
    void state.load();
    expect(asked.map((a) => a.text)).toEqual(['', 'ada', 'ada']);
    asked[1]!.answer();
    await turn();
    expect(state.stale).toBe(false);
    expect(state.contacts.map((c) => c.id)).toEqual(['ada']);
    // The first load's answer (the search before) comes last: it is dropped.
    asked[0]!.answer();
    await turn();
    expect(state.contacts.map((c) => c.id)).toEqual(['ada']);
    expect(state.stale).toBe(false);
  });

  it('drops an answer for an earlier text once another text is searched', async () => {
    const { bridge, asked } = heldContacts();
    const state = new CrmState(bridge, 'contacts');
    state.search('ad');
    state.search('ada');
    asked[0]!.answer();
    await turn();
    expect(state.contacts).toEqual([]);
    asked[1]!.answer();
    await turn();
    expect(state.contacts.map((c) => c.id)).toEqual(['ada']);
  });
});

describe("the CRM list's search when the core cannot be reached", () => {
  it("shows the error, not the earlier search's rows, for a text searched while lost", async () => {
    let lost = false;
    const bridge = {
      invoke: (channel: string) => {
        if (channel !== 'crm.contacts') throw new Error(`unexpected ${channel}`);
        return lost
          ? Promise.reject(
              new BridgeError({ type: 'offline', message: 'The connection to the Workdesk core was lost.' }),
            )
          : Promise.resolve({ rows: [contact('all')], total: 1 });
      },
      on: () => () => undefined,
    } as unknown as Bridge;
    const state = new CrmState(bridge, 'contacts');
    await state.load();
    lost = true;
    // The same text read again and lost: its rows are kept, with the error above them.
    await state.load();
    expect(state.keptError).toBe('The connection to the Workdesk core was lost.');
    expect(state.error).toBeUndefined();
    // Another text: the rows held answer the one before, so the error takes the list's place.
    state.search('ada');
    await vi.waitFor(() => expect(state.error).toBe('The connection to the Workdesk core was lost.'));
    expect(state.keptError).toBeUndefined();
  });
});

describe('the open CRM record when a read again fails', () => {
  /** A bridge whose `crm.contact` answers each of `answers` in turn (an error is thrown). */
  function contactAnswering(...answers: unknown[]): Bridge {
    return {
      invoke: async (channel: string) => {
        if (channel === 'crm.contacts') return { rows: [], total: 0 };
        if (channel !== 'crm.contact') throw new Error(`unexpected ${channel}`);
        const next = answers.shift();
        if (next instanceof Error) throw next;
        return next;
      },
      on: () => () => undefined,
    } as unknown as Bridge;
  }
  const detail = { contact: contact('c1'), account: null, tasks: [] };

  it('keeps the record, with the error, when the whole core is offline for a moment', async () => {
    const restarting = new BridgeError({
      type: 'offline',
      message: "Workdesk's core stopped while answering",
    });
    const state = new CrmState(contactAnswering(detail, restarting), 'contacts');
    state.open('c1');
    await turn();
    await state.reloadRecord();
    expect(state.contact).toBe(detail);
    expect(state.recordError).toContain('stopped while answering');
  });

  it('drops a record no longer held that the service did not answer about', async () => {
    const notHeld = new BridgeError({
      type: 'offline',
      message: 'The service did not answer',
      field: 'contactId',
    });
    const state = new CrmState(contactAnswering(detail, notHeld), 'contacts');
    state.open('c1');
    await turn();
    await state.reloadRecord();
    expect(state.contact).toBeUndefined();
    expect(state.recordError).toContain('did not answer');
  });
});
