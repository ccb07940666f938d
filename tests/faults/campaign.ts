// The campaign entry: `npm run test:faults -- --runs N --seed S --clients K [--ci] [--fuzz-minutes N]`.
// Runs seeded runs one after another, prints one summary line per run and a total, and on an
// anomaly the seed, the command to replay it and the run's log (written next to the summary).
// Exit code 1 when any run had an anomaly.
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FAULT_KINDS, runOnce, type FaultKind, type RunOptions, type RunResult } from './harness';
import { fuzzService } from './service-fuzz';
import { SERVICE_PROFILES, type ServiceProfileName } from '../../src/server/profiles';

export interface CampaignOptions {
  runs: number;
  seed: number;
  clients: number;
  /** Bounded profile for CI: short outages, fewer steps. */
  ci: boolean;
  steps?: number;
  /** Rounds of held concurrent renames per run, for the journal check (default 1). */
  journalRounds?: number;
  /** How the service answers (`--service goodday`: as GoodDay's live service does); default `spec`. */
  service?: ServiceProfileName;
  print?: (line: string) => void;
  /** Folder for the logs of runs with anomalies. */
  logDir?: string;
  /** Receives the totals after every run (so a stopped campaign can still report them). */
  onProgress?: (totals: CampaignTotals) => void;
}

export interface CampaignTotals {
  runs: number;
  operations: number;
  faults: Record<FaultKind, number>;
  /** Pulls the conflict-journal check could judge. */
  journalJudged: number;
  /** Sends over another client's rename judged by the journal check (`overwritesWithoutEntry`). */
  sendsJudged: number;
  anomalies: Record<string, number>;
  /** Every anomaly with its seed. */
  found: { seed: number; kind: string; detail: string }[];
  failedSeeds: number[];
  ms: number;
}

export function runOptions(
  seed: number,
  clients: number,
  ci: boolean,
  steps?: number,
  journalRounds = 1,
): RunOptions {
  const profile = ci
    ? {
        seed,
        clients,
        steps: steps ?? 20,
        maxOutageMs: 1_000,
        faultGapMs: 300,
        thinkMs: 40,
        requestTimeoutMs: 2_000,
        drainTimeoutMs: 60_000,
      }
    : {
        seed,
        clients,
        steps: steps ?? 40,
        maxOutageMs: 10_000,
        faultGapMs: 700,
        thinkMs: 80,
        requestTimeoutMs: 2_000,
        drainTimeoutMs: 90_000,
      };
  return { ...profile, journalRounds };
}

export function summaryLine(r: RunResult): string {
  const faults = Object.values(r.faults).reduce((a, b) => a + b, 0);
  const kinds = countBy(r.anomalies.map((a) => a.kind));
  const anomalies = Object.keys(kinds).length
    ? Object.entries(kinds)
        .map(([k, n]) => `${k}=${n}`)
        .join(',')
    : '0';
  const phases = Object.entries(r.phases)
    .map(([k, ms]) => `${k}=${(ms / 1000).toFixed(1)}`)
    .join(' ');
  return `run seed=${r.seed} ops=${r.operations} faults=${faults} journal-judged=${r.journalJudged} sends-judged=${r.sendsJudged} anomalies=${anomalies} ${(r.ms / 1000).toFixed(1)}s (${phases})`;
}

function countBy(list: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const k of list) out[k] = (out[k] ?? 0) + 1;
  return out;
}

