import { describe, expect, it } from 'vitest';
import { PROGRESS_RULE, parseProgress } from './progress';

describe('parseProgress', () => {
  it('reads empty text as a reset and whole percentages as themselves', () => {
    expect(parseProgress('  ')).toEqual({ value: null });
    expect(parseProgress('0')).toEqual({ value: 0 });
    expect(parseProgress(' 42 ')).toEqual({ value: 42 });
    expect(parseProgress('100')).toEqual({ value: 100 });
  });

  it('refuses fractions, out-of-range numbers and words with the rule', () => {
    for (const text of ['101', '-1', '4.5', 'half'])
      expect(parseProgress(text)).toEqual({ error: PROGRESS_RULE });
  });
});
