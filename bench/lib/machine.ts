import { readFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';

/** The machine the figures were taken on: on a shared machine the load average explains the spread. */
export interface Machine {
  /** What `nproc` prints: the cores this process may use. */
  nproc: number;
  cpuModel: string;
  memoryGiB: number;
  node: string;
  platform: string;
  /** 1, 5 and 15-minute load averages when the run started. */
  loadAverage: number[];
}

export function loadAverage(): number[] {
  return loadavg().map((v) => Math.round(v * 100) / 100);
}

/** The CPU model as /proc/cpuinfo names it (os.cpus() where there is no /proc). */
export function cpuModel(): string {
  try {
    const line = readFileSync('/proc/cpuinfo', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('model name'));
    const model = line?.split(':').slice(1).join(':').trim();
    if (model) return model;
  } catch {
    // not Linux
  }
  return cpus()[0]?.model ?? 'unknown';
}

export function machine(): Machine {
  return {
    nproc: availableParallelism(),
    cpuModel: cpuModel(),
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    loadAverage: loadAverage(),
  };
}
