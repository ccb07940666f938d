import type { Machine } from './machine';
import { formatNumber } from './chart';
import type { Spread } from './stats';
import type { Figures, Headline } from './types';

export interface Report {
  name: string;
  description?: string;
  /** Child-process runs that completed. */
  runs: number;
  /** Medians over the runs (numbers) and short text. */
  figures: Figures;
  /** Median, min and max of each numeric figure when the scenario ran more than once. */
  spreads?: Record<string, Spread>;
  tables: { columns: string[]; rows: (string | number)[][] }[];
  headlines: Headline[];
  charts: { file: string; title: string }[];
  loadAverage: { before: number[]; after: number[] };
  durationMs: number;
  /** CPU time (user + system) of the scenario's processes that exited within it. */
  cpuMs?: number;
  error?: string;
}

export interface RunMeta {
  date: string;
  quick: boolean;
  machine: Machine;
  loadAverageEnd?: number[];
  /** The 1-minute load average sampled through the run (every 10 s). */
  loadDuring?: { mean: number; max: number; samples: number };
  totalMs?: number;
}

/** "12.3 (10.1–15)" or just "12.3" when min and max equal the median. */
export function formatSpread(s: Spread): string {
  const m = formatNumber(s.median);
  if (!Number.isFinite(s.min) || (s.min === s.median && s.max === s.median)) return m;
  return `${m} (${formatNumber(s.min)}–${formatNumber(s.max)})`;
}

const row = (cells: readonly (string | number)[]): string => `| ${cells.join(' | ')} |`;

export function machineLine(meta: RunMeta): string {
  const m = meta.machine;
  return [
    `${m.nproc} cores (nproc), ${m.cpuModel}`,
    `${m.memoryGiB} GiB`,
    `Node ${m.node}`,
    m.platform,
    `load average ${m.loadAverage.join(' / ')} at the start${meta.loadAverageEnd ? `, ${meta.loadAverageEnd.join(' / ')} at the end` : ''} (1 / 5 / 15 min)`,
    ...(meta.loadDuring
      ? [
          `1-minute load average during the run ${meta.loadDuring.mean} on average, ${meta.loadDuring.max} at most (${meta.loadDuring.samples} samples)`,
        ]
      : []),
  ].join(' · ');
}

/** The summary: every headline figure beside its baseline and the ratio. */
export function summaryTable(reports: Report[]): string[] {
  const lines = [
    row([
      'scenario',
      'figure',
      'median (min–max)',
      'baseline (same run)',
      'ratio (min–max)',
      'runs',
      'load avg',
    ]),
    row(['---', '---', '---', '---', '---', '---', '---']),
  ];
  for (const r of reports) {
    if (r.error) {
      lines.push(row([r.name, `**failed**: ${r.error.split('\n')[0]}`, '', '', '', '', '']));
      continue;
    }
    for (const h of r.headlines) {
      lines.push(
        row([
          r.name,
          h.figure,
          `${formatSpread(h.value)} ${h.unit}`,
          h.baseline ? `${h.baseline.name}: ${formatSpread(h.baseline.value)} ${h.unit}` : '',
          h.ratio ? formatSpread(h.ratio) : '',
          h.runs,
          r.loadAverage.before[0] ?? '',
        ]),
      );
    }
  }
  return lines;
}

/**
 * Each scenario's wall time (all its runs, set-up included) and the load it ran under, so the
 * run's time bound can be checked per scenario.
 */
export function wallTimeTable(meta: RunMeta, reports: Report[]): string[] {
  const loaded = reports.some((r) => (r.loadAverage.before[0] ?? 0) > meta.machine.nproc);
  const withCpu = reports.some((r) => r.cpuMs !== undefined);
  const seconds = (ms: number | undefined) => (ms === undefined ? '' : `${(ms / 1000).toFixed(1)} s`);
  const cpuTotal = reports.reduce((sum, r) => sum + (r.cpuMs ?? 0), 0);
  return [
    row([
      'scenario',
      'runs',
      'wall time',
      ...(withCpu ? ['CPU time (its processes)'] : []),
      'load avg (1 min) before → after',
    ]),
    row(['---', '---', '---', ...(withCpu ? ['---'] : []), '---']),
    ...reports.map((r) =>
      row([
        r.name,
        r.runs,
        seconds(r.durationMs),
        ...(withCpu ? [seconds(r.cpuMs)] : []),
        `${r.loadAverage.before[0] ?? ''} → ${r.loadAverage.after[0] ?? ''}`,
      ]),
    ),
    ...(meta.totalMs
      ? [row(['**all**', '', seconds(meta.totalMs), ...(withCpu ? [seconds(cpuTotal)] : []), ''])]
      : []),
    '',
    ...(withCpu
      ? [
          `CPU time is what the scenario's processes (services, cores, Chromium) used on the ${meta.machine.nproc} cores; wall time above it is waiting (round trips, timers) or, on a loaded machine, other people's work.`,
          '',
        ]
      : []),
    ...(loaded
      ? [
          `Wall times taken with the load average above ${meta.machine.nproc} (the machine's cores) are upper bounds: other processes had part of the CPU.`,
          '',
        ]
      : []),
  ];
}

