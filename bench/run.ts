import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Figures, Scenario } from './lib/types';

/**
 * npm run bench [-- --quick] [-- name ...]: runs every scenario module in bench/scenarios
 * (each exports `scenario: Scenario`), or those named, and writes bench/results/latest.json
 * and latest.md.
 */
const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const only = args.filter((a) => !a.startsWith('--'));

interface Report {
  name: string;
  description?: string;
  figures: Figures;
  tables: { columns: string[]; rows: (string | number)[][] }[];
  durationMs: number;
  error?: string;
}

async function main(): Promise<void> {
  const meta = {
    date: new Date().toISOString(),
    quick,
    node: process.version,
    cpus: `${cpus().length} x ${cpus()[0]?.model ?? 'unknown'}`,
    /** The 1-minute load average when the run started: on a shared machine it explains the spread. */
    loadAverage: Math.round((loadavg()[0] ?? 0) * 100) / 100,
  };
  const dir = join(here, 'scenarios');
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .sort();
  const reports: Report[] = [];
  for (const file of files) {
    const mod = (await import(pathToFileURL(join(dir, file)).href)) as { scenario?: Scenario };
    const scenario = mod.scenario;
    if (!scenario) throw new Error(`${file} does not export a scenario`);
    if (only.length > 0 && !only.includes(scenario.name)) continue;
    if (quick && !scenario.quick) continue;
    const tables: Report['tables'] = [];
    const log = (message: string) => process.stdout.write(`[${scenario.name}] ${message}\n`);
    log('running');
    const start = performance.now();
    const report: Report = { name: scenario.name, figures: {}, tables, durationMs: 0 };
    if (scenario.description) report.description = scenario.description;
    try {
      report.figures = await scenario.run({
        quick,
        log,
        table: (columns, rows) => tables.push({ columns, rows }),
      });
    } catch (err) {
      report.error = err instanceof Error ? (err.stack ?? err.message) : String(err);
      log(`FAILED: ${report.error}`);
    }
    report.durationMs = Math.round(performance.now() - start);
    reports.push(report);
  }
  const results = join(here, 'results');
  mkdirSync(results, { recursive: true });
  writeFileSync(
    join(results, 'latest.json'),
    `${JSON.stringify({ ...meta, scenarios: reports }, null, 2)}\n`,
  );
  writeFileSync(join(results, 'latest.md'), markdown(meta, reports));
  process.stdout.write(markdown(meta, reports));
  if (reports.some((r) => r.error)) process.exitCode = 1;
}

function markdown(meta: Record<string, unknown>, reports: Report[]): string {
  const lines = [
    `# Benchmarks`,
    '',
    `${meta['date']} · Node ${meta['node']} · ${meta['cpus']} · load average ${meta['loadAverage']}${meta['quick'] ? ' · quick' : ''}`,
    '',
  ];
  const row = (cells: readonly (string | number)[]) => `| ${cells.join(' | ')} |`;
  for (const r of reports) {
    lines.push(`## ${r.name}`, '');
    if (r.description) lines.push(r.description, '');
    if (r.error) lines.push('```', r.error, '```', '');
    for (const t of r.tables) {
      lines.push(row(t.columns), row(t.columns.map(() => '---')), ...t.rows.map(row), '');
    }
    const figures = Object.entries(r.figures);
    if (figures.length > 0 && r.tables.length === 0) {
      lines.push(row(['figure', 'value']), row(['---', '---']), ...figures.map(([k, v]) => row([k, v])), '');
    }
    lines.push(`(${(r.durationMs / 1000).toFixed(1)} s)`, '');
  }
  return `${lines.join('\n')}\n`;
}

void main();
