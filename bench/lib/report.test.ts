import { describe, expect, it } from 'vitest';
import { deriveHeadlines } from './headlines';
import { formatSpread, markdown, updateReadme, type Report, type RunMeta } from './report';

const meta: RunMeta = {
  date: '2026-11-22T00:30:00.000Z',
  quick: false,
  machine: {
    nproc: 2,
    cpuModel: 'Test CPU',
    memoryGiB: 8,
    node: 'v20.0.0',
    platform: 'linux x64',
    loadAverage: [18, 17, 16],
  },
  loadAverageEnd: [19, 18, 17],
};

const report: Report = {
  name: 'sync',
  runs: 1,
  figures: { initialSeconds: 90 },
  tables: [],
  headlines: [
    {
      figure: 'initial sync',
      unit: 's',
      value: { median: 90, min: 80, max: 95 },
      runs: 3,
      baseline: { name: 'RTT lower bound', value: { median: 60, min: 60, max: 60 } },
      ratio: { median: 1.5, min: 1.33, max: 1.58 },
    },
  ],
  charts: [{ file: 'scaling-sync-time.svg', title: 'Sync time' }],
  loadAverage: { before: [18, 17, 16], after: [19, 18, 17] },
  durationMs: 1000,
};

describe('formatSpread', () => {
  it('shows min–max only when they differ from the median', () => {
    expect(formatSpread({ median: 5, min: 4, max: 7 })).toBe('5 (4–7)');
    expect(formatSpread({ median: 5, min: 5, max: 5 })).toBe('5');
  });
});

describe('markdown', () => {
  it('puts the machine, the loaded-machine note and the summary with baseline and ratio first', () => {
    const md = markdown(meta, [report]);
    expect(md).toContain('2 cores (nproc), Test CPU · 8 GiB · Node v20.0.0');
    expect(md).toContain('load average 18 / 17 / 16 at the start, 19 / 18 / 17 at the end');
    expect(md).toContain('loaded, shared machine');
    expect(md).toContain(
      '| sync | initial sync | 90 (80–95) s | RTT lower bound: 60 s | 1.5 (1.33–1.58) | 3 | 18 |',
    );
  });

  it("adds each scenario's CPU time and their sum when measured", () => {
    const md = markdown({ ...meta, totalMs: 61_000 }, [{ ...report, durationMs: 12_345, cpuMs: 4_000 }]);
    expect(md).toContain('| sync | 1 | 12.3 s | 4.0 s | 18 → 19 |');
    expect(md).toContain('| **all** |  | 61.0 s | 4.0 s |  |');
  });

  it('states the load sampled during the run', () => {
    const md = markdown({ ...meta, loadDuring: { mean: 9.5, max: 14, samples: 80 } }, [report]);
    expect(md).toContain('1-minute load average during the run 9.5 on average, 14 at most (80 samples)');
  });

  it('reports a failed scenario in the summary', () => {
    const md = markdown(meta, [{ ...report, error: 'Error: boom\n    at x' }]);
    expect(md).toContain('| sync | **failed**: Error: boom |');
  });

  it("lists each scenario's wall time, the total, and says loaded wall times are upper bounds", () => {
    const md = markdown({ ...meta, totalMs: 61_000 }, [{ ...report, durationMs: 12_345 }]);
    expect(md).toContain('| sync | 1 | 12.3 s | 18 → 19 |');
    expect(md).toContain('| **all** |  | 61.0 s |  |');
    expect(md).toContain('are upper bounds');
  });

  it('leaves the note out on an idle machine', () => {
    const idle = {
      ...meta,
      machine: { ...meta.machine, loadAverage: [0.5, 0.4, 0.3] },
      loadAverageEnd: [1, 1, 1],
    };
    const md = markdown(idle, [{ ...report, loadAverage: { before: [0.5, 0, 0], after: [1, 0, 0] } }]);
    expect(md).not.toContain('loaded, shared machine');
    expect(md).not.toContain('upper bounds');
  });
});

