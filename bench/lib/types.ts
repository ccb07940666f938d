import type { Chart } from './chart';
import type { Spread } from './stats';

/** What a scenario reports: named figures (numbers or short text). */
export type Figures = Record<string, number | string>;

/**
 * One line of the summary table: a figure (median, min, max over its runs) beside its baseline
 * measured in the same run, and their ratio (figure ÷ baseline unless the row says otherwise).
 */
export interface Headline {
  figure: string;
  unit: string;
  value: Spread;
  /** Runs the spread is taken over. */
  runs: number;
  baseline?: { name: string; value: Spread };
  ratio?: Spread;
}

export interface BenchContext {
  /** `--quick`: scenarios shrink their runs (fewer requests, fewer repeats). */
  quick: boolean;
  log: (message: string) => void;
  /** Adds a Markdown table to the report under the scenario's heading. */
  table: (columns: string[], rows: (string | number)[][]) => void;
  /** Adds a line chart, written to bench/results/<file>.svg. */
  chart: (chart: Chart) => void;
  /** Adds a line to the summary table at the top of the report. */
  headline: (line: Headline) => void;
}

export interface Scenario {
  name: string;
  description?: string;
  /** Included in `--quick` runs. */
  quick?: boolean;
  run: (ctx: BenchContext) => Promise<Figures>;
}
