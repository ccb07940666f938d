// Bridge errors in a user's words: a field at fault is named by its label; an item the service
// did not answer about is not put as a fault of its field.
import { describe, expect, it, vi } from 'vitest';

// The app's bridge is made when its module loads (it needs a window); the error class is kept.
vi.mock('./bridge', async () => {
  class BridgeError extends Error {
    readonly type: string;
    readonly field: string | undefined;
    constructor(error: { type: string; message: string; field?: string }) {
      super(error.message);
      this.type = error.type;
      this.field = error.field;
    }
  }
  return { bridge: {}, BridgeError };
});

const { describeError } = await import('./errors');
const { BridgeError } = await import('./bridge');

describe('an error in words', () => {
  it('names the field at fault by its label', () => {
    const error = new BridgeError({ type: 'invalid-argument', message: 'taskId: required', field: 'taskId' });
    expect(describeError(error)).toMatch(/^Task.*: required$/);
  });

  it('does not put an item the service did not answer about as a fault of its field', () => {
    const message = 'The service did not answer about this task just now (t1, not kept here); try again';
    expect(describeError(new BridgeError({ type: 'offline', message, field: 'taskId' }))).toBe(message);
  });
});