export function markdown(meta: RunMeta, reports: Report[]): string {
  const lines = [
    `# Benchmarks`,
    '',
    `${meta.date}${meta.quick ? ' · **quick**' : ''}${meta.totalMs ? ` · ${Math.round(meta.totalMs / 1000)} s in all` : ''}`,
    '',
    machineLine(meta),
    '',
    ...loadedNote(meta),
    '## Summary',
    '',
    ...summaryTable(reports),
    '',
    '## Wall time',
    '',
    ...wallTimeTable(meta, reports),
  ];
  for (const r of reports) {
    lines.push(`## ${r.name}`, '');
    if (r.description) lines.push(r.description, '');
    if (r.error) lines.push('```', r.error, '```', '');
    for (const t of r.tables) {
      lines.push(row(t.columns), row(t.columns.map(() => '---')), ...t.rows.map(row), '');
    }
    for (const c of r.charts) lines.push(`![${c.title}](${c.file})`, '');
    const figures = Object.entries(r.figures);
    if (figures.length > 0) {
      lines.push(
        row(['figure', r.spreads ? `median (min–max) of ${r.runs} runs` : 'value']),
        row(['---', '---']),
        ...figures.map(([k, v]) => row([k, r.spreads?.[k] ? formatSpread(r.spreads[k]) : v])),
        '',
      );
    }
    lines.push(
      `(${(r.durationMs / 1000).toFixed(1)} s, load average ${r.loadAverage.before[0]} → ${r.loadAverage.after[0]})`,
      '',
    );
  }
  return `${lines.join('\n')}\n`;
}

/** Said plainly when the machine was busier than its cores: the figures are then pessimistic and spread. */
function loadedNote(meta: RunMeta): string[] {
  const load = Math.max(
    meta.machine.loadAverage[0] ?? 0,
    meta.loadAverageEnd?.[0] ?? 0,
    meta.loadDuring?.mean ?? 0,
  );
  if (load <= meta.machine.nproc) return [];
  return [
    `**These figures were taken on a loaded, shared machine** (load average about ${Math.round(load)} on ${meta.machine.nproc} cores, other people's builds and tests running): absolute times are several times slower and more spread than on an idle machine; the ratios, taken within one run, are steadier. The load average at the start of each scenario is in the last column.`,
    '',
  ];
}

const START = '<!-- bench:start -->';
const END = '<!-- bench:end -->';

/** Replaces what lies between the bench markers in README.md (the Performance section's body). */
export function updateReadme(
  readme: string,
  meta: RunMeta,
  reports: Report[],
  /** Scenarios in bench/scenarios with no result in `reports`. */
  missing: string[] = [],
): string {
  const charts = reports.flatMap((r) => r.charts);
  const body = [
    START,
    '',
    `Measured ${meta.date.slice(0, 16).replace('T', ' ')} UTC${meta.quick ? ' (quick run)' : ''}${meta.totalMs ? `, the whole run taking ${Math.round(meta.totalMs / 60_000)} min` : ''}, on: ${machineLine(meta)}.`,
    '',
    ...loadedNote(meta),
    ...summaryTable(reports),
    '',
    'Wall time of each scenario in this run:',
    '',
    ...wallTimeTable(meta, reports),
    ...(missing.length > 0 ? [`Not measured in this run: ${missing.join(', ')}.`, ''] : []),
    ...charts.map((c) => `![${c.title}](bench/results/${c.file})`),
    '',
    END,
  ].join('\n');
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start < 0 || end < start) throw new Error(`README.md has no ${START} … ${END} section to update`);
  return readme.slice(0, start) + body + readme.slice(end + END.length);
}
