// The bounded fault campaign CI runs (vitest project `faults`): a few seeded runs of 4 clients
// with the short outages of the CI profile. A failure prints each run's summary line, the
// anomalies, the replay command and the log file of the run.
//
// KNOWN_BUGS are anomalies the campaign still finds in the engine, each an open bug reproduced by
// an `it.fails` test in regressions.test.ts or described in tests/faults/README.md ("What the
// campaign found"). They are reported but do not fail the run; FAULT_STRICT=1 makes them fail
// too. Remove an entry once its bug is fixed. Lost or doubled writes are never in this list.
import { describe, expect, it } from 'vitest';
import { runCampaign, runOptions } from './campaign';
import { missingConflicts, overwritesWithoutEntry, type AnomalyKind } from './checks';
import { runOnce } from './harness';
import { SERVICE_PROFILES } from '../support/service';

// Per service profile: the spec's answers, then GoodDay's live ones, each on its own seeds.
const RUNS = Number(process.env['FAULT_RUNS'] ?? 3);
const SEED = Number(process.env['FAULT_SEED'] ?? 1);
const KNOWN_BUGS: readonly { bug: string; kind: AnomalyKind; match?: RegExp }[] = process.env['FAULT_STRICT']
  ? []
  : [
      // Empty: every bug the campaign found is fixed (tags, comment drafts, fetches begun before
      // an ack, a dependency create overtaken by a delete, a doubled CRM create, an event delete
      // keeping its dependencies in the cache), so no anomaly of theirs is tolerated. A bug found
      // and not yet fixed is listed here with its kind, until its fix lands.
    ];

const known = (a: { kind: string; detail: string }) =>
  KNOWN_BUGS.some((b) => b.kind === a.kind && (!b.match || b.match.test(a.detail)));

describe.each(SERVICE_PROFILES.map((service, i) => ({ service, seed: SEED + i * RUNS })))(
  'fault campaign (bounded), $service service',
  ({ service, seed }) => {
    it(`${RUNS} seeded runs of 4 clients under random faults: nothing lost, nothing doubled`, async () => {
      const lines: string[] = [];
      const totals = await runCampaign({
        service,
        runs: RUNS,
        seed,
        clients: 4,
        ci: true,
        steps: 15,
        print: (line) => lines.push(line),
      });
      process.stdout.write(`${lines.join('\n')}\n`);
      expect(totals.runs).toBe(RUNS);
      expect(totals.operations).toBeGreaterThan(0);
      // Each run opens with a round of held concurrent renames: the journal check has pulls to judge.
      expect(totals.journalJudged).toBeGreaterThan(0);
      expect(Object.values(totals.faults).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
      const unexpected = totals.found.filter((a) => !known(a));
      expect({ anomalies: unexpected, report: lines }).toEqual({ anomalies: [], report: lines });
    });
  },
);

describe('fault campaign: the conflict journal check', () => {
  it('judges the pulls of held concurrent renames, passes the real journal, and fails one missing an entry', async () => {
    const result = await runOnce({ ...runOptions(SEED + 500, 4, true, 5), journalRounds: 2 });
    const judged = missingConflicts(result.input!);
    process.stdout.write(`journal run seed=${result.seed}: ${judged.judged} pulls judged\n`);
    const unexpected = result.anomalies.filter((a) => !known(a)).map((a) => `${a.kind}: ${a.detail}`);
    expect(unexpected).toEqual([]);
    // Holders (clients 0 and 2) pulled over pending renames of each shared task, every round.
    expect(judged.missing).toEqual([]);
    expect(judged.judged).toBeGreaterThan(0);
    // The same run with one holder's journal lacking its conflicts on one task fails the check.
    const input = result.input!;
    const judgedPull = input.pulls!.find((p) => p.ok && p.claimsBefore.length && p.client === 0)!;
    const taskId = judgedPull.claimsBefore[0]!.entityId;
    const ends = input.ends.map((e, k) =>
      k === 0 ? { ...e, conflicts: e.conflicts.filter((c) => c.entityId !== taskId) } : e,
    );
    const missing = missingConflicts({ ...input, ends }).missing;
    expect(missing.length).toBeGreaterThan(0);
    expect(missing.every((m) => m.startsWith('client 0 ') && m.includes(taskId))).toBe(true);

    // Sends: the holders came back and sent over the writers' names with no pull first; the
    // journal holds each, and the same journal lacking one task's entries fails that check too.
    const sends = overwritesWithoutEntry(input);
    process.stdout.write(`journal run seed=${result.seed}: ${sends.judged} sends judged\n`);
    expect(sends).toMatchObject({ missing: [] });
    expect(sends.judged).toBeGreaterThan(0);
    // (Per task and part, the holder whose rename lands first overwrote the writers' name; the
    // other holder's overwrote that one, after the partition healed: so both holders lose it.)
    const noneOnTask = input.ends.map((e) => ({
      ...e,
      conflicts: e.conflicts.filter((c) => c.entityId !== taskId),
    }));
    const silent = overwritesWithoutEntry({ ...input, ends: noneOnTask }).missing;
    expect(silent.length).toBeGreaterThan(0);
    expect(silent.every((m) => /^client [02] /.test(m) && m.includes(taskId))).toBe(true);
  });
});
