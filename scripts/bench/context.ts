// What every part of the bench is handed: where things are, how to run swapx and the sandbox, and how to log.
import type { SandboxOptions, SandboxProcess, Timed } from './proc.js';

/** One time window as the API's From/To parameters. */
export interface WindowParams {
  from: string;
  to: string;
}

/**
 * The memory figures' data (issue 10's memory row, issue 13's Parquet rows): one density and the same 1-day and
 * 10-day ranges for the JSON Lines and the Parquet part, so their peaks compare.
 */
export const MEMORY_SWAPS_PER_HOUR = 2000;
export const DAY: WindowParams = { from: '2026-10-01T00:00:00Z', to: '2026-10-02T00:00:00Z' };
export const TEN_DAYS: WindowParams = { from: '2026-10-01T00:00:00Z', to: '2026-10-11T00:00:00Z' };

export interface BenchContext {
  /** The repository root. */
  root: string;
  /** A scratch directory, removed when the bench ends. */
  tmp: string;
  /** This Node.js executable. */
  node: string;
  /** bin/swapx.js: the built CLI, as users run it. */
  bin: string;
  /** Where GNU time writes its line (each run overwrites it). */
  timeFile: string;
  /** The environment of a swapx run against the sandbox at `url`. */
  env(url: string): NodeJS.ProcessEnv;
  /** swapx with `args` against the sandbox at `url`, under GNU time; stdout discarded unless `stdoutFile`. */
  swapx(url: string, args: readonly string[], options?: { stdoutFile?: string }): Promise<Timed>;
  /** `swapx sandbox` in its own process (`now`: its clock, fixed; else the real one). */
  startSandbox(options: SandboxOptions): Promise<SandboxProcess>;
  /** The windows swapx plans for [from, to), as the API's time parameters. */
  windowsBetween(from: string, to: string): WindowParams[];
  log(message: string): void;
}

/** A part's table (printed) and figures (written to bench-results.json). */
export interface PartOutcome<Result> {
  text: string;
  result: Result;
}
