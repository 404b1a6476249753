// What the chaos cases share: the harness a case runs in (sandboxes, scratch dirs, reference runs), what
// differs between an export and a sync (Subject), and a clean run to compare with (Reference). The harness
// is chaos.ts; the cases are the *-cases.ts files.
import type { RunningSandbox, SandboxOptions } from '../../src/sandbox/index.js';
import type { SyncedRow } from './compare.js';
import type { Query } from './queries.js';
import type { CaseRow } from './report.js';
import type { Run } from './spawn.js';

/** A clean run of a query: what every case of it is compared with. */
export interface Reference {
  rows: number;
  /** bytes written */
  size: number;
  ms: number;
  /** Fills in the row's differences from what `output` holds. */
  compare(row: CaseRow, output: string): void | Promise<void>;
  /** What a killed or failed run left in `output`, for the faults column; checks that what it left is right. */
  progress(row: CaseRow, output: string): string;
  /** a JSON Lines sync's rows */
  lines?: readonly SyncedRow[];
}

/** What differs between an export and a sync case. */
export interface Subject {
  /** the output of a case in `dir`: the export's file, the sync's directory */
  output(dir: string): string;
  /** the output of a case whose directory `mnt` is a read-only mount */
  readOnlyOutput(mnt: string): string;
  args(output: string, extra?: string[]): string[];
  retries(stderr: string): number;
  /** the command that goes on after a failure or a kill (export: --resume; sync: the same command) */
  again(args: string[]): string[];
  againNote: string;
  /** whether a killed run left work to go on with */
  unfinished(output: string): boolean;
  /** checks the run that went on after a kill, given what the kill left */
  checkAgain(row: CaseRow, run: Run, state: string): void;
  noSpace: RegExp;
  readOnly: RegExp;
  /** What a finished run must leave besides the compared output; problems go into the row. */
  checkFinished(row: CaseRow, run: Run, output: string): void;
}

/** What a case runs in. Each case resolves with a result row and never rejects. */
export interface Harness {
  /** the sandboxes' clock */
  readonly now: number;
  sandbox(options?: SandboxOptions): Promise<RunningSandbox>;
  /** A sandbox with latency, and a promise of its first answer: kill moments count from there, not from a process start slowed by load. */
  watchedSandbox(options: SandboxOptions): Promise<{ sandbox: RunningSandbox; firstAnswer: Promise<number> }>;
  /** A sandbox started again on the port of one stopped. */
  restart(port: number, options: SandboxOptions): Promise<RunningSandbox>;
  stopSandbox(sandbox: RunningSandbox): Promise<void>;
  env(sandbox: RunningSandbox): NodeJS.ProcessEnv;
  /** A new scratch directory for a case. */
  caseDir(name: string): string;
  subject(query: Query): Subject;
  /** The clean run of the query (same data, no fault, no latency; a sync at the sandbox clock `now`), once per query and clock. */
  reference(query: Query, now?: number): Promise<Reference>;
  /** Runs `body` as a case: times it, and turns a crash of the harness into a failed row. */
  runCase(name: string, body: (row: CaseRow) => Promise<void>, always?: boolean): Promise<CaseRow>;
  /** Checks a finished run and compares its output with the reference. */
  finish(row: CaseRow, subject: Subject, run: Run, output: string, reference: Reference): Promise<void>;
  /** Runs `args`, then goes on (resume or rerun, noted) while it exits 1, at most three times more. */
  runThrough(row: CaseRow, subject: Subject, args: string[], env: NodeJS.ProcessEnv): Promise<Run>;
  /** Runs `body` with a tmpfs mounted (with `options`) on a new directory, detached after. */
  withMount<T>(name: string, options: string, body: (dir: string) => Promise<T>): Promise<T>;
}
