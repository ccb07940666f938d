import type { Spread } from './stats';
import type { Figures, Headline } from './types';

/**
 * Summary lines for the scenarios that report figures but no headlines of their own (server,
 * sync, cache-reads, outbox-drain, uploads, renderer): each named figure beside its baseline. `spreads`
 * are over the runner's repeats; a figure a scenario already reduced (a median of its own
 * rounds) shows its min–max when its table gives one.
 */
export function deriveHeadlines(
  name: string,
  spreads: Record<string, Spread>,
  last: { figures: Figures; tables: { rows: (string | number)[][] }[] },
  runs: number,
): Headline[] {
  const s = (key: string): Spread | undefined => spreads[key];
  const line = (
    figure: string,
    unit: string,
    key: string,
    baseline?: { name: string; key: string },
    ratioKey?: string,
    withRuns = runs,
  ): Headline[] => {
    const value = s(key);
    if (!value) return [];
    const base = baseline ? s(baseline.key) : undefined;
    const ratio = ratioKey ? s(ratioKey) : undefined;
    return [
      {
        figure,
        unit,
        value,
        runs: withRuns,
        ...(baseline && base ? { baseline: { name: baseline.name, value: base } } : {}),
        ...(ratio ? { ratio } : {}),
      },
    ];
  };
  switch (name) {
    case 'server': {
      // The scenario takes 7 paired rounds and prints "median (min–max)" cells in its table.
      const cell = (text: unknown): Spread | undefined => {
        const m = /^([\d.]+) \(([\d.]+)–([\d.]+)\)$/.exec(String(text));
        return m ? { median: Number(m[1]), min: Number(m[2]), max: Number(m[3]) } : undefined;
      };
      const rows = last.tables[0]?.rows ?? [];
      return rows.flatMap((r): Headline[] => {
        const service = cell(r[1]);
        const bare = cell(r[3]);
        const ratio = cell(r[5]);
        if (!service || !bare || !ratio) return [];
        return [
          {
            figure: `${String(r[0])} throughput (ratio = bare ÷ service)`,
            unit: 'req/s',
            value: service,
            runs: 7,
            baseline: { name: 'bare node:http', value: bare },
            ratio,
          },
        ];
      });
    }
    case 'sync':
      return [
        ...line(
          `initial sync, ${String(last.figures['tasks'] ?? '')} tasks, 50 ms RTT`,
          's',
          'initialSeconds',
          { name: 'RTT lower bound', key: 'boundSeconds' },
          'timeRatio',
        ),
        ...line(
          'initial sync requests',
          'requests',
          'initialRequests',
          {
            name: 'least any client needs',
            key: 'boundRequests',
          },
          'requestRatio',
        ),
        ...line('core peak RSS during sync', 'MiB', 'peakRssMb'),
      ];
    case 'cache-reads':
      return [
        ...line(
          'project list, 10,000 rows, p50',
          'ms',
          'wholeListP50Ms',
          { name: 'raw SQLite', key: 'wholeListRawP50Ms' },
          'wholeListRatio',
        ),
        ...line(
          'project list, first window of 200 (of 10,000, 20,000-task cache), p95 — aim < 5 ms',
          'ms',
          'firstWindowP95Ms',
          { name: 'raw SQLite', key: 'firstWindowRawP95Ms' },
          'firstWindowP95Ratio',
        ),
        ...line('My Work, p95', 'ms', 'myWorkP95Ms'),
        ...line('search, p95', 'ms', 'searchP95Ms'),
      ];
    case 'outbox-drain':
      return [
        ...line(
          'drain of 1,000 queued edits, 50 ms RTT',
          'ms',
          'drainMs',
          { name: 'RTT lower bound', key: 'lowerBoundMs' },
          'drainRatio',
        ),
        ...line('local write, p95', 'ms', 'localWriteP95Ms'),
      ];
    case 'uploads':
      return line(
        '20 files of 5 MiB attached to a task, 50 ms RTT',
        'ms',
        'appMs',
        { name: 'raw upload-URL request + PUTs', key: 'rawMs' },
        'ratio',
        // The scenario's own repeats; it reports their median.
        Number(last.figures['runs'] ?? runs),
      );
    default:
      return [];
  }
}
