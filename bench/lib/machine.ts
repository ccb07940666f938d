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

/**
 * CPU time (user + system, ms) of this process's children that have exited and been waited
 * for, grandchildren included when their parent waited for them: read from /proc/self/stat
 * (cutime, cstime). Undefined where there is no /proc. The clock is 100 ticks a second
 * (USER_HZ, fixed on Linux).
 */
export function childrenCpuMs(stat?: string): number | undefined {
  let text = stat;
  if (text === undefined) {
    try {
      text = readFileSync('/proc/self/stat', 'utf8');
    } catch {
      return undefined;
    }
  }
  // The command name (field 2) may hold spaces; the fields after it start at field 3 (state).
  const rest = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const cutime = Number(rest[13]);
  const cstime = Number(rest[14]);
  if (!Number.isFinite(cutime) || !Number.isFinite(cstime)) return undefined;
  return (cutime + cstime) * 10;
}
