// The chaos cases. Each drives the built CLI (bin/swapx.js → dist/) as a user would, against in-process
// sandboxes, and compares its end with a clean run of the same query against a sandbox with the same data
// and no fault. Export and sync cases are one runner each: what differs between an export and a sync (its
// arguments, how it goes on after a failure, how it is compared) is a row of the SUBJECTS table.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type FaultKind, type RunningSandbox, type SandboxOptions, startSandbox } from '../../src/sandbox/index.js';
import { LIST_SWAP_FIELDS } from '../../src/api/types.js';
import {
  asParquetRows,
  byteDifferences,
  dirBytes,
  exportRetries,
  parquetParts,
  parquetSyncedRows,
  partDifferences,
  rowDifferences,
  type SyncedRow,
  syncedRows,
  syncLeftovers,
  syncRetries,
} from './compare.js';
import { addFaults, type FaultCounts, faultsText, isMounted, mountTmpfs, remount, roomFor, unmount } from './faults.js';
import { type CaseRow, emptyRow } from './report.js';

// Both are two folders below the package root (scripts/chaos/ and, bundled, dist/chaos/).
export const BIN = path.resolve(import.meta.dirname, '../../bin/swapx.js');

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** A run of the CLI never takes longer than this; past it, it is killed and the case fails. */
const RUN_LIMIT_MS = 180_000;

export interface ExportQuery {
  kind: 'export';
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
  kind: 'sync';
  /** --since, epoch ms */
  from: number;
  /** --until, epoch ms */
  to: number;
  /** --concurrency, default 2 */
  concurrency?: number;
  /** --format, default jsonl (part.jsonl) */
  format?: 'parquet';
}

export type Query = ExportQuery | SyncQuery;

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
}

const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
const exists = (file: string) => fs.existsSync(file);
const firstLine = (text: string) => text.trim().split('\n')[0] ?? '';
/** The one-line errors a run printed, for the notes. */
const errorLines = (stderr: string) =>
  stderr
    .split('\n')
    .filter((line) => line.startsWith('swapx:'))
    .join(' / ');

/** Starts the CLI; `done` resolves with its exit once its streams are closed. */
function spawnSwapx(args: readonly string[], env: NodeJS.ProcessEnv): { child: ChildProcess; done: Promise<Run> } {
  const started = performance.now();
  const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    stdout += d;
  });
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
  });
  const watchdog = setTimeout(() => child.kill('SIGKILL'), RUN_LIMIT_MS);
  const done = new Promise<Run>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(watchdog);
      resolve({ code, signal, stdout, stderr, ms: performance.now() - started });
    });
  });
  return { child, done };
}

const runSwapx = (args: readonly string[], env: NodeJS.ProcessEnv) => spawnSwapx(args, env).done;

/** A clean run of a query: what every case of it is compared with. */
interface Reference {
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
interface Subject {
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

/**
 * One chaos run: the data of its sandboxes, its reference runs, a scratch directory, and what must be
 * cleaned up (sandboxes, mounts). Each case method resolves with a result row and never rejects: a
 * crash of the harness itself is a failed row.
 */
export class Chaos {
  readonly data: { seed: number; swapsPerHour: number };
  readonly now: number;
  readonly root: string;
  readonly #log: (line: string) => void;
  readonly #sandboxes = new Set<RunningSandbox>();
  readonly #mounts = new Set<string>();
  readonly #references = new Map<string, Promise<Reference>>();
  #caseCount = 0;

  /**
   * @param options.seed sandbox data seed
   * @param options.now the sandboxes' clock (fixed, so reference and chaos runs see the same swaps)
   * @param options.root scratch directory (default: a new temp dir)
   */
  constructor(options: { seed?: number; swapsPerHour?: number; now?: number; root?: string; log?: (line: string) => void } = {}) {
    const today = Math.floor(Date.now() / DAY) * DAY;
    this.data = { seed: options.seed ?? 7, swapsPerHour: options.swapsPerHour ?? 600 };
    // Today's midnight, and ranges in the three days before: every swap of them is complete and visible, and none is in the future.
    this.now = options.now ?? today;
    this.root = options.root ?? fs.mkdtempSync(path.join(os.tmpdir(), 'swapx-chaos-'));
    this.#log = options.log ?? (() => {});
  }

