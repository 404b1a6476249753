// The chaos harness. Each case drives the built CLI (bin/swapx.js → dist/) as a user would, against in-process
// sandboxes, and compares its end with a clean run of the same query against a sandbox with the same data and
// no fault. Export and sync cases are one runner each (the *-cases.ts files): what differs between an export and
// a sync (its arguments, how it goes on after a failure, how it is compared) is its Subject (subjects.ts).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type RunningSandbox, type SandboxOptions, startSandbox } from '../../src/sandbox/index.js';
import { fullDisk, readOnly } from './disk-cases.js';
import { faultRate, sandboxRestart } from './fault-cases.js';
import { isMounted, mountTmpfs, unmount } from './faults.js';
import type { Harness, Reference, Subject } from './harness.js';
import { backfillKills, doubleSignal, exportDoubleSignal } from './interrupt-cases.js';
import { clean, kill } from './kill-cases.js';
import { DAY, type ExportQuery, exportArgs, HOUR, type Query, type SyncQuery, syncArgs } from './queries.js';
import { exportReference, parquetSyncReference, syncReference } from './references.js';
import { type CaseRow, emptyRow } from './report.js';
import { errorLines, type Run, runSwapx } from './spawn.js';
import { subjectFor } from './subjects.js';
import { syncUpdates } from './update-cases.js';

export type { ExportQuery, Query, SyncQuery };

type Spec<F extends (harness: Harness, spec: never) => unknown> = Parameters<F>[1];

/**
 * One chaos run: the data of its sandboxes, its reference runs, a scratch directory, and what must be
 * cleaned up (sandboxes, mounts). Each case method resolves with a result row and never rejects: a
 * crash of the harness itself is a failed row.
 */
export class Chaos implements Harness {
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
  readonly #only: string | undefined;

  constructor(options: { seed?: number; swapsPerHour?: number; now?: number; root?: string; log?: (line: string) => void; only?: string } = {}) {
    const today = Math.floor(Date.now() / DAY) * DAY;
    this.data = { seed: options.seed ?? 7, swapsPerHour: options.swapsPerHour ?? 600 };
    // A midnight a week ago, and ranges in the three days before: every swap of them is complete and visible, and none
    // is in the future; a catch-up days later (up to a week) is still in the past of this machine's clock, which a
    // sync believes the server's only a little ahead of.
    this.now = options.now ?? today - 7 * DAY;
    this.root = options.root ?? fs.mkdtempSync(path.join(os.tmpdir(), 'swapx-chaos-'));
    this.#log = options.log ?? (() => {});
    this.#only = options.only;
  }

  /** A range of `hours` starting `startHours` after the midnight three days before the sandbox clock (UTC); keep it within 48 h. */
  range(startHours: number, hours: number): { from: number; to: number } {
    const day = Math.floor(this.now / DAY) * DAY - 3 * DAY;
    return { from: day + startHours * HOUR, to: day + (startHours + hours) * HOUR };
  }

  // The cases (each in the file named for what it does).
  faultRate = (spec: Spec<typeof faultRate>) => faultRate(this, spec);
  sandboxRestart = (spec: Spec<typeof sandboxRestart>) => sandboxRestart(this, spec);
  clean = (spec: Spec<typeof clean>) => clean(this, spec);
  kill = (spec: Spec<typeof kill>) => kill(this, spec);
  backfillKills = (spec: Spec<typeof backfillKills>) => backfillKills(this, spec);
  doubleSignal = (spec: Spec<typeof doubleSignal>) => doubleSignal(this, spec);
  exportDoubleSignal = (spec: Spec<typeof exportDoubleSignal>) => exportDoubleSignal(this, spec);
  fullDisk = (spec: Spec<typeof fullDisk>) => fullDisk(this, spec);
  readOnly = (spec: Spec<typeof readOnly>) => readOnly(this, spec);
  syncUpdates = (spec: Spec<typeof syncUpdates>) => syncUpdates(this, spec);

