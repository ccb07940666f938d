import type * as Crypto from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';

// Every comparison goes through timingSafeEqual: the spy counts them.
vi.mock('node:crypto', async (importOriginal) => {
  const original = await importOriginal<typeof Crypto>();
  return { ...original, timingSafeEqual: vi.fn(original.timingSafeEqual) };
});

const { timingSafeEqual } = await import('node:crypto');
const { tokenChecker } = await import('./auth');

describe('token check', () => {
  it('grants the organization token everything and a user token its user', () => {
    const check = tokenChecker(['org-token-0123456789'], { 'u-bob': 'bob-token-0123456789' });
    expect(check('org-token-0123456789')).toEqual({ userId: null });
    expect(check('bob-token-0123456789')).toEqual({ userId: 'u-bob' });
    expect(check('bob-token-012345678')).toBeUndefined();
    expect(check('')).toBeUndefined();
  });

  it('compares in constant time: every configured token, equal-length digests, whichever matches', () => {
    const tokens = ['first-token-0123456789', 'second-token-0123456789', 'third-token-0123456789'];
    const check = tokenChecker(tokens);
    const spy = vi.mocked(timingSafeEqual);
    for (const presented of [tokens[0]!, tokens[2]!, 'x', 'a much longer wrong token than any of them']) {
      spy.mockClear();
      check(presented);
      expect(spy, presented).toHaveBeenCalledTimes(tokens.length);
      for (const [a, b] of spy.mock.calls) {
        expect((a as Buffer).length).toBe(32);
        expect((b as Buffer).length).toBe(32);
      }
    }
  });
});