export async function runCampaign(options: CampaignOptions): Promise<CampaignTotals> {
  const print = options.print ?? ((line: string) => process.stdout.write(`${line}\n`));
  const logDir = options.logDir ?? join(tmpdir(), 'workdesk-faults');
  const started = Date.now();
  const totals: CampaignTotals = {
    runs: 0,
    operations: 0,
    journalJudged: 0,
    sendsJudged: 0,
    faults: Object.fromEntries(FAULT_KINDS.map((k) => [k, 0])) as Record<FaultKind, number>,
    anomalies: {},
    found: [],
    failedSeeds: [],
    ms: 0,
  };
  for (let i = 0; i < options.runs; i++) {
    const seed = options.seed + i;
    const result = await runOnce({
      ...runOptions(seed, options.clients, options.ci, options.steps, options.journalRounds),
      ...(options.service ? { service: options.service } : {}),
    });
    totals.runs++;
    totals.operations += result.operations;
    totals.journalJudged += result.journalJudged;
    totals.sendsJudged += result.sendsJudged;
    for (const k of FAULT_KINDS) totals.faults[k] += result.faults[k];
    for (const a of result.anomalies) {
      totals.anomalies[a.kind] = (totals.anomalies[a.kind] ?? 0) + 1;
      totals.found.push({ seed, ...a });
    }
    print(summaryLine(result));
    if (result.anomalies.length) {
      totals.failedSeeds.push(seed);
      mkdirSync(logDir, { recursive: true });
      const file = join(logDir, `seed-${seed}.log`);
      writeFileSync(
        file,
        [...result.anomalies.map((a) => `ANOMALY ${a.kind}: ${a.detail}`), '', ...result.log].join('\n'),
      );
      for (const a of result.anomalies.slice(0, 10)) print(`  ANOMALY ${a.kind}: ${a.detail}`);
      print(
        `  replay: npm run test:faults -- --runs 1 --seed ${seed} --clients ${options.clients}${options.ci ? ' --ci' : ''}`,
      );
      print(`  log: ${file}`);
    }
    totals.ms = Date.now() - started;
    options.onProgress?.(totals);
  }
  totals.ms = Date.now() - started;
  print(totalLine(totals));
  return totals;
}

export function totalLine(t: CampaignTotals): string {
  const faults = Object.values(t.faults).reduce((a, b) => a + b, 0);
  const byKind = Object.entries(t.faults)
    .map(([k, n]) => `${k}=${n}`)
    .join(' ');
  const anomalies = Object.entries(t.anomalies)
    .map(([k, n]) => `${k}=${n}`)
    .join(' ');
  return (
    `TOTAL runs=${t.runs} operations=${t.operations} faults=${faults} (${byKind}) journal-judged=${t.journalJudged} sends-judged=${t.sendsJudged} ` +
    `anomalies=${anomalies || '0'}${t.failedSeeds.length ? ` seeds=${t.failedSeeds.join(',')}` : ''} ` +
    `time=${(t.ms / 1000).toFixed(0)}s`
  );
}

function parseArgs(argv: readonly string[]): CampaignOptions & { fuzzMinutes: number } {
  const value = (name: string): string | undefined => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const int = (name: string, fallback: number): number => {
    const raw = value(name);
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a whole number, got ${raw}`);
    return n;
  };
  const steps = value('steps');
  const journal = value('journal-rounds');
  const service = value('service');
  if (service !== undefined && !(SERVICE_PROFILES as readonly string[]).includes(service))
    throw new Error(`--service must be one of ${SERVICE_PROFILES.join(', ')}, got ${service}`);
  return {
    runs: int('runs', 20),
    seed: int('seed', 1),
    clients: Math.max(1, int('clients', 4)),
    ci: argv.includes('--ci'),
    ...(steps !== undefined ? { steps: int('steps', 0) } : {}),
    ...(journal !== undefined ? { journalRounds: int('journal-rounds', 1) } : {}),
    fuzzMinutes: int('fuzz-minutes', 0),
    ...(service !== undefined ? { service: service as ServiceProfileName } : {}),
  };
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  let bad = false;
  if (args.fuzzMinutes > 0) {
    const fuzz = await fuzzService({ minutes: args.fuzzMinutes, seed: args.seed });
    process.stdout.write(`${fuzz.summary}\n`);
    for (const p of fuzz.problems.slice(0, 20)) process.stdout.write(`  PROBLEM ${p}\n`);
    bad ||= fuzz.problems.length > 0;
  }
  if (args.runs > 0 && !(args.fuzzMinutes > 0 && !process.argv.includes('--runs'))) {
    // Stopped early (SIGTERM, Ctrl-C): print the totals of the runs that finished.
    let latest: CampaignTotals | undefined;
    for (const signal of ['SIGTERM', 'SIGINT'] as const)
      process.once(signal, () => {
        if (latest) process.stdout.write(`STOPPED ${totalLine(latest)}\n`);
        process.exit(latest?.failedSeeds.length ? 1 : 130);
      });
    const totals = await runCampaign({ ...args, onProgress: (t) => (latest = t) });
    bad ||= totals.failedSeeds.length > 0;
  }
  process.exit(bad ? 1 : 0);
}

if (process.argv[1]?.endsWith('campaign.ts')) {
  main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(2);
  });
}
