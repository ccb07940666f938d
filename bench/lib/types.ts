/** What a scenario reports: named figures (numbers or short text). */
export type Figures = Record<string, number | string>;

export interface BenchContext {
  /** `--quick`: scenarios shrink their runs (fewer requests, fewer repeats). */
  quick: boolean;
  log: (message: string) => void;
  /** Adds a Markdown table to the report under the scenario's heading. */
  table: (columns: string[], rows: (string | number)[][]) => void;
}

export interface Scenario {
  name: string;
  description?: string;
  /** Included in `--quick` runs. */
  quick?: boolean;
  run: (ctx: BenchContext) => Promise<Figures>;
}
