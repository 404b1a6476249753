/** Types of scripts/chaos-lib.js (plain JS against dist/), for the chaos tests. */
import type { FaultKind, RunningSandbox, SandboxOptions } from '../src/sandbox/index.js';

export declare const BIN: string;

export interface ExportQuery {
  /** epoch ms */
  from: number;
  to: number;
  /** --window, default 10m */
  window?: string;
  /** --concurrency, default 4 */
  concurrency?: number;
  /** the -o extension, so the format: default 'jsonl' */
  ext?: 'jsonl' | 'csv' | 'json' | 'parquet';
}

export interface SyncQuery {
  /** --since, epoch ms */
  from: number;
  /** --until, epoch ms */
  to: number;
  /** --concurrency, default 2 */
  concurrency?: number;
}

/** A row of the chaos table. */
export interface CaseRow {
  case: string;
  faults: string;
  retries: number;
  rows: number;
  /** null when the case never got to compare */
  differences: number | null;
  /** what failed besides differences (exit codes, messages, leftovers) */
  problems: string[];
  /** what is worth knowing (error messages printed, resumes) */
  notes: string[];
  /** the whole case, ms */
  ms: number;
  /** clean cases: how long the run took from the sandbox's first answer to its exit, ms */
  runMs: number;
}

export declare function randomSource(seed: number): () => number;
export declare function randomMoments(seed: number, count: number, minMs: number, maxMs: number): number[];
/** undefined when tmpfs mounts work, else why not */
export declare function mountSupport(): string | undefined;
export declare function exportRetries(stderr: string): number;
export declare function syncRetries(stderr: string): number;
export declare function byteDifferences(actual: Buffer, expected: Buffer): number;
export declare function idDifferences(actual: readonly string[], expected: readonly string[]): number;
export declare function syncedIds(dir: string): string[];
/** [id, JSON line] of every row of a sync dir, in file order */
export declare function syncedRows(dir: string): [string, string][];
export declare function rowDifferences(actual: readonly [string, string][], expected: readonly [string, string][]): number;

export declare class Chaos {
  readonly data: { seed: number; swapsPerHour: number };
  readonly now: number;
  readonly root: string;
  constructor(options?: { seed?: number; swapsPerHour?: number; now?: number; root?: string; log?: (line: string) => void });
  range(startHours: number, hours: number): { from: number; to: number };
  sandbox(options?: SandboxOptions): Promise<RunningSandbox>;
  stopSandbox(sandbox: RunningSandbox): Promise<void>;
  env(sandbox: RunningSandbox): NodeJS.ProcessEnv;
  exportArgs(query: ExportQuery, file: string, extra?: string[]): string[];
  syncArgs(query: SyncQuery, dir: string, extra?: string[]): string[];
  exportReference(query: ExportQuery): Promise<{ bytes: Buffer; rows: number; ms: number }>;
  syncReference(query: SyncQuery, now?: number): Promise<{ lines: [string, string][]; rows: number; bytes: number; ms: number }>;
  faultRate(spec: { name: string; query: ExportQuery; rate: number; kinds?: FaultKind[]; slowMs?: number; timeout?: string; retries?: number }): Promise<CaseRow>;
  syncFaultRate(spec: { name: string; query: SyncQuery; rate: number; kinds?: FaultKind[]; slowMs?: number; timeout?: string; retries?: number }): Promise<CaseRow>;
  exportClean(spec: { name: string; query: ExportQuery; latencyMs?: number }): Promise<CaseRow>;
  syncClean(spec: { name: string; query: SyncQuery; latencyMs?: number }): Promise<CaseRow>;
  /** `moment`: ms after the sandbox's first answer */
  exportKill(spec: { name: string; query: ExportQuery; moment: number; latencyMs?: number }): Promise<CaseRow>;
  /** `moment`: ms after the sandbox's first answer */
  syncKill(spec: { name: string; query: SyncQuery; moment: number; latencyMs?: number }): Promise<CaseRow>;
  /** a clean sync, then its catch-up `laterDays` later (killed at `moment`, or through fault `rate`), against a clean sync at the later clock */
  syncUpdates(spec: { name: string; query: SyncQuery; laterDays: number; moment?: number; rate?: number; latencyMs?: number }): Promise<CaseRow>;
  sandboxRestart(spec: { name: string; query: ExportQuery; retries: number; outageMs?: number; afterWindows?: number; latencyMs?: number }): Promise<CaseRow>;
  exportFullDisk(spec: { name: string; query: ExportQuery; sizeShare: number }): Promise<CaseRow>;
  exportReadOnly(spec: { name: string; query: ExportQuery }): Promise<CaseRow>;
  syncFullDisk(spec: { name: string; query: SyncQuery; sizeShare: number }): Promise<CaseRow>;
  syncReadOnly(spec: { name: string; query: SyncQuery }): Promise<CaseRow>;
  close(options?: { keep?: boolean }): Promise<void>;
}

export declare function runCases(thunks: readonly (() => Promise<CaseRow>)[], concurrency?: number): Promise<CaseRow[]>;
export declare function passed(row: CaseRow): boolean;
export declare function formatTable(rows: readonly CaseRow[]): string;
export declare function formatNotes(rows: readonly CaseRow[]): string;
