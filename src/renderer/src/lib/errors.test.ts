// Bridge errors in a user's words: the field an answer names is given by its label.
import { describe, expect, it, vi } from 'vitest';

// The app's bridge is made when its module loads (it needs a window): a double stands in.
vi.mock('./bridge', () => import('./bridge-double'));

const { describeError, failedListRead, failedReadAgain } = await import('./errors');
const { BridgeError } = await import('./bridge');

describe('an error in words', () => {
  it('names the field at fault by its label', () => {
    const error = new BridgeError({ type: 'invalid-argument', message: 'taskId: required', field: 'taskId' });
    expect(describeError(error)).toMatch(/^Task.*: required$/);
  });

  it('names the field of an offline answer too (a service address that cannot be reached)', () => {
    const error = new BridgeError({
      type: 'offline',
      message: 'Could not reach http://svc/2.0: fetch failed',
      field: 'baseUrl',
    });
    expect(describeError(error)).toMatch(/^.+: Could not reach http:\/\/svc\/2\.0: fetch failed$/);
  });
});

describe('what a view keeps when reading its item again failed', () => {
  it('drops an item the cache says is gone (not-found), whatever field it names', () => {
    expect(
      failedReadAgain(
        new BridgeError({ type: 'not-found', message: 'Task t1 is not in the cache' }),
        'taskId',
      ),
    ).toBe('gone');
    expect(
      failedReadAgain(
        new BridgeError({ type: 'not-found', message: 'Task t1 is not in the cache', field: 'taskId' }),
        'taskId',
      ),
    ).toBe('gone');
  });

  it("drops an item no longer held that the service did not answer about ('offline' naming its id)", () => {
    const notHeld = new BridgeError({
      type: 'offline',
      message: 'The service did not answer',
      field: 'projectId',
    });
    expect(failedReadAgain(notHeld, 'projectId')).toBe('not-held');
  });

  it("keeps the item when the whole core is 'offline' (no field) or the field is another item's", () => {
    const restarting = new BridgeError({
      type: 'offline',
      message: "Workdesk's core stopped while answering",
    });
    expect(failedReadAgain(restarting, 'taskId')).toBe('kept');
    const other = new BridgeError({
      type: 'offline',
      message: 'The service did not answer',
      field: 'accountId',
    });
    expect(failedReadAgain(other, 'contactId')).toBe('kept');
  });

  it('keeps the item after any other failure, bridge error or not', () => {
    const refused = new BridgeError({
      type: 'invalid-argument',
      message: 'taskId: not an id',
      field: 'taskId',
    });
    expect(failedReadAgain(refused, 'taskId')).toBe('kept');
    expect(failedReadAgain(new Error('socket closed'), 'taskId')).toBe('kept');
    expect(failedReadAgain('odd', 'taskId')).toBe('kept');
  });
});

describe('what a list does when reading it again failed', () => {
  const lost = new BridgeError({ type: 'offline', message: 'The connection to the Workdesk core was lost.' });

  it('keeps the rows of an earlier answer while the core is lost for a moment', () => {
    expect(failedListRead(lost, true)).toBe('kept');
    expect(failedListRead(new Error('socket closed'), true, 'projectId')).toBe('kept');
  });

  it('shows the error in its place when there is nothing to keep, or its item is gone or not held', () => {
    expect(failedListRead(lost, false)).toBe('shown');
    expect(failedListRead(new BridgeError({ type: 'not-found', message: 'gone' }), true)).toBe('shown');
    const notHeld = new BridgeError({ type: 'offline', message: 'not in the cache', field: 'projectId' });
    expect(failedListRead(notHeld, true, 'projectId')).toBe('shown');
  });
});