  /** A range of `hours` starting `startHours` after the midnight three days before the sandbox clock (UTC); keep it within 48 h. */
  range(startHours: number, hours: number): { from: number; to: number } {
    const day = Math.floor(this.now / DAY) * DAY - 3 * DAY;
    return { from: day + startHours * HOUR, to: day + (startHours + hours) * HOUR };
  }

  async sandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
    const now = this.now;
    const sandbox = await startSandbox({ port: 0, ...this.data, now: () => now, retryAfterSeconds: 1, ...options });
    this.#sandboxes.add(sandbox);
    return sandbox;
  }

  /** A sandbox with latency, and a promise of its first answer: kill moments count from there, not from a process start slowed by load. */
  async #watchedSandbox(options: SandboxOptions): Promise<{ sandbox: RunningSandbox; firstAnswer: Promise<number> }> {
    let answered: (at: number) => void = () => {};
    const firstAnswer = new Promise<number>((resolve) => {
      answered = resolve;
    });
    const sandbox = await this.sandbox({ ...options, onRequest: () => answered(performance.now()) });
    return { sandbox, firstAnswer };
  }

  async stopSandbox(sandbox: RunningSandbox): Promise<void> {
    this.#sandboxes.delete(sandbox);
    await sandbox.close();
  }

  env(sandbox: RunningSandbox): NodeJS.ProcessEnv {
    return {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NO_COLOR: '1',
      SWAPX_BASE_URL: sandbox.url,
      SWAPX_CONFIG_DIR: path.join(this.root, 'config'),
      SWAPX_CLIENT_ID: 'demo',
      SWAPX_API_KEY: 'demo',
    };
  }

