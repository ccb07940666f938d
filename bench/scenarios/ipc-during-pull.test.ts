// The scenario's clock of the core's thread: Linux's scheduler statistics read, a bad line named.
import { describe, expect, it } from 'vitest';
import { parseSchedstat, threadClock } from './ipc-during-pull';

describe('the core thread’s clock of ipc-during-pull', () => {
  it('reads the time on a core and the time waiting for one, in ms', () => {
    expect(parseSchedstat('1500000000 250000000 4321\n')).toEqual({ runMs: 1500, waitMs: 250 });
  });

  it('names a line that is not two numbers', () => {
    expect(() => parseSchedstat('nothing here')).toThrow(/schedstat: expected two numbers/);
  });

  it('has no clock for a process that is not there', () => {
    expect(threadClock(2 ** 30)).toBeUndefined();
  });
});
