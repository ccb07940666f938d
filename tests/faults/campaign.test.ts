// The bounded fault campaign CI runs (vitest project `faults`): a few seeded runs of 4 clients
// with the short outages of the CI profile. A failure prints each run's summary line, the
// anomalies, the replay command and the log file of the run.
//
// KNOWN_BUGS are anomaly kinds the campaign still finds in the engine, each reproduced by an
// `it.fails` test in regressions.test.ts or described in tests/faults/README.md. They are
// reported but do not fail the run; FAULT_STRICT=1 makes them fail too. Remove a kind here once
// its bug is fixed. Lost or doubled writes are never in this list.
import { describe, expect, it } from 'vitest';
import { runCampaign } from './campaign';
import type { AnomalyKind } from './checks';

const RUNS = Number(process.env['FAULT_RUNS'] ?? 6);
const SEED = Number(process.env['FAULT_SEED'] ?? 1);
const KNOWN_BUGS: readonly AnomalyKind[] = process.env['FAULT_STRICT']
  ? []
  : ['read-your-writes', 'divergence'];

describe('fault campaign (bounded)', () => {
  it(`${RUNS} seeded runs of 4 clients under random faults: nothing lost, nothing doubled`, async () => {
    const lines: string[] = [];
    const totals = await runCampaign({
      runs: RUNS,
      seed: SEED,
      clients: 4,
      ci: true,
      steps: 15,
      print: (line) => lines.push(line),
    });
    process.stdout.write(`${lines.join('\n')}\n`);
    expect(totals.runs).toBe(RUNS);
    expect(totals.operations).toBeGreaterThan(0);
    expect(Object.values(totals.faults).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    const unexpected = Object.fromEntries(
      Object.entries(totals.anomalies).filter(([kind]) => !KNOWN_BUGS.includes(kind as AnomalyKind)),
    );
    expect({ anomalies: unexpected, report: lines }).toEqual({ anomalies: {}, report: lines });
  });
});