  #caseDir(name: string): string {
    this.#caseCount += 1;
    const dir = path.join(this.root, `${String(this.#caseCount).padStart(2, '0')}-${name.replace(/[^\w.]+/g, '-').replace(/^-|-$/g, '')}`);
    fs.mkdirSync(dir, { recursive: true });
    return dir;
  }

  /** The swaps arguments of an export of the query to `file`. */
  exportArgs(query: Omit<ExportQuery, 'kind'>, file: string, extra: string[] = []): string[] {
    return [
      'swaps',
      '--from',
      iso(query.from),
      '--to',
      iso(query.to),
      '--window',
      query.window ?? '10m',
      '--concurrency',
      String(query.concurrency ?? 4),
      '-o',
      file,
      ...extra,
    ];
  }

  /** The sync arguments of a sync of the query into `dir`. */
  syncArgs(query: Omit<SyncQuery, 'kind'>, dir: string, extra: string[] = []): string[] {
    return [
      'sync',
      '--out',
      dir,
      '--since',
      iso(query.from),
      '--until',
      iso(query.to),
      '--concurrency',
      String(query.concurrency ?? 2),
      '--summary-json',
      // A checkpoint after every window: a kill falls between commits, not only before the first.
      '--checkpoint-every',
      '0',
      ...(query.format ? ['--format', query.format] : []),
      ...extra,
    ];
  }

  /** What an export or a sync of the query does, as the case runners need it. */
  #subject(query: Query): Subject {
    if (query.kind === 'export') {
      const ext = query.ext ?? 'jsonl';
      return {
        output: (dir) => path.join(dir, `x.${ext}`),
        readOnlyOutput: (mnt) => path.join(mnt, `x.${ext}`),
        args: (file, extra) => this.exportArgs(query, file, extra),
        retries: exportRetries,
        again: (args) => [...args, '--resume'],
        againNote: 'resumed',
        unfinished: (file) => !exists(file) || exists(`${file}.partial.manifest.json`),
        checkAgain: (row, run, state) => {
          if (run.code === 0 && state.endsWith('windows') && !/^Resuming: \d+\/\d+ windows already done/m.test(run.stderr))
            row.problems.push('the resume did not say it resumed');
        },
        // Nothing is saved when the disk fills before the first checkpoint (a fast run): then nothing is left either.
        noSpace: /^swapx: error: writing \S+: no space left on device(; \d+\/\d+ windows saved in \S+; resume with: swapx swaps .* --resume)?$/,
        readOnly: /^swapx: error: read-only file system/,
        checkFinished: (row, run, file) => {
          if (run.code !== 0) row.problems.push(`exit ${run.code ?? run.signal}: ${firstLine(run.stderr)}`);
          for (const leftover of [`${file}.partial`, `${file}.partial.manifest.json`, `${file}.partial.rowgroups`]) {
            if (exists(leftover)) row.problems.push(`${path.basename(leftover)} left behind`);
          }
          if (!exists(file)) row.problems.push('no file under the final name');
        },
      };
    }
    return {
      output: (dir) => path.join(dir, 'out'),
      readOnlyOutput: (mnt) => mnt,
      args: (dir, extra) => this.syncArgs(query, dir, extra),
      retries: syncRetries,
      again: (args) => args,
      againNote: 'run again',
      unfinished: () => true,
      checkAgain: () => {},
      noSpace: /^swapx: error: writing \S+: no space left on device; synced up to \S+Z; run the same command again to continue$/,
      readOnly: /^swapx: error: .*read-only file system/,
      checkFinished: (row, run, dir) => {
        if (run.code !== 0) row.problems.push(`exit ${run.code ?? run.signal}: ${firstLine(run.stderr)}`);
        const leftovers = exists(dir) ? syncLeftovers(dir) : [];
        if (leftovers.length) row.problems.push(`left behind: ${leftovers.join(', ')}`);
      },
    };
  }

  /** The clean run of the query (same data, no fault, no latency; a sync at the sandbox clock `now`), once per query and clock. */
  #reference(query: Query, now = this.now): Promise<Reference> {
    const key =
      query.kind === 'export'
        ? `export ${query.from} ${query.to} ${query.window ?? ''} ${query.ext ?? 'jsonl'}`
        : `sync ${query.from} ${query.to} ${now} ${query.format ?? 'jsonl'}`;
    let reference = this.#references.get(key);
    if (!reference) {
      reference =
        query.kind === 'export'
          ? this.#exportReference(query)
          : query.format === 'parquet'
            ? this.#parquetSyncReference(query, now)
            : this.#syncReference(query, now);
      this.#references.set(key, reference);
    }
    return reference;
  }

  async #exportReference(query: ExportQuery): Promise<Reference> {
    const sandbox = await this.sandbox();
    try {
      const file = path.join(this.#caseDir('reference-export'), `clean.${query.ext ?? 'jsonl'}`);
      const r = await runSwapx(this.exportArgs(query, file, ['-q']), this.env(sandbox));
      if (r.code !== 0) throw new Error(`the clean reference export failed (exit ${r.code}): ${firstLine(r.stderr)}`);
      const bytes = fs.readFileSync(file);
      // Parquet rows are counted in the JSON Lines export of the same query.
      const rows =
        query.ext === 'parquet' ? (await this.#reference({ ...query, ext: undefined })).rows : bytes.toString('utf8').split('\n').filter(Boolean).length;
      return {
        rows,
        size: bytes.length,
        ms: r.ms,
        compare: (row, output) => {
          row.rows = rows;
          row.differences = byteDifferences(exists(output) ? fs.readFileSync(output) : Buffer.alloc(0), bytes);
        },
        progress: (row, output) => partialState(row, output, bytes),
      };
    } finally {
      await this.stopSandbox(sandbox);
    }
  }

  async #syncReference(query: SyncQuery, now: number): Promise<Reference> {
    const sandbox = await this.sandbox({ now: () => now });
    try {
      const dir = path.join(this.#caseDir('reference-sync'), 'out');
      const r = await runSwapx(this.syncArgs(query, dir, ['-q']), this.env(sandbox));
      if (r.code !== 0) throw new Error(`the clean reference sync failed (exit ${r.code}): ${firstLine(r.stderr)}`);
      const lines: SyncedRow[] = syncedRows(dir);
      if (new Set(lines.map(([id]) => id)).size !== lines.length) throw new Error('the clean reference sync wrote a swap twice');
      return {
        lines,
        rows: lines.length,
        size: dirBytes(dir),
        ms: r.ms,
        compare: (row, output) => {
          row.rows = lines.length;
          row.differences = rowDifferences(exists(output) ? syncedRows(output) : [], lines);
        },
        progress: (_row, output) => `${exists(output) ? syncedRows(output).length : 0} swaps in parts`,
      };
    } finally {
      await this.stopSandbox(sandbox);
    }
  }

  /**
   * A Parquet sync is compared with what the API sent: the clean JSON Lines sync of the query at the same clock,
   * row for row, read from `dir/**\/*.parquet` with DuckDB (a missing, extra, duplicate or stale row is a
   * difference); and each partition file with a clean Parquet sync's, byte for byte (one file that differs is one
   * difference: a mirror must converge to the bytes of an uninterrupted run).
   */
  async #parquetSyncReference(query: SyncQuery, now: number): Promise<Reference> {
    const rows = asParquetRows((await this.#reference({ ...query, format: undefined }, now)).lines ?? [], LIST_SWAP_FIELDS);
    const sandbox = await this.sandbox({ now: () => now });
    try {
      const dir = path.join(this.#caseDir('reference-sync-parquet'), 'out');
      const r = await runSwapx(this.syncArgs(query, dir, ['-q']), this.env(sandbox));
      if (r.code !== 0) throw new Error(`the clean reference Parquet sync failed (exit ${r.code}): ${firstLine(r.stderr)}`);
      const parts = parquetParts(dir);
      if (rowDifferences(await parquetSyncedRows(dir, LIST_SWAP_FIELDS), rows) !== 0) throw new Error('the clean reference Parquet sync differs from the API');
      return {
        rows: rows.length,
        size: dirBytes(dir),
        ms: r.ms,
        compare: async (row, output) => {
          row.rows = rows.length;
          const actual = exists(output) ? parquetParts(output) : new Map<string, Buffer>();
          const files = partDifferences(actual, parts);
          if (files.length) row.notes.push(`partitions not byte-identical to a clean sync: ${files.join(', ')}`);
          row.differences = rowDifferences(exists(output) ? await parquetSyncedRows(output, LIST_SWAP_FIELDS) : [], rows) + files.length;
        },
        progress: (_row, output) => `${exists(output) ? parquetParts(output).size : 0} Parquet parts`,
      };
    } finally {
      await this.stopSandbox(sandbox);
    }
  }

  /** Runs `body` as a case: times it, and turns a crash of the harness into a failed row. */
  async #case(name: string, body: (row: CaseRow) => Promise<void>): Promise<CaseRow> {
    const started = performance.now();
    const row = emptyRow(name);
    try {
      await body(row);
    } catch (error) {
      row.problems.push(`harness: ${error instanceof Error ? error.message : String(error)}`);
    }
    row.ms = Math.round(performance.now() - started);
    this.#log(
      `${row.problems.length === 0 && row.differences === 0 ? 'ok  ' : 'FAIL'} ${name} (${(row.ms / 1000).toFixed(1)} s)${row.problems.length ? `: ${row.problems.join('; ')}` : ''}`,
    );
    return row;
  }

  async #finish(row: CaseRow, subject: Subject, run: Run, output: string, reference: Reference): Promise<void> {
    subject.checkFinished(row, run, output);
    await reference.compare(row, output);
  }

  /** Runs `args`, then goes on (resume or rerun, noted) while it exits 1, at most three times more. */
  async #runThrough(row: CaseRow, subject: Subject, args: string[], env: NodeJS.ProcessEnv): Promise<Run> {
    let run = await runSwapx(args, env);
    row.retries += subject.retries(run.stderr);
    for (let again = 0; run.code === 1 && again < 3; again += 1) {
      row.notes.push(`exit 1 (${errorLines(run.stderr)}), ${subject.againNote}`);
      run = await runSwapx(subject.again(args), env);
      row.retries += subject.retries(run.stderr);
    }
    return run;
  }

  /** Through a fault rate: exit 0 expected (retries ride through); should a window still fail after its retries, the run goes on (noted). */
  faultRate(spec: { name: string; query: Query; rate: number; kinds?: FaultKind[]; slowMs?: number; timeout?: string; retries?: number }): Promise<CaseRow> {
    return this.#case(spec.name, async (row) => {
      const subject = this.#subject(spec.query);
      const reference = await this.#reference(spec.query);
      const sandbox = await this.sandbox({ faultRate: spec.rate, faultKinds: spec.kinds, slowMs: spec.slowMs });
      try {
        const output = subject.output(this.#caseDir(spec.name));
        const args = subject.args(output, ['--timeout', spec.timeout ?? '1s', '--retries', String(spec.retries ?? 10)]);
        const run = await this.#runThrough(row, subject, args, this.env(sandbox));
        const stats = sandbox.stats();
        row.faults = `${faultsText(stats.faults)} of ${stats.requests} requests`;
        await this.#finish(row, subject, run, output, reference);
        if (Object.values(stats.faults).every((n) => n === 0)) row.problems.push('no fault was injected');
      } finally {
        await this.stopSandbox(sandbox);
      }
    });
  }

  /** What a clean or a killed case starts from: its query's subject and reference, a watched sandbox with latency, its output. */
  async #watchedCase(spec: { name: string; query: Query; latencyMs?: number }) {
    const subject = this.#subject(spec.query);
    const reference = await this.#reference(spec.query);
    const { sandbox, firstAnswer } = await this.#watchedSandbox({ latencyMs: spec.latencyMs ?? 25 });
    return { subject, reference, sandbox, firstAnswer, output: subject.output(this.#caseDir(spec.name)) };
  }

  /** With latency but no fault: the baseline, and how long a run takes (row.runMs) to spread kill moments over. */
  clean(spec: { name: string; query: Query; latencyMs?: number }): Promise<CaseRow> {
    return this.#case(spec.name, async (row) => {
      const { subject, reference, sandbox, firstAnswer, output } = await this.#watchedCase(spec);
      try {
        const run = await runSwapx(subject.args(output), this.env(sandbox));
        row.faults = `none (latency ${spec.latencyMs ?? 25} ms)`;
        row.runMs = Math.round(performance.now() - (await firstAnswer));
        row.retries = subject.retries(run.stderr);
        await this.#finish(row, subject, run, output, reference);
      } finally {
        await this.stopSandbox(sandbox);
      }
    });
  }

  /** Killed with SIGKILL `moment` ms after the sandbox's first answer to it, then gone on with (export: --resume; sync: run again). */
  kill(spec: { name: string; query: Query; moment: number; latencyMs?: number }): Promise<CaseRow> {
    return this.#case(spec.name, async (row) => {
      const { subject, reference, sandbox, firstAnswer, output } = await this.#watchedCase(spec);
      try {
        const args = subject.args(output);
        const { child, done } = spawnSwapx(args, this.env(sandbox));
        await Promise.race([firstAnswer.then(() => sleep(spec.moment)), done]);
        child.kill('SIGKILL');
        const killed = await done;
        const state = reference.progress(row, output);
        row.faults = killed.signal === 'SIGKILL' ? `SIGKILL at +${spec.moment} ms (${state})` : `none: done before +${spec.moment} ms`;
        row.retries = subject.retries(killed.stderr);
        if (subject.unfinished(output)) {
          const run = await runSwapx(subject.again(args), this.env(sandbox));
          subject.checkAgain(row, run, state);
          row.retries += subject.retries(run.stderr);
          await this.#finish(row, subject, run, output, reference);
        } else {
          // Done (file renamed, manifest removed) before it died, or before the kill: nothing to go on with.
          if (killed.signal === 'SIGKILL') row.faults = `SIGKILL at +${spec.moment} ms (after the rename, before the exit)`;
          await this.#finish(row, subject, { ...killed, code: killed.signal === 'SIGKILL' ? 0 : killed.code }, output, reference);
        }
      } finally {
        await this.stopSandbox(sandbox);
      }
    });
  }

  async #withMount<T>(name: string, options: string, body: (dir: string) => Promise<T>): Promise<T> {
    const dir = path.join(this.#caseDir(name), 'mnt');
    fs.mkdirSync(dir);
    mountTmpfs(dir, options);
    this.#mounts.add(dir);
    try {
      return await body(dir);
    } finally {
      this.#mounts.delete(dir);
      unmount(dir);
    }
  }

  /**
   * Into a tmpfs too small for it (`sizeShare` of the clean run's size): exit 1 with a one-line "no space
   * left on device" error (an export: nothing under the final name); once the tmpfs is enlarged, going on completes it.
   */
  fullDisk(spec: { name: string; query: Query; sizeShare: number }): Promise<CaseRow> {
    return this.#case(spec.name, async (row) => {
      const subject = this.#subject(spec.query);
      const reference = await this.#reference(spec.query);
      const sizeKb = Math.ceil((reference.size * spec.sizeShare) / 1024);
      const sandbox = await this.sandbox();
      try {
        await this.#withMount(spec.name, `size=${sizeKb}k`, async (mnt) => {
          const output = subject.output(mnt);
          const args = subject.args(output);
          const full = await runSwapx(args, this.env(sandbox));
          row.retries = subject.retries(full.stderr);
          row.faults = `ENOSPC (tmpfs ${sizeKb} KiB) after ${reference.progress(row, output)}`;
          this.#expectFailure(row, full, subject.noSpace);
          if (exists(output) && spec.query.kind === 'export') row.problems.push('a file was left under the final name');
          if (spec.query.kind === 'export' && !full.stderr.includes('windows saved') && exists(`${output}.partial`)) {
            row.problems.push('nothing was said to be saved, yet a .partial was left');
          }
          remount(mnt, `size=${roomFor(reference.size)}k`);
          const run = await runSwapx(subject.again(args), this.env(sandbox));
          row.retries += subject.retries(run.stderr);
          await this.#finish(row, subject, run, output, reference);
        });
      } finally {
        await this.stopSandbox(sandbox);
      }
    });
  }

  /**
   * Into a read-only directory (root ignores permission bits; a read-only mount does not): exit 1 with a
   * one-line "read-only file system" error, nothing written; once writable, going on completes it.
   */
  readOnly(spec: { name: string; query: Query }): Promise<CaseRow> {
    return this.#case(spec.name, async (row) => {
      const subject = this.#subject(spec.query);
      const reference = await this.#reference(spec.query);
      const sandbox = await this.sandbox();
      try {
        await this.#withMount(spec.name, `ro,size=${roomFor(reference.size)}k`, async (mnt) => {
          const output = subject.readOnlyOutput(mnt);
          const args = subject.args(output);
          const refused = await runSwapx(args, this.env(sandbox));
          row.faults = 'EROFS (read-only output dir)';
          this.#expectFailure(row, refused, subject.readOnly);
          if (fs.readdirSync(mnt).length > 0) row.problems.push(`files appeared in a read-only dir: ${fs.readdirSync(mnt).join(', ')}`);
          remount(mnt, 'rw');
          const run = await runSwapx(subject.again(args), this.env(sandbox));
          row.retries = subject.retries(run.stderr);
          await this.#finish(row, subject, run, output, reference);
        });
      } finally {
        await this.stopSandbox(sandbox);
      }
    });
  }

  /**
   * Updates after completion: a clean sync of the query at the chaos clock, then the sandbox restarted on the
   * same port with its clock `laterDays` on (first updates, corrections after 2 and 5 days happened since) and
   * latency, and the catch-up run killed with SIGKILL `moment` ms after the first answer (or through fault rate
   * `rate`), then run again. It must hold, row for row, what a clean sync made at the later clock holds.
   */
  syncUpdates(spec: { name: string; query: SyncQuery; laterDays: number; moment?: number; rate?: number; latencyMs?: number }): Promise<CaseRow> {
    return this.#case(spec.name, async (row) => {
      const subject = this.#subject(spec.query);
      const later = this.now + spec.laterDays * DAY;
      const reference = await this.#reference(spec.query, later);
      const dir = subject.output(this.#caseDir(spec.name));
      let sandbox = await this.sandbox();
      const port = sandbox.port;
      let live = true;
      try {
        const args = subject.args(dir);
        const first = await runSwapx(args, this.env(sandbox));
        if (first.code !== 0) row.problems.push(`the first sync failed (exit ${first.code}): ${firstLine(first.stderr)}`);
        live = false;
        await this.stopSandbox(sandbox);
        let answered: (at: number) => void = () => {};
        const firstAnswer = new Promise<number>((resolve) => {
          answered = resolve;
        });
        const options: SandboxOptions = { now: () => later, latencyMs: spec.latencyMs ?? 10, onRequest: () => answered(performance.now()) };
        if (spec.rate !== undefined) Object.assign(options, { faultRate: spec.rate, retryAfterSeconds: 0 });
        sandbox = await this.#restart(port, options);
        live = true;
        const catchUp = [...args, '--retries', '15', '--timeout', '2s'];
        row.faults = `+${spec.laterDays} d, none`;
        if (spec.moment !== undefined) {
          const { child, done } = spawnSwapx(catchUp, this.env(sandbox));
          await Promise.race([firstAnswer.then(() => sleep(spec.moment)), done]);
          child.kill('SIGKILL');
          const killed = await done;
          row.faults =
            killed.signal === 'SIGKILL'
              ? `+${spec.laterDays} d, SIGKILL at +${spec.moment} ms of the catch-up`
              : `+${spec.laterDays} d, none: done before +${spec.moment} ms`;
          row.retries = syncRetries(killed.stderr);
        }
        const run = await this.#runThrough(row, subject, catchUp, this.env(sandbox));
        if (spec.rate !== undefined) row.faults = `+${spec.laterDays} d, ${faultsText(sandbox.stats().faults)} of ${sandbox.stats().requests} requests`;
        const updated = [...run.stderr.matchAll(/"updatedSwaps":(\d+)/g)].reduce((n, m) => n + Number(m[1]), 0);
        if (spec.moment === undefined && updated === 0) row.problems.push('the catch-up updated no swap');
        await this.#finish(row, subject, run, dir, reference);
      } finally {
        if (live) await this.stopSandbox(sandbox);
      }
    });
  }

  /**
   * The sandbox stopped once `afterWindows` windows are saved, and started again on the same port
   * `outageMs` later. With enough retries the export rides through; with `--retries 0` it exits 1 and
   * `--resume` (once the sandbox is back) completes it.
   */
  sandboxRestart(spec: { name: string; query: ExportQuery; retries: number; outageMs?: number; afterWindows?: number; latencyMs?: number }): Promise<CaseRow> {
    return this.#case(spec.name, async (row) => {
      const subject = this.#subject(spec.query);
      const reference = await this.#reference(spec.query);
      const options = { latencyMs: spec.latencyMs ?? 25 };
      let sandbox = await this.sandbox(options);
      const port = sandbox.port;
      const faults: FaultCounts = {};
      let live = true;
      try {
        const file = subject.output(this.#caseDir(spec.name));
        const args = subject.args(file, ['--retries', String(spec.retries)]);
        const { done } = spawnSwapx(args, this.env(sandbox));
        const manifest = `${file}.partial.manifest.json`;
        const want = spec.afterWindows ?? 2;
        const deadline = Date.now() + 30_000;
        let finished = false;
        void done.then(() => {
          finished = true;
        });
        for (;;) {
          let windowsDone = 0;
          try {
            windowsDone = (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { windowsDone: number }).windowsDone;
          } catch {
            // Not written yet, or being replaced.
          }
          if (windowsDone >= want || finished || Date.now() > deadline) break;
          await sleep(5);
        }
        addFaults(faults, sandbox.stats().faults);
        live = false;
        await this.stopSandbox(sandbox);
        const outageMs = spec.outageMs ?? 1500;
        row.faults = `outage of ${outageMs} ms after ${finished ? 'the end (too late)' : reference.progress(row, file)}`;
        if (finished) row.problems.push('the export ended before the sandbox stopped: make the query longer');
        await sleep(outageMs);
        sandbox = await this.#restart(port, options);
        live = true;
        let run = await done;
        row.retries = exportRetries(run.stderr);
        if (spec.retries === 0 && run.code !== 1) row.problems.push(`with --retries 0 the outage should end the export with exit 1, not ${run.code}`);
        if (run.code === 1) {
          const message = firstLine(run.stderr);
          if (!/^swapx: error: .+; resume with: swapx swaps .+ --resume$/.test(message)) row.problems.push(`unclear failure message: ${message}`);
          row.notes.push(`exit 1: ${message}`);
          run = await runSwapx(subject.again(args), this.env(sandbox));
          row.retries += exportRetries(run.stderr);
        }
        await this.#finish(row, subject, run, file, reference);
      } finally {
        if (live) {
          addFaults(faults, sandbox.stats().faults);
          await this.stopSandbox(sandbox);
        }
      }
      const injected = faultsText(faults);
      if (injected !== 'none') row.faults += `, ${injected}`;
    });
  }

  async #restart(port: number, options: SandboxOptions): Promise<RunningSandbox> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await this.sandbox({ ...options, port });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt >= 20) throw error;
        await sleep(100);
      }
    }
  }

  /** A failed run must exit 1 with exactly one error line matching `pattern` (summary lines aside). */
  #expectFailure(row: CaseRow, run: Run, pattern: RegExp): void {
    const errors = run.stderr.split('\n').filter((line) => line.startsWith('swapx:'));
    row.notes.push(`exit ${run.code}: ${errors.join(' / ') || '(no error line)'}`);
    if (run.code !== 1) row.problems.push(`expected exit 1, got ${run.code ?? run.signal}`);
    if (errors.length !== 1 || !pattern.test(errors[0] ?? ''))
      row.problems.push(`expected one error line like ${pattern}, got: ${errors.join(' / ') || firstLine(run.stderr) || '(nothing)'}`);
  }

  /** Stops every sandbox, detaches every mount still attached, and removes the scratch dir unless `keep`. */
  async close({ keep = false }: { keep?: boolean } = {}): Promise<void> {
    await Promise.all([...this.#sandboxes].map((sandbox) => sandbox.close().catch(() => {})));
    this.#sandboxes.clear();
    for (const dir of this.#mounts) {
      try {
        if (isMounted(dir)) unmount(dir);
      } catch {
        // Reported by the mount table; nothing more to do here.
      }
    }
    this.#mounts.clear();
    if (!keep) fs.rmSync(this.root, { recursive: true, force: true });
  }
}

/** What a killed or failed export left: `k/N windows` from its manifest, and a check that its recorded bytes are the clean run's first. */
function partialState(row: CaseRow, file: string, clean: Buffer): string {
  const manifestFile = `${file}.partial.manifest.json`;
  if (exists(file)) {
    if (Buffer.compare(fs.readFileSync(file), clean) !== 0) row.problems.push('a file not identical to the clean run was left under the final name');
    return 'complete';
  }
  if (!exists(manifestFile)) return 'no manifest yet';
  let manifest: { bytes: number; windowsDone: number; windowsTotal: number };
  try {
    manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
  } catch (error) {
    row.problems.push(`unreadable manifest: ${(error as Error).message}`);
    return 'bad manifest';
  }
  const partial = exists(`${file}.partial`) ? fs.readFileSync(`${file}.partial`) : Buffer.alloc(0);
  if (partial.length < manifest.bytes) row.problems.push(`the partial file (${partial.length} B) is shorter than the manifest records (${manifest.bytes} B)`);
  else if (Buffer.compare(partial.subarray(0, manifest.bytes), clean.subarray(0, manifest.bytes)) !== 0) {
    row.problems.push('the partial file differs from the clean run within what the manifest records as done');
  }
  return `${manifest.windowsDone}/${manifest.windowsTotal} windows`;
}
