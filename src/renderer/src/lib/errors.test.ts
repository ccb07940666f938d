// Bridge errors in a user's words: the field an answer names is given by its label.
import { describe, expect, it, vi } from 'vitest';

// The app's bridge is made when its module loads (it needs a window): a double stands in.
vi.mock('./bridge', () => import('./bridge-double'));

const { describeError } = await import('./errors');
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
