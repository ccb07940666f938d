/** Small statistics over benchmark samples. */

export function sorted(values: readonly number[]): number[] {
  return [...values].sort((a, b) => a - b);
}

/** Nearest-rank percentile (p in 0-100) of already sorted values; NaN when empty. */
export function percentile(sortedValues: readonly number[], p: number): number {
  if (sortedValues.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sortedValues.length);
  return sortedValues[Math.min(sortedValues.length - 1, Math.max(0, rank - 1))]!;
}

export function median(values: readonly number[]): number {
  return percentile(sorted(values), 50);
}

export interface Spread {
  median: number;
  min: number;
  max: number;
}

export function spread(values: readonly number[]): Spread {
  const s = sorted(values);
  return { median: percentile(s, 50), min: s[0] ?? Number.NaN, max: s[s.length - 1] ?? Number.NaN };
}

/**
 * Runs `fn` `times` times and reduces each numeric figure it returns to median/min/max over
 * the runs, so one noisy run on a shared machine does not decide the result.
 */
export async function repeat<K extends string>(
  times: number,
  fn: (run: number) => Promise<Record<K, number>>,
): Promise<Record<K, Spread>> {
  const runs: Record<K, number>[] = [];
  for (let i = 0; i < times; i++) runs.push(await fn(i));
  const keys = Object.keys(runs[0] ?? {}) as K[];
  return Object.fromEntries(keys.map((k) => [k, spread(runs.map((r) => r[k]))])) as Record<K, Spread>;
}

export function round(value: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
