// A short slice of the long service fuzz (`npm run test:faults -- --fuzz-minutes N`): the
// stateful random stream over real HTTP finds no 5xx, no refusal without its error body, and
// no refused request that changed a row.
import { describe, expect, it } from 'vitest';
import { fuzzService } from './service-fuzz';

describe('service fuzz (short)', () => {
  it('400 random stateful requests: no 5xx, refusals explain themselves and change nothing', async () => {
    const result = await fuzzService({ minutes: 5, seed: 7, maxRequests: 400 });
    expect(result.requests).toBe(400);
    // Some requests get through, so the stream reaches past validation.
    expect(Object.keys(result.byStatus).some((s) => Number(s) < 300)).toBe(true);
    expect(result.problems).toEqual([]);
  });
});