describe('updateReadme', () => {
  const readme =
    '# App\n\n## Performance\n\nIntro.\n\n<!-- bench:start -->\nold\n<!-- bench:end -->\n\n## Next\n';

  it('replaces only what lies between the markers', () => {
    const out = updateReadme(readme, meta, [report]);
    expect(out.startsWith('# App\n\n## Performance\n\nIntro.\n\n<!-- bench:start -->')).toBe(true);
    expect(out.endsWith('<!-- bench:end -->\n\n## Next\n')).toBe(true);
    expect(out).not.toContain('\nold\n');
    expect(out).toContain('![Sync time](bench/results/scaling-sync-time.svg)');
    expect(out).toContain('Measured 2026-11-22 00:30 UTC, on: 2 cores (nproc)');
    expect(out).not.toContain('Not measured');
  });

  it('says how long the run took and which scenarios it did not measure', () => {
    const out = updateReadme(readme, { ...meta, totalMs: 14 * 60_000 }, [report], ['server', 'uploads']);
    expect(out).toContain('UTC, the whole run taking 14 min, on:');
    expect(out).toContain('Not measured in this run: server, uploads.');
    expect(out).toContain('| sync | 1 | 1.0 s | 18 → 19 |');
  });

  it('refuses a README without the markers, naming them', () => {
    expect(() => updateReadme('# App\n', meta, [report])).toThrow('<!-- bench:start -->');
  });
});

describe('deriveHeadlines', () => {
  it('reads the server table cells as median (min–max) beside the bare baseline', () => {
    const lines = deriveHeadlines(
      'server',
      {},
      {
        figures: {},
        tables: [
          { rows: [['GET /task/{id}', '809 (294–1564)', 50, '897 (442–2577)', 47, '1.5 (0.61–2.4)']] },
        ],
      },
      1,
    );
    expect(lines).toEqual([
      {
        figure: 'GET /task/{id} throughput (ratio = bare ÷ service)',
        unit: 'req/s',
        value: { median: 809, min: 294, max: 1564 },
        runs: 7,
        baseline: { name: 'bare node:http', value: { median: 897, min: 442, max: 2577 } },
        ratio: { median: 1.5, min: 0.61, max: 2.4 },
      },
    ]);
  });

  it('pairs the cache read with raw SQLite over the runner repeats', () => {
    const s = (median: number) => ({ median, min: median - 1, max: median + 1 });
    const [line] = deriveHeadlines(
      'cache-reads',
      { wholeListP50Ms: s(20), wholeListRawP50Ms: s(10), wholeListRatio: s(2) },
      { figures: {}, tables: [] },
      3,
    );
    expect(line).toEqual({
      figure: 'project list, 10,000 rows, p50',
      unit: 'ms',
      value: s(20),
      runs: 3,
      baseline: { name: 'raw SQLite', value: s(10) },
      ratio: s(2),
    });
  });

  it('puts the first window of a project list beside raw SQLite, with the p95 ratio', () => {
    const s = (median: number) => ({ median, min: median, max: median });
    const lines = deriveHeadlines(
      'cache-reads',
      { firstWindowP95Ms: s(3), firstWindowRawP95Ms: s(2), firstWindowP95Ratio: s(1.5) },
      { figures: {}, tables: [] },
      3,
    );
    expect(lines).toEqual([
      {
        figure: 'project list, first window of 200 (of 10,000, 20,000-task cache), p95 — aim < 5 ms',
        unit: 'ms',
        value: s(3),
        runs: 3,
        baseline: { name: 'raw SQLite', value: s(2) },
        ratio: s(1.5),
      },
    ]);
  });

  it('has nothing to say about an unknown scenario', () => {
    expect(deriveHeadlines('no-such-scenario', {}, { figures: {}, tables: [] }, 1)).toEqual([]);
  });
});
