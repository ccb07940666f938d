// The bounded fault campaign CI runs (vitest project `faults`): a few seeded runs with the short
// outages of the CI profile. Zero anomalies expected; a failure prints each run's summary line,
// the anomalies, the replay command and the log file of the run.
import { describe, expect, it } from 'vitest';
import { runCampaign } from './campaign';

/** Runs and clients of the CI campaign; FAULT_RUNS widens it locally. */
const RUNS = Number(process.env['FAULT_RUNS'] ?? 6);
const SEED = Number(process.env['FAULT_SEED'] ?? 1);

describe('fault campaign (bounded)', () => {
  it(`${RUNS} seeded runs of 4 clients under random faults: nothing lost, nothing doubled, caches equal the service`, async () => {
    const lines: string[] = [];
    const totals = await runCampaign({
      runs: RUNS,
      seed: SEED,
      clients: 4,
      ci: true,
      steps: 15,
      print: (line) => lines.push(line),
    });
    expect(totals.runs).toBe(RUNS);
    expect(totals.operations).toBeGreaterThan(0);
    expect(Object.values(totals.faults).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    expect({ anomalies: totals.anomalies, report: lines }).toEqual({ anomalies: {}, report: lines });
  });
});
