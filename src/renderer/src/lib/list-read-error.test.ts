// The error of a list's last read: kept above the rows of an earlier answer, or in the list's
// place. Its runes are stood in for by plain values, so the logic runs in node.
import { describe, expect, it, vi } from 'vitest';
import { plainRunes } from './bridge-double';
import { BridgeError } from './bridge-error';

// The app's bridge is made when its module loads (it needs a window): a double stands in.
vi.mock('./bridge', () => import('./bridge-double'));
plainRunes();
const { ListReadError } = await import('./list-read-error.svelte');

const lost = () =>
  new BridgeError({ type: 'offline', message: 'The connection to the Workdesk core was lost.' });
/** A call the bridge failed itself: its connection to the core was lost. */
const connectionLost = () =>
  new BridgeError({
    type: 'offline',
    message: 'The connection to the Workdesk core was lost.',
    lostConnection: true,
  });
const gone = () => new BridgeError({ type: 'not-found', message: 'The project is gone.' });

describe("a list's read error", () => {
  it('keeps the rows of an earlier answer when the core is lost for a moment', () => {
    const error = new ListReadError();
    error.failed(lost(), true);
    expect(error.kept).toBe('The connection to the Workdesk core was lost.');
    expect(error.shown).toBeUndefined();
  });

  it('does not bring back rows it dropped at the next failure, until a read answers', () => {
    const error = new ListReadError();
    // The list's item is gone: the error takes the list's place.
    error.failed(gone(), true);
    expect(error.shown).toBe('The project is gone.');
    // Then the core is lost for a moment: the dropped rows stay dropped.
    error.failed(lost(), true);
    expect(error.shown).toBe('The connection to the Workdesk core was lost.');
    expect(error.kept).toBeUndefined();
    // A read answers, and a later loss keeps that answer's rows.
    error.cleared();
    error.failed(lost(), true);
    expect(error.kept).toBe('The connection to the Workdesk core was lost.');
  });

  it('keeps the rows with no note when the bridge lost its connection, and says it when nothing is held', () => {
    const error = new ListReadError();
    // The status bar says the connection is lost, for every view: the rows stay, with no note.
    error.failed(connectionLost(), true);
    expect(error.kept).toBeUndefined();
    expect(error.shown).toBeUndefined();
    // A note kept from an earlier failure is not kept past it either.
    error.failed(lost(), true);
    expect(error.kept).toBe('The connection to the Workdesk core was lost.');
    error.failed(connectionLost(), true);
    expect(error.kept).toBeUndefined();
    // With no earlier answer there is nothing to keep: the error takes the list's place.
    const unread = new ListReadError();
    unread.failed(connectionLost(), false);
    expect(unread.shown).toBe('The connection to the Workdesk core was lost.');
  });
});
