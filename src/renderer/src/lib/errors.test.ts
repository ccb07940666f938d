// Bridge errors in a user's words: the field an answer names is given by its label.
import { describe, expect, it, vi } from 'vitest';

// The app's bridge is made when its module loads (it needs a window): a double stands in.
vi.mock('./bridge', () => import('./bridge-double'));

const { describeError, failedReadAgain } = await import('./errors');
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
