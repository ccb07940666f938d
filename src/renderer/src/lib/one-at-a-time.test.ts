import { describe, expect, it } from 'vitest';
import { oneAtATime } from './one-at-a-time';

/** A read whose runs end when the test says, recording the argument each began with. */
function controlledRead() {
  const began: string[] = [];
  const ends: (() => void)[] = [];
  const fails: ((err: Error) => void)[] = [];
  const read = (arg: string): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      began.push(arg);
      ends.push(resolve);
      fails.push(reject);
    });
  return { began, read, end: (n: number) => ends[n]!(), fail: (n: number) => fails[n]!(new Error('no')) };
}
const settled = (): Promise<void> => new Promise((r) => setTimeout(r, 0));

describe('a read run one at a time', () => {
  it('answers the calls made during a run with one more run after it, with the last arguments', async () => {
    const { began, read, end } = controlledRead();
    const load = oneAtATime(read);
    const done: string[] = [];
    void load('a').then(() => done.push('a'));
    void load('b').then(() => done.push('b'));
    void load('c').then(() => done.push('c'));
    void load('d').then(() => done.push('d'));
    await settled();
    expect(began).toEqual(['a']);
    end(0);
    await settled();
    expect(done).toEqual(['a']);
    expect(began).toEqual(['a', 'd']);
    end(1);
    await settled();
    expect(done).toEqual(['a', 'b', 'c', 'd']);
    // Idle again: the next call runs at once.
    void load('e');
    expect(began).toEqual(['a', 'd', 'e']);
  });

  it('settles a call only after a run that began after it, and goes on after a failed run', async () => {
    const { began, read, end, fail } = controlledRead();
    const load = oneAtATime(read);
    const first = load('write 1').catch((err: Error) => err.message);
    const afterWrite = load('after the write');
    let answered = false;
    void afterWrite.then(() => (answered = true));
    fail(0);
    expect(await first).toBe('no');
    await settled();
    expect(answered).toBe(false);
    expect(began).toEqual(['write 1', 'after the write']);
    end(1);
    await afterWrite;
    expect(answered).toBe(true);
  });
});
