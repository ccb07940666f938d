// The bounded fault campaign CI runs (vitest project `faults`): a few seeded runs of 4 clients
// with the short outages of the CI profile. A failure prints each run's summary line, the
// anomalies, the replay command and the log file of the run.
//
// KNOWN_BUGS are anomalies the campaign still finds in the engine, each an open bug reproduced by
// an `it.fails` test in regressions.test.ts or described in tests/faults/README.md ("What the
// campaign found"). They are reported but do not fail the run; FAULT_STRICT=1 makes them fail
// too. Remove an entry once its bug is fixed. Lost or doubled writes are never in this list.
import { describe, expect, it } from 'vitest';
import { runCampaign } from './campaign';
import type { AnomalyKind } from './checks';

const RUNS = Number(process.env['FAULT_RUNS'] ?? 6);
const SEED = Number(process.env['FAULT_SEED'] ?? 1);
const KNOWN_BUGS: readonly { bug: string; kind: AnomalyKind; match?: RegExp }[] = process.env['FAULT_STRICT']
  ? []
  : [
      // README 2-4 (tags, comment drafts, fetches begun before an ack) were fixed on s2-outbox:
      // their read-your-writes and divergence kinds are no longer tolerated; README 6 and 7
      // (dependency create overtaken by a delete, doubled CRM create) on s2-outbox2.
    ];

const known = (a: { kind: string; detail: string }) =>
  KNOWN_BUGS.some((b) => b.kind === a.kind && (!b.match || b.match.test(a.detail)));

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
    const unexpected = totals.found.filter((a) => !known(a));
    expect({ anomalies: unexpected, report: lines }).toEqual({ anomalies: [], report: lines });
  });
});
