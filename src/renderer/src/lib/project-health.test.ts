import { describe, expect, it } from 'vitest';
import { PROJECT_HEALTH } from './project-health';

describe('project health as words', () => {
  it('names the three values the service takes, in traffic-light order, each with its color', () => {
    expect(PROJECT_HEALTH.map((health) => [health.value, health.word, health.color])).toEqual([
      [0, 'Green', 'var(--color-success)'],
      [1, 'Amber', 'var(--color-warning)'],
      [2, 'Red', 'var(--color-danger)'],
    ]);
  });
});