  async sandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
    const now = this.now;
    const sandbox = await startSandbox({ port: 0, ...this.data, now: () => now, retryAfterSeconds: 1, ...options });
    this.#sandboxes.add(sandbox);
    return sandbox;
  }

  async watchedSandbox(options: SandboxOptions): Promise<{ sandbox: RunningSandbox; firstAnswer: Promise<number> }> {
    let answered: (at: number) => void = () => {};
    const firstAnswer = new Promise<number>((resolve) => {
      answered = resolve;
    });
    const sandbox = await this.sandbox({ ...options, onRequest: () => answered(performance.now()) });
    return { sandbox, firstAnswer };
  }

  /**
   * A sandbox on `port` (0: any): a mirror's state records the API's address, so the sandbox of a later clock must
   * answer where the earlier one did. Tried again for a moment while the port is still being let go.
   */
  async restart(port: number, options: SandboxOptions): Promise<RunningSandbox> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await this.sandbox({ ...options, port });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt >= 20) throw error;
        await sleep(100);
      }
    }
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

  caseDir(name: string): string {
    this.#caseCount += 1;
    const dir = path.join(this.root, `${String(this.#caseCount).padStart(2, '0')}-${name.replace(/[^\w.]+/g, '-').replace(/^-|-$/g, '')}`);
    fs.mkdirSync(dir, { recursive: true });
    return dir;
  }

  /** The swaps arguments of an export of the query to `file`. */
  exportArgs(query: Omit<ExportQuery, 'kind'>, file: string, extra: string[] = []): string[] {
    return exportArgs(query, file, extra);
  }

  /** The sync arguments of a sync of the query into `dir`. */
  syncArgs(query: Omit<SyncQuery, 'kind'>, dir: string, extra: string[] = []): string[] {
    return syncArgs(query, dir, extra);
  }

  subject(query: Query): Subject {
    return subjectFor(query);
  }

  reference(query: Query, now = this.now): Promise<Reference> {
    const key =
      query.kind === 'export'
        ? `export ${query.from} ${query.to} ${query.window ?? ''} ${query.ext ?? 'jsonl'}`
        : `sync ${query.from} ${query.to} ${now} ${query.format ?? 'jsonl'}`;
    let reference = this.#references.get(key);
    if (!reference) {
      reference =
        query.kind === 'export'
          ? exportReference(this, query)
          : query.format === 'parquet'
            ? parquetSyncReference(this, query, now)
            : syncReference(this, query, now);
      this.#references.set(key, reference);
    }
    return reference;
  }

  /** Runs one case; `always`: even where --only leaves it out (a clean run the others are measured against). */
  async runCase(name: string, body: (row: CaseRow) => Promise<void>, always = false): Promise<CaseRow> {
    const started = performance.now();
    const row = emptyRow(name);
    if (!always && this.#only !== undefined && !name.includes(this.#only)) return { ...row, skipped: true };
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

  async finish(row: CaseRow, subject: Subject, run: Run, output: string, reference: Reference): Promise<void> {
    subject.checkFinished(row, run, output);
    await reference.compare(row, output);
  }

  async runThrough(row: CaseRow, subject: Subject, args: string[], env: NodeJS.ProcessEnv): Promise<Run> {
    let run = await runSwapx(args, env);
    row.retries += subject.retries(run.stderr);
    for (let again = 0; run.code === 1 && again < 3; again += 1) {
      row.notes.push(`exit 1 (${errorLines(run.stderr).join(' / ')}), ${subject.againNote}`);
      run = await runSwapx(subject.again(args), env);
      row.retries += subject.retries(run.stderr);
    }
    return run;
  }

  async withMount<T>(name: string, options: string, body: (dir: string) => Promise<T>): Promise<T> {
    const dir = path.join(this.caseDir(name), 'mnt');
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
