import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, existsSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadAverage } from './lib/machine';
import { round, spread } from './lib/stats';
import type { Figures, Scenario } from './lib/types';

/**
 * npx tsx bench/side-by-side.ts OTHER_TREE SCENARIO_FILE [--rounds N] [--quick]
 *   [--other-scenario PATH] [--other-lib PATH]: one scenario of bench/scenarios measured in
 * this checkout and in another one (an older commit unpacked with `git archive`, its
 * node_modules linked), alternately, each run in its own child process, so both see the same
 * load. Prints each run's figures with
 * the load average, then the median, min and max of every figure per tree. With
 * `--build-renderer`, a tree without a built renderer (`out/renderer`, which `git archive` leaves
 * out, and which the start-up scenario of older trees serves) builds it first. The other tree's own
 * scenario file is run, or with `--other-scenario` the file at PATH, copied into the other tree's
 * bench/scenarios for the run (its imports resolve there) and removed after: for a scenario the
 * other tree lacks, or whose copy there is broken (cache-reads before its search query took
 * `near`). With `--other-lib PATH`, the file at PATH stands in for the other tree's
 * `bench/lib/<its name>` during the run (its own is put back after): for a helper whose copy
 * there is broken (`app-page.ts` before the start-up clock took the inbox's rows on Action
 * required: an older tree's `startup` waited for task rows its own app no longer shows there).
 * Nothing else is written.
 */
const here = resolve(dirname(fileURLToPath(import.meta.url)), '..');

async function childMain(tree: string, file: string, quick: boolean): Promise<void> {
  const url = pathToFileURL(join(tree, 'bench', 'scenarios', file)).href;
  const { scenario } = (await import(url)) as { scenario: Scenario };
  const figures = await scenario.run({
    quick,
    log: (m) => process.stderr.write(`[${scenario.name}] ${m}\n`),
    table: () => undefined,
    chart: () => undefined,
    headline: () => undefined,
  });
  process.stdout.write(`${JSON.stringify(figures)}\n`);
  process.exit(0);
}

function runChild(tree: string, file: string, quick: boolean): Promise<Figures> {
  return new Promise((done, fail) => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        fileURLToPath(import.meta.url),
        '--child',
        tree,
        file,
        ...(quick ? ['--quick'] : []),
      ],
      // The scenario's imports resolve in its own tree (its node_modules, its tsconfig).
      { cwd: tree, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('exit', (code) => {
      const line = out.trim().split('\n').pop() ?? '';
      if (code !== 0 || !line.startsWith('{'))
        fail(new Error(`${tree} (bench/scenarios/${file}): exited with ${code}; its error is above`));
      else done(JSON.parse(line) as Figures);
    });
  });
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args[0] === '--child') return childMain(args[1]!, args[2]!, args.includes('--quick'));
  const [other, file] = args.filter(
    (a, i) =>
      !a.startsWith('--') &&
      !/^\d+$/.test(a) &&
      args[i - 1] !== '--other-scenario' &&
      args[i - 1] !== '--other-lib',
  );
  if (!other || !file)
    throw new Error(
      'usage: side-by-side.ts OTHER_TREE SCENARIO_FILE [--rounds N] [--quick] [--other-scenario PATH] [--other-lib PATH] [--build-renderer]',
    );
  const otherTree = resolve(other);
  const replacementAt = args.indexOf('--other-scenario');
  const replacement = replacementAt >= 0 ? args[replacementAt + 1] : undefined;
  if (replacementAt >= 0 && !replacement) throw new Error('--other-scenario needs a file');
  // The other tree runs its own file, or the replacement copied in beside its scenarios.
  const otherFile = replacement ? `side-by-side-${file}` : file;
  const libAt = args.indexOf('--other-lib');
  const lib = libAt >= 0 ? args[libAt + 1] : undefined;
  if (libAt >= 0 && !lib) throw new Error('--other-lib needs a file');
  const libTarget = lib ? join(otherTree, 'bench', 'lib', basename(lib)) : undefined;
  const libKept = libTarget ? `${libTarget}.side-by-side-kept` : undefined;
  if (replacement) copyFileSync(resolve(replacement), join(otherTree, 'bench', 'scenarios', otherFile));
  if (lib && libTarget && libKept) {
    if (!existsSync(libTarget))
      throw new Error(`${otherTree}: no bench/lib/${basename(lib)} to stand in for`);
    renameSync(libTarget, libKept);
    copyFileSync(resolve(lib), libTarget);
  }
  try {
    await compare(otherTree, file, otherFile, args);
  } finally {
    if (replacement) rmSync(join(otherTree, 'bench', 'scenarios', otherFile), { force: true });
    if (libTarget && libKept) renameSync(libKept, libTarget);
  }
}

/** Builds the renderer of `tree` into its out/renderer when it has none. */
function buildRendererIn(tree: string): void {
  if (existsSync(join(tree, 'out', 'renderer', 'index.html'))) return;
  process.stderr.write(`${tree}: building the renderer (node scripts/build.mjs --renderer-only)\n`);
  execFileSync(process.execPath, [join(tree, 'scripts', 'build.mjs'), '--renderer-only'], {
    cwd: tree,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

async function compare(otherTree: string, file: string, otherFile: string, args: string[]): Promise<void> {
  if (args.includes('--build-renderer')) for (const tree of [here, otherTree]) buildRendererIn(tree);
  for (const [tree, name] of [
    [here, file],
    [otherTree, otherFile],
  ] as const)
    if (!existsSync(join(tree, 'bench', 'scenarios', name)))
      throw new Error(
        `${tree}: no bench/scenarios/${name} (give one to run there with --other-scenario PATH)`,
      );
  const roundsAt = args.indexOf('--rounds');
  const rounds = roundsAt >= 0 ? Number(args[roundsAt + 1]) : 3;
  const quick = args.includes('--quick');
  const trees = { other: otherTree, this: here };
  const results: Record<string, Figures[]> = { other: [], this: [] };
  for (let i = 0; i < rounds; i++) {
    for (const [name, tree] of Object.entries(trees)) {
      const before = loadAverage()[0];
      const figures = await runChild(tree, tree === here ? file : otherFile, quick);
      results[name]!.push(figures);
      process.stdout.write(
        `round ${i + 1} ${name} (load average ${before} -> ${loadAverage()[0]}): ${JSON.stringify(figures)}\n`,
      );
    }
  }
  for (const [name, runs] of Object.entries(results)) {
    process.stdout.write(`\n${name} (${trees[name as keyof typeof trees]}), ${runs.length} runs:\n`);
    for (const key of Object.keys(runs[0] ?? {})) {
      const values = runs.map((r) => r[key]).filter((v): v is number => typeof v === 'number');
      if (!values.length) continue;
      const s = spread(values);
      process.stdout.write(`  ${key}: ${round(s.median, 3)} (${round(s.min, 3)}-${round(s.max, 3)})\n`);
    }
  }
}

void main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
