// The chaos harness, shared by `npm run chaos` (scripts/chaos.js, the full run) and the reduced run
// inside `npm test` (test/chaos/chaos.test.ts). It drives the built CLI (bin/swapx.js → dist/) as a
// user would, against in-process sandboxes (dist/sandbox), and compares every case with a clean run
// of the same query against a sandbox with the same data and no faults: exports byte for byte, syncs
// row for row by id (duplicates, missing, extra and stale rows count as differences).
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startSandbox } from '../dist/sandbox/index.js';

export const BIN = path.resolve(import.meta.dirname, '../bin/swapx.js');

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** A run of the CLI never takes longer than this; past it, it is killed and the case fails. */
const RUN_LIMIT_MS = 180_000;

/** mulberry32: the kill moments of a chaos run are reproducible from its seed. */
export function randomSource(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `count` moments in [minMs, maxMs), rounded to the millisecond, in draw order. */
export function randomMoments(seed, count, minMs, maxMs) {
  const random = randomSource(seed);
  return Array.from({ length: count }, () => Math.round(minMs + random() * (maxMs - minMs)));
}

/**
 * Whether tmpfs mounts work here (root, and a kernel and container that allow them).
 * Returns undefined when they do, else the reason they do not.
 */
export function mountSupport() {
  if (process.platform !== 'linux') return `tmpfs mounts need Linux (this is ${process.platform})`;
  if (typeof process.getuid === 'function' && process.getuid() !== 0) return 'tmpfs mounts need root';
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'swapx-chaos-mnt-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir], { stdio: 'pipe' });
    execFileSync('umount', [dir], { stdio: 'pipe' });
    return undefined;
  } catch (error) {
    const why = String(error.stderr ?? error.message).trim().split('\n')[0];
    return `cannot mount a tmpfs (${why})`;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function mountTmpfs(dir, options) {
  execFileSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', dir], { stdio: 'pipe' });
}

function remount(dir, options) {
  execFileSync('mount', ['-o', `remount,${options}`, dir], { stdio: 'pipe' });
}

function unmount(dir) {
  try {
    execFileSync('umount', [dir], { stdio: 'pipe' });
  } catch {
    // Busy (a process still has a file open): detach now, freed when closed.
    execFileSync('umount', ['-l', dir], { stdio: 'pipe' });
  }
}

function isMounted(dir) {
  const real = fs.realpathSync(dir);
  return fs
    .readFileSync('/proc/self/mountinfo', 'utf8')
    .split('\n')
    .some((line) => line.split(' ')[4] === real);
}

/** KiB of tmpfs with room for `bytes` of output and its temporary copies. */
const roomFor = (bytes) => Math.max(16 * 1024, Math.ceil((bytes * 3) / 1024));

function dirBytes(dir) {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .reduce((sum, entry) => sum + fs.statSync(path.join(entry.parentPath, entry.name)).size, 0);
}

const iso = (ms) => new Date(ms).toISOString().replace('.000Z', 'Z');

function exists(file) {
  return fs.existsSync(file);
}

/** Starts the CLI; `done` resolves with its exit once its streams are closed. */
function spawnSwapx(args, env) {
  const started = performance.now();
  const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
  const watchdog = setTimeout(() => child.kill('SIGKILL'), RUN_LIMIT_MS);
  const done = new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(watchdog);
      resolve({ code, signal, stdout, stderr, ms: performance.now() - started });
    });
  });
  return { child, done };
}

function runSwapx(args, env) {
  return spawnSwapx(args, env).done;
}

/** The retries an export reports in its summary (the last `retries N` on stderr); 0 without one. */
export function exportRetries(stderr) {
  const all = [...stderr.matchAll(/retries\s+([\d,]+)/g)];
  const last = all[all.length - 1];
  return last ? Number(last[1].replace(/,/g, '')) : 0;
}

/** The sum of `retries` over a sync's --summary-json lines. */
export function syncRetries(stderr) {
  let total = 0;
  for (const line of stderr.split('\n')) {
    if (!line.startsWith('{"event":"sync-step"')) continue;
    try {
      total += JSON.parse(line).retries;
    } catch {
      // A line cut by SIGKILL.
    }
  }
  return total;
}

/** Differences between two exports: 0 when byte-identical, else the lines in one but not the other (at least 1). */
export function byteDifferences(actual, expected) {
  if (Buffer.compare(actual, expected) === 0) return 0;
  const count = new Map();
  for (const line of expected.toString('utf8').split('\n')) count.set(line, (count.get(line) ?? 0) + 1);
  let extra = 0;
  for (const line of actual.toString('utf8').split('\n')) {
    const n = count.get(line) ?? 0;
    if (n > 0) count.set(line, n - 1);
    else extra += 1;
  }
  let missing = 0;
  for (const n of count.values()) missing += n;
  // Same lines, other order or bytes: still not identical.
  return Math.max(1, missing + extra);
}

/** Differences between two sets of ids: missing + unexpected + each duplicate written. */
export function idDifferences(actual, expected) {
  const want = new Set(expected);
  const seen = new Set();
  let extra = 0;
  let duplicates = 0;
  for (const id of actual) {
    if (seen.has(id)) duplicates += 1;
    else if (!want.has(id)) extra += 1;
    seen.add(id);
  }
  let missing = 0;
  for (const id of want) if (!seen.has(id)) missing += 1;
  return missing + extra + duplicates;
}

/** The export's file extension: `query.ext` (such as 'parquet'), JSON Lines by default. */
function outputExt(query) {
  return query.ext ?? 'jsonl';
}

/** Every row of a sync dir's partitions (date=*\/part*.jsonl) as [id, line], in file order, duplicates kept. */
export function syncedRows(dir) {
  const rows = [];
  for (const partition of fs.readdirSync(dir).sort()) {
    if (!/^date=\d{4}-\d{2}-\d{2}$/.test(partition)) continue;
    for (const name of fs.readdirSync(path.join(dir, partition)).sort()) {
      if (!/^part(-.*)?\.jsonl$/.test(name)) continue;
      for (const line of fs.readFileSync(path.join(dir, partition, name), 'utf8').split('\n')) {
        if (line !== '') rows.push([String(JSON.parse(line).id), line]);
      }
    }
  }
  return rows;
}

/** Every id in a sync dir, duplicates kept. */
export function syncedIds(dir) {
  return syncedRows(dir).map(([id]) => id);
}

/** idDifferences, plus each row held in another version than the reference's (a stale or wrong row). */
export function rowDifferences(actual, expected) {
  const want = new Map(expected);
  let stale = 0;
  for (const [id, line] of actual) if (want.has(id) && want.get(id) !== line) stale += 1;
  return idDifferences(actual.map(([id]) => id), [...want.keys()]) + stale;
}

/** Hidden files a finished sync must not leave (temporary parts, state or lock files). */
function syncLeftovers(dir) {
  return fs
    .readdirSync(dir, { recursive: true })
    .map(String)
    .filter((name) => path.basename(name).startsWith('.') && name !== '.swapx-sync.json');
}

function faultsText(stats) {
  const parts = Object.entries(stats)
    .filter(([, n]) => n > 0)
    .map(([kind, n]) => `${kind}×${n}`);
  return parts.length ? parts.join(' ') : 'none';
}

function addFaults(total, stats) {
  for (const [kind, n] of Object.entries(stats.faults)) total[kind] = (total[kind] ?? 0) + n;
  return total;
}

function firstLine(text) {
  return text.trim().split('\n')[0] ?? '';
}

/** The one-line errors a run printed, for the notes. */
function errorLines(stderr) {
  return stderr
    .split('\n')
    .filter((line) => line.startsWith('swapx:'))
    .join(' / ');
}

/**
 * One chaos run: the data of its sandboxes, its reference runs, a scratch directory, and what must be
 * cleaned up (sandboxes, mounts). Each case method resolves with a result row and never rejects: a
 * crash of the harness itself is a failed row.
 */
export class Chaos {
  /**
   * @param {object} options
   * @param {number} [options.seed] sandbox data seed
   * @param {number} [options.swapsPerHour]
   * @param {number} [options.now] the sandboxes' clock (fixed, so reference and chaos runs see the same swaps)
   * @param {string} [options.root] scratch directory (default: a new temp dir)
   * @param {(line: string) => void} [options.log]
   */
  constructor(options = {}) {
    const today = Math.floor(Date.now() / DAY) * DAY;
    this.data = { seed: options.seed ?? 7, swapsPerHour: options.swapsPerHour ?? 600 };
    // Today's midnight, and ranges in the three days before: every swap of them is complete and visible, and none is in the future.
    this.now = options.now ?? today;
    this.root = options.root ?? fs.mkdtempSync(path.join(os.tmpdir(), 'swapx-chaos-'));
    this.log = options.log ?? (() => {});
    this.sandboxes = new Set();
    this.mounts = new Set();
    this.references = new Map();
    this.caseCount = 0;
  }

  /** A range of `hours` starting `startHours` after the midnight three days before the sandbox clock (UTC); keep it within 48 h. */
  range(startHours, hours) {
    const day = Math.floor(this.now / DAY) * DAY - 3 * DAY;
    return { from: day + startHours * HOUR, to: day + (startHours + hours) * HOUR };
  }

  async sandbox(options = {}) {
    const now = this.now;
    const sandbox = await startSandbox({ port: 0, ...this.data, now: () => now, retryAfterSeconds: 1, ...options });
    this.sandboxes.add(sandbox);
    return sandbox;
  }

  /** A sandbox with latency, and a promise of its first answer: kill moments count from there, not from a process start slowed by load. */
  async #watchedSandbox(latencyMs) {
    let answered;
    const firstAnswer = new Promise((resolve) => (answered = resolve));
    const sandbox = await this.sandbox({ latencyMs, onRequest: () => answered(performance.now()) });
    return { sandbox, firstAnswer };
  }

  async stopSandbox(sandbox) {
    this.sandboxes.delete(sandbox);
    await sandbox.close();
  }

  env(sandbox) {
    return {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NO_COLOR: '1',
      SWAPX_BASE_URL: sandbox.url,
      SWAPX_CONFIG_DIR: path.join(this.root, 'config'),
      SWAPX_CLIENT_ID: 'demo',
      SWAPX_API_KEY: 'demo',
      // A sync commits every 4 windows (not every 96): a kill falls between commits, not only before the first.
      SWAPX_SYNC_COMMIT_WINDOWS: '4',
    };
  }

  caseDir(name) {
    this.caseCount += 1;
    const dir = path.join(this.root, `${String(this.caseCount).padStart(2, '0')}-${name.replace(/[^\w.]+/g, '-').replace(/^-|-$/g, '')}`);
    fs.mkdirSync(dir, { recursive: true });
    return dir;
  }

  /**
   * @param {{ from: number, to: number, window?: string, concurrency?: number }} query
   * @returns {string[]} the swaps arguments of an export of the query to `file`
   */
  exportArgs(query, file, extra = []) {
    return ['swaps', '--from', iso(query.from), '--to', iso(query.to), '--window', query.window ?? '10m', '--concurrency', String(query.concurrency ?? 4), '-o', file, ...extra];
  }

  /** @param {{ from: number, to: number, concurrency?: number }} query */
  syncArgs(query, dir, extra = []) {
    return ['sync', '--out', dir, '--since', iso(query.from), '--until', iso(query.to), '--concurrency', String(query.concurrency ?? 2), '--summary-json', ...extra];
  }

  /** The bytes of a clean export of the query (same data, no fault, no latency), once per query. */
  exportReference(query) {
    const key = `export ${query.from} ${query.to} ${query.window ?? ''} ${outputExt(query)}`;
    let reference = this.references.get(key);
    if (!reference) {
      reference = (async () => {
        const sandbox = await this.sandbox();
        try {
          const file = path.join(this.caseDir('reference-export'), `clean.${outputExt(query)}`);
          const r = await runSwapx(this.exportArgs(query, file, ['-q']), this.env(sandbox));
          if (r.code !== 0) throw new Error(`the clean reference export failed (exit ${r.code}): ${firstLine(r.stderr)}`);
          const bytes = fs.readFileSync(file);
          // Parquet rows are counted in the JSON Lines export of the same query.
          const rows = outputExt(query) === 'parquet' ? (await this.exportReference({ ...query, ext: undefined })).rows : bytes.toString('utf8').split('\n').filter(Boolean).length;
          return { bytes, rows, ms: r.ms };
        } finally {
          await this.stopSandbox(sandbox);
        }
      })();
      this.references.set(key, reference);
    }
    return reference;
  }

  /** The rows of a clean sync of the query (in one run, at the sandbox clock `now`), once per query and clock. */
  syncReference(query, now = this.now) {
    const key = `sync ${query.from} ${query.to} ${now}`;
    let reference = this.references.get(key);
    if (!reference) {
      reference = (async () => {
        const sandbox = await this.sandbox({ now: () => now });
        try {
          const dir = path.join(this.caseDir('reference-sync'), 'out');
          const r = await runSwapx(this.syncArgs(query, dir, ['-q']), this.env(sandbox));
          if (r.code !== 0) throw new Error(`the clean reference sync failed (exit ${r.code}): ${firstLine(r.stderr)}`);
          const rows = syncedRows(dir);
          if (new Set(rows.map(([id]) => id)).size !== rows.length) throw new Error('the clean reference sync wrote a swap twice');
          return { rows: rows.length, lines: rows, bytes: dirBytes(dir), ms: r.ms };
        } finally {
          await this.stopSandbox(sandbox);
        }
      })();
      this.references.set(key, reference);
    }
    return reference;
  }

  /** Runs `body` as a case: times it, and turns a crash of the harness into a failed row. */
  async #case(name, body) {
    const started = performance.now();
    const row = { case: name, faults: '', retries: 0, rows: 0, differences: null, problems: [], notes: [], ms: 0, runMs: 0 };
    try {
      await body(row);
    } catch (error) {
      row.problems.push(`harness: ${error instanceof Error ? error.message : String(error)}`);
    }
    row.ms = Math.round(performance.now() - started);
    this.log(`${row.problems.length === 0 && row.differences === 0 ? 'ok  ' : 'FAIL'} ${name} (${(row.ms / 1000).toFixed(1)} s)${row.problems.length ? `: ${row.problems.join('; ')}` : ''}`);
    return row;
  }

  /** Checks a finished export: exit 0, the file under its final name, nothing partial left; fills in the differences. */
  #checkExport(row, run, file, reference) {
    if (run.code !== 0) row.problems.push(`exit ${run.code ?? run.signal}: ${firstLine(run.stderr)}`);
    for (const leftover of [`${file}.partial`, `${file}.partial.manifest.json`, `${file}.partial.rowgroups`]) {
      if (exists(leftover)) row.problems.push(`${path.basename(leftover)} left behind`);
    }
    const actual = exists(file) ? fs.readFileSync(file) : Buffer.alloc(0);
    if (!exists(file)) row.problems.push('no file under the final name');
    row.rows = reference.rows;
    row.differences = byteDifferences(actual, reference.bytes);
  }

  /** What a killed or failed export left: `k/N windows` from its manifest, and a check that its recorded bytes are right. */
  #partialState(row, file, reference) {
    const manifestFile = `${file}.partial.manifest.json`;
    if (exists(file)) {
      if (Buffer.compare(fs.readFileSync(file), reference.bytes) !== 0) row.problems.push('a file not identical to the clean run was left under the final name');
      return 'complete';
    }
    if (!exists(manifestFile)) return 'no manifest yet';
    let manifest;
    try {
      manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
    } catch (error) {
      row.problems.push(`unreadable manifest: ${error.message}`);
      return 'bad manifest';
    }
    // Whatever the manifest records as done must be the clean run's first bytes.
    const partial = exists(`${file}.partial`) ? fs.readFileSync(`${file}.partial`) : Buffer.alloc(0);
    if (partial.length < manifest.bytes) row.problems.push(`the partial file (${partial.length} B) is shorter than the manifest records (${manifest.bytes} B)`);
    else if (Buffer.compare(partial.subarray(0, manifest.bytes), reference.bytes.subarray(0, manifest.bytes)) !== 0) {
      row.problems.push('the partial file differs from the clean run within what the manifest records as done');
    }
    return `${manifest.windowsDone}/${manifest.windowsTotal} windows`;
  }

  /**
   * An export through a fault rate. Exit 0 is expected (retries ride through); should a window still
   * fail after its retries, the export is resumed (noted) until it completes.
   * @param {{ name: string, query: object, rate: number, kinds?: string[], slowMs?: number, timeout?: string, retries?: number }} spec
   */
  faultRate(spec) {
    return this.#case(spec.name, async (row) => {
      const reference = await this.exportReference(spec.query);
      const sandbox = await this.sandbox({ faultRate: spec.rate, faultKinds: spec.kinds, slowMs: spec.slowMs });
      try {
        const file = path.join(this.caseDir(spec.name), `x.${outputExt(spec.query)}`);
        const args = this.exportArgs(spec.query, file, ['--timeout', spec.timeout ?? '1s', '--retries', String(spec.retries ?? 10)]);
        let run = await runSwapx(args, this.env(sandbox));
        row.retries += exportRetries(run.stderr);
        for (let resumes = 0; run.code === 1 && resumes < 3; resumes += 1) {
          row.notes.push(`exit 1 (${errorLines(run.stderr)}), resumed`);
          run = await runSwapx([...args, '--resume'], this.env(sandbox));
          row.retries += exportRetries(run.stderr);
        }
        const stats = sandbox.stats();
        row.faults = `${faultsText(stats.faults)} of ${stats.requests} requests`;
        this.#checkExport(row, run, file, reference);
        if (Object.values(stats.faults).every((n) => n === 0)) row.problems.push('no fault was injected');
      } finally {
        await this.stopSandbox(sandbox);
      }
    });
  }

  /**
   * A sync through a fault rate: exit 0 expected; should a window still fail after its retries, the sync is run again (noted).
   * @param {{ name: string, query: object, rate: number, kinds?: string[], slowMs?: number, timeout?: string, retries?: number }} spec
   */
  syncFaultRate(spec) {
    return this.#case(spec.name, async (row) => {
      const reference = await this.syncReference(spec.query);
      const sandbox = await this.sandbox({ faultRate: spec.rate, faultKinds: spec.kinds, slowMs: spec.slowMs });
      try {
        const dir = path.join(this.caseDir(spec.name), 'out');
        const args = this.syncArgs(spec.query, dir, ['--timeout', spec.timeout ?? '1s', '--retries', String(spec.retries ?? 10)]);
        let run = await runSwapx(args, this.env(sandbox));
        row.retries += syncRetries(run.stderr);
        for (let reruns = 0; run.code === 1 && reruns < 3; reruns += 1) {
          row.notes.push(`exit 1 (${errorLines(run.stderr)}), run again`);
          run = await runSwapx(args, this.env(sandbox));
          row.retries += syncRetries(run.stderr);
        }
        const stats = sandbox.stats();
        row.faults = `${faultsText(stats.faults)} of ${stats.requests} requests`;
        this.#checkSync(row, run, dir, reference);
        if (Object.values(stats.faults).every((n) => n === 0)) row.problems.push('no fault was injected');
      } finally {
        await this.stopSandbox(sandbox);
      }
    });
  }

  /**
   * An export with latency but no fault: the baseline, and how long a run takes (row.runMs) to spread kill moments over.
   * @param {{ name: string, query: object, latencyMs?: number }} spec
   */
  exportClean(spec) {
    return this.#case(spec.name, async (row) => {
      const reference = await this.exportReference(spec.query);
      const { sandbox, firstAnswer } = await this.#watchedSandbox(spec.latencyMs ?? 25);
      try {
        const file = path.join(this.caseDir(spec.name), `x.${outputExt(spec.query)}`);
        const run = await runSwapx(this.exportArgs(spec.query, file), this.env(sandbox));
        row.faults = `none (latency ${spec.latencyMs ?? 25} ms)`;
        row.runMs = Math.round(performance.now() - (await firstAnswer));
        row.retries = exportRetries(run.stderr);
        this.#checkExport(row, run, file, reference);
      } finally {
        await this.stopSandbox(sandbox);
      }
    });
  }

  /**
   * A sync with latency but no fault: the baseline, and how long a run takes (row.runMs).
   * @param {{ name: string, query: object, latencyMs?: number }} spec
   */
  syncClean(spec) {
    return this.#case(spec.name, async (row) => {
      const reference = await this.syncReference(spec.query);
      const { sandbox, firstAnswer } = await this.#watchedSandbox(spec.latencyMs ?? 25);
      try {
        const dir = path.join(this.caseDir(spec.name), 'out');
        const run = await runSwapx(this.syncArgs(spec.query, dir), this.env(sandbox));
        row.faults = `none (latency ${spec.latencyMs ?? 25} ms)`;
        row.runMs = Math.round(performance.now() - (await firstAnswer));
        row.retries = syncRetries(run.stderr);
        this.#checkSync(row, run, dir, reference);
      } finally {
        await this.stopSandbox(sandbox);
      }
    });
  }

  /**
   * An export killed with SIGKILL `moment` ms after the sandbox's first answer to it, then resumed with --resume.
   * @param {{ name: string, query: object, moment: number, latencyMs?: number }} spec
   */
  exportKill(spec) {
    return this.#case(spec.name, async (row) => {
      const reference = await this.exportReference(spec.query);
      const { sandbox, firstAnswer } = await this.#watchedSandbox(spec.latencyMs ?? 25);
      try {
        const file = path.join(this.caseDir(spec.name), `x.${outputExt(spec.query)}`);
        const args = this.exportArgs(spec.query, file);
        const { child, done } = spawnSwapx(args, this.env(sandbox));
        await Promise.race([firstAnswer.then(() => sleep(spec.moment)), done]);
        child.kill('SIGKILL');
        const killed = await done;
        const state = this.#partialState(row, file, reference);
        row.faults = killed.signal === 'SIGKILL' ? `SIGKILL at +${spec.moment} ms (${state})` : `none: done before +${spec.moment} ms`;
        if (!exists(file) || exists(`${file}.partial.manifest.json`)) {
          const run = await runSwapx([...args, '--resume'], this.env(sandbox));
          if (run.code === 0 && state.endsWith('windows') && !/^Resuming: \d+\/\d+ windows already done/m.test(run.stderr)) row.problems.push('the resume did not say it resumed');
          row.retries = exportRetries(run.stderr);
          this.#checkExport(row, run, file, reference);
        } else {
          // Done (file renamed, manifest removed) before it died, or before the kill: nothing to resume.
          if (killed.signal === 'SIGKILL') row.faults = `SIGKILL at +${spec.moment} ms (after the rename, before the exit)`;
          row.retries = exportRetries(killed.stderr);
          this.#checkExport(row, { ...killed, code: killed.signal === 'SIGKILL' ? 0 : killed.code }, file, reference);
        }
      } finally {
        await this.stopSandbox(sandbox);
      }
    });
  }

  /**
   * A sync killed with SIGKILL `moment` ms after the sandbox's first answer to it, then run again to the end.
   * @param {{ name: string, query: object, moment: number, latencyMs?: number }} spec
   */
  syncKill(spec) {
    return this.#case(spec.name, async (row) => {
      const reference = await this.syncReference(spec.query);
      const { sandbox, firstAnswer } = await this.#watchedSandbox(spec.latencyMs ?? 25);
      try {
        const dir = path.join(this.caseDir(spec.name), 'out');
        const args = this.syncArgs(spec.query, dir);
        const { child, done } = spawnSwapx(args, this.env(sandbox));
        await Promise.race([firstAnswer.then(() => sleep(spec.moment)), done]);
        child.kill('SIGKILL');
        const killed = await done;
        const parts = exists(dir) ? syncedIds(dir).length : 0;
        row.faults = killed.signal === 'SIGKILL' ? `SIGKILL at +${spec.moment} ms (${parts} swaps in parts)` : `none: done before +${spec.moment} ms`;
        row.retries = syncRetries(killed.stderr);
        const run = await runSwapx(args, this.env(sandbox));
        row.retries += syncRetries(run.stderr);
        this.#checkSync(row, run, dir, reference);
      } finally {
        await this.stopSandbox(sandbox);
      }
    });
  }

  #checkSync(row, run, dir, reference) {
    if (run.code !== 0) row.problems.push(`exit ${run.code ?? run.signal}: ${firstLine(run.stderr)}`);
    const rows = exists(dir) ? syncedRows(dir) : [];
    const leftovers = exists(dir) ? syncLeftovers(dir) : [];
    if (leftovers.length) row.problems.push(`left behind: ${leftovers.join(', ')}`);
    row.rows = reference.rows;
    row.differences = rowDifferences(rows, reference.lines);
  }

  /**
   * Updates after completion: a clean sync of the query at the chaos clock, then the sandbox restarted on the
   * same port with its clock `laterDays` on (first updates, corrections after 2 and 5 days happened since) and
   * latency, and the catch-up run killed with SIGKILL `moment` ms after the first answer (or through fault rate
   * `rate`), then run again. It must hold, row for row, what a clean sync made at the later clock holds.
   * @param {{ name: string, query: object, laterDays: number, moment?: number, rate?: number, latencyMs?: number }} spec
   */
  syncUpdates(spec) {
    return this.#case(spec.name, async (row) => {
      const later = this.now + spec.laterDays * DAY;
      const reference = await this.syncReference(spec.query, later);
      const dir = path.join(this.caseDir(spec.name), 'out');
      let sandbox = await this.sandbox();
      const port = sandbox.port;
      let live = true;
      try {
        const args = this.syncArgs(spec.query, dir);
        const first = await runSwapx(args, this.env(sandbox));
        if (first.code !== 0) row.problems.push(`the first sync failed (exit ${first.code}): ${firstLine(first.stderr)}`);
        live = false;
        await this.stopSandbox(sandbox);
        let answered;
        const firstAnswer = new Promise((resolve) => (answered = resolve));
        const options = { now: () => later, latencyMs: spec.latencyMs ?? 10, onRequest: () => answered(performance.now()) };
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
          row.faults = killed.signal === 'SIGKILL' ? `+${spec.laterDays} d, SIGKILL at +${spec.moment} ms of the catch-up` : `+${spec.laterDays} d, none: done before +${spec.moment} ms`;
          row.retries = syncRetries(killed.stderr);
        }
        let run = await runSwapx(catchUp, this.env(sandbox));
        for (let reruns = 0; run.code === 1 && reruns < 3; reruns += 1) {
          row.notes.push(`exit 1 (${errorLines(run.stderr)}), run again`);
          run = await runSwapx(catchUp, this.env(sandbox));
        }
        row.retries += syncRetries(run.stderr);
        if (spec.rate !== undefined) row.faults = `+${spec.laterDays} d, ${faultsText(sandbox.stats().faults)} of ${sandbox.stats().requests} requests`;
        const updated = [...run.stderr.matchAll(/"updatedSwaps":(\d+)/g)].reduce((n, m) => n + Number(m[1]), 0);
        if (spec.moment === undefined && updated === 0) row.problems.push('the catch-up updated no swap');
        this.#checkSync(row, run, dir, reference);
      } finally {
        if (live) await this.stopSandbox(sandbox);
      }
    });
  }

  /**
   * The sandbox stopped once `afterWindows` windows are saved, and started again on the same port
   * `outageMs` later. With enough retries the export rides through; with `--retries 0` it exits 1 and
   * `--resume` (once the sandbox is back) completes it.
   * @param {{ name: string, query: object, retries: number, outageMs?: number, afterWindows?: number, latencyMs?: number }} spec
   */
  sandboxRestart(spec) {
    return this.#case(spec.name, async (row) => {
      const reference = await this.exportReference(spec.query);
      const options = { latencyMs: spec.latencyMs ?? 25 };
      let sandbox = await this.sandbox(options);
      const port = sandbox.port;
      const faults = {};
      let live = true;
      try {
        const file = path.join(this.caseDir(spec.name), `x.${outputExt(spec.query)}`);
        const args = this.exportArgs(spec.query, file, ['--retries', String(spec.retries)]);
        const { done } = spawnSwapx(args, this.env(sandbox));
        const manifest = `${file}.partial.manifest.json`;
        const want = spec.afterWindows ?? 2;
        const deadline = Date.now() + 30_000;
        let finished = false;
        void done.then(() => (finished = true));
        for (;;) {
          let windowsDone = 0;
          try {
            windowsDone = JSON.parse(fs.readFileSync(manifest, 'utf8')).windowsDone;
          } catch {
            // Not written yet, or being replaced.
          }
          if (windowsDone >= want || finished || Date.now() > deadline) break;
          await sleep(5);
        }
        addFaults(faults, sandbox.stats());
        live = false;
        await this.stopSandbox(sandbox);
        const outageMs = spec.outageMs ?? 1500;
        row.faults = `outage of ${outageMs} ms after ${finished ? 'the end (too late)' : this.#partialState(row, file, reference)}`;
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
          run = await runSwapx([...args, '--resume'], this.env(sandbox));
          row.retries += exportRetries(run.stderr);
        }
        this.#checkExport(row, run, file, reference);
      } finally {
        if (live) {
          addFaults(faults, sandbox.stats());
          await this.stopSandbox(sandbox);
        }
      }
      const injected = faultsText(faults);
      if (injected !== 'none') row.faults += `, ${injected}`;
    });
  }

  async #restart(port, options) {
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await this.sandbox({ ...options, port });
      } catch (error) {
        if (error.code !== 'EADDRINUSE' || attempt >= 20) throw error;
        await sleep(100);
      }
    }
  }

  async #withMount(name, options, body) {
    const dir = path.join(this.caseDir(name), 'mnt');
    fs.mkdirSync(dir);
    mountTmpfs(dir, options);
    this.mounts.add(dir);
    try {
      return await body(dir);
    } finally {
      this.mounts.delete(dir);
      unmount(dir);
    }
  }

  /**
   * An export to a tmpfs too small for it (`sizeShare` of the clean export's size): exit 1 with a one-line
   * "no space left on device" error and nothing under the final name; once the tmpfs is enlarged, --resume completes it.
   * @param {{ name: string, query: object, sizeShare: number }} spec
   */
  exportFullDisk(spec) {
    return this.#case(spec.name, async (row) => {
      const reference = await this.exportReference(spec.query);
      const sizeKb = Math.ceil((reference.bytes.length * spec.sizeShare) / 1024);
      const sandbox = await this.sandbox();
      try {
        await this.#withMount(spec.name, `size=${sizeKb}k`, async (mnt) => {
          const file = path.join(mnt, 'x.jsonl');
          const args = this.exportArgs(spec.query, file);
          const full = await runSwapx(args, this.env(sandbox));
          const state = this.#partialState(row, file, reference);
          row.faults = `ENOSPC (tmpfs ${sizeKb} KiB) after ${state}`;
          this.#expectFailure(row, full, /^swapx: error: writing \S+: no space left on device; \d+\/\d+ windows saved in \S+; resume with: swapx swaps .* --resume$/);
          if (exists(file)) row.problems.push('a file was left under the final name');
          remount(mnt, `size=${roomFor(reference.bytes.length)}k`);
          const run = await runSwapx([...args, '--resume'], this.env(sandbox));
          row.retries = exportRetries(run.stderr);
          this.#checkExport(row, run, file, reference);
        });
      } finally {
        await this.stopSandbox(sandbox);
      }
    });
  }

  /**
   * An export into a read-only directory (root ignores permission bits; a read-only mount does not):
   * exit 1 with a one-line "read-only file system" error, nothing written; once writable, --resume completes it.
   * @param {{ name: string, query: object }} spec
   */
  exportReadOnly(spec) {
    return this.#case(spec.name, async (row) => {
      const reference = await this.exportReference(spec.query);
      const sandbox = await this.sandbox();
      try {
        await this.#withMount(spec.name, `ro,size=${roomFor(reference.bytes.length)}k`, async (mnt) => {
          const file = path.join(mnt, 'x.jsonl');
          const args = this.exportArgs(spec.query, file);
          const refused = await runSwapx(args, this.env(sandbox));
          row.faults = 'EROFS (read-only output dir)';
          this.#expectFailure(row, refused, /^swapx: error: read-only file system/);
          if (fs.readdirSync(mnt).length > 0) row.problems.push(`files appeared in a read-only dir: ${fs.readdirSync(mnt).join(', ')}`);
          remount(mnt, 'rw');
          const run = await runSwapx([...args, '--resume'], this.env(sandbox));
          row.retries = exportRetries(run.stderr);
          this.#checkExport(row, run, file, reference);
        });
      } finally {
        await this.stopSandbox(sandbox);
      }
    });
  }

  /**
   * A sync into a tmpfs too small for it (`sizeShare` of the clean sync's size): exit 1 with a one-line error;
   * once enlarged, a rerun completes the set.
   * @param {{ name: string, query: object, sizeShare: number }} spec
   */
  syncFullDisk(spec) {
    return this.#case(spec.name, async (row) => {
      const reference = await this.syncReference(spec.query);
      const sizeKb = Math.ceil((reference.bytes * spec.sizeShare) / 1024);
      const sandbox = await this.sandbox();
      try {
        await this.#withMount(spec.name, `size=${sizeKb}k`, async (mnt) => {
          const dir = path.join(mnt, 'out');
          const args = this.syncArgs(spec.query, dir);
          const full = await runSwapx(args, this.env(sandbox));
          row.retries = syncRetries(full.stderr);
          row.faults = `ENOSPC (tmpfs ${sizeKb} KiB) after ${exists(dir) ? syncedIds(dir).length : 0} swaps in parts`;
          this.#expectFailure(row, full, /^swapx: error: writing \S+: no space left on device; synced up to \S+Z; run the same command again to continue$/);
          remount(mnt, `size=${roomFor(reference.bytes)}k`);
          const run = await runSwapx(args, this.env(sandbox));
          row.retries += syncRetries(run.stderr);
          this.#checkSync(row, run, dir, reference);
        });
      } finally {
        await this.stopSandbox(sandbox);
      }
    });
  }

  /**
   * A sync into a read-only directory: exit 1 with a one-line error, nothing written; once writable, a rerun completes the set.
   * @param {{ name: string, query: object }} spec
   */
  syncReadOnly(spec) {
    return this.#case(spec.name, async (row) => {
      const reference = await this.syncReference(spec.query);
      const sandbox = await this.sandbox();
      try {
        await this.#withMount(spec.name, `ro,size=${roomFor(reference.bytes)}k`, async (dir) => {
          const args = this.syncArgs(spec.query, dir);
          const refused = await runSwapx(args, this.env(sandbox));
          row.faults = 'EROFS (read-only output dir)';
          this.#expectFailure(row, refused, /^swapx: error: .*read-only file system/);
          remount(dir, 'rw');
          const run = await runSwapx(args, this.env(sandbox));
          row.retries = syncRetries(run.stderr);
          this.#checkSync(row, run, dir, reference);
        });
      } finally {
        await this.stopSandbox(sandbox);
      }
    });
  }

  /** A failed run must exit 1 with exactly one error line matching `pattern` (summary lines aside). */
  #expectFailure(row, run, pattern) {
    const errors = run.stderr.split('\n').filter((line) => line.startsWith('swapx:'));
    row.notes.push(`exit ${run.code}: ${errors.join(' / ') || '(no error line)'}`);
    if (run.code !== 1) row.problems.push(`expected exit 1, got ${run.code ?? run.signal}`);
    if (errors.length !== 1 || !pattern.test(errors[0] ?? '')) row.problems.push(`expected one error line like ${pattern}, got: ${errors.join(' / ') || firstLine(run.stderr) || '(nothing)'}`);
  }

  /** Stops every sandbox, detaches every mount still attached, and removes the scratch dir unless `keep`. */
  async close({ keep = false } = {}) {
    await Promise.all([...this.sandboxes].map((sandbox) => sandbox.close().catch(() => {})));
    this.sandboxes.clear();
    for (const dir of this.mounts) {
      try {
        if (isMounted(dir)) unmount(dir);
      } catch {
        // Reported by the mount table; nothing more to do here.
      }
    }
    this.mounts.clear();
    if (!keep) fs.rmSync(this.root, { recursive: true, force: true });
  }
}

/** Runs case thunks at most `concurrency` at a time; the rows come back in the order given. */
export async function runCases(thunks, concurrency = 2) {
  const rows = new Array(thunks.length);
  let next = 0;
  const worker = async () => {
    while (next < thunks.length) {
      const index = next++;
      rows[index] = await thunks[index]();
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, thunks.length) }, worker));
  return rows;
}

/** Whether a row passed: compared, no difference, no problem. */
export function passed(row) {
  return row.differences === 0 && row.problems.length === 0;
}

/** The table: case, faults injected, retries, rows compared, differences (and the verdict). */
export function formatTable(rows) {
  const header = ['case', 'faults injected', 'retries', 'rows compared', 'differences', 'result'];
  const body = rows.map((row) => [
    row.case,
    row.faults || '—',
    String(row.retries),
    String(row.rows),
    row.differences === null ? 'n/a' : String(row.differences),
    passed(row) ? 'ok' : 'FAIL',
  ]);
  const total = [
    `total: ${rows.length} cases`,
    '',
    String(rows.reduce((sum, row) => sum + row.retries, 0)),
    String(rows.reduce((sum, row) => sum + row.rows, 0)),
    String(rows.reduce((sum, row) => sum + (row.differences ?? 0), 0)),
    `${rows.filter(passed).length}/${rows.length} ok`,
  ];
  const all = [header, ...body, total];
  const widths = header.map((_, i) => Math.max(...all.map((cells) => cells[i].length)));
  const numeric = new Set([2, 3, 4]);
  const line = (cells) => cells.map((cell, i) => (numeric.has(i) ? cell.padStart(widths[i]) : cell.padEnd(widths[i]))).join('  ').trimEnd();
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  return [line(header), rule, ...body.map(line), rule, line(total)].join('\n');
}

/** What went wrong or is worth knowing, case by case (problems first). */
export function formatNotes(rows) {
  const lines = [];
  for (const row of rows) {
    for (const problem of row.problems) lines.push(`FAIL ${row.case}: ${problem}`);
    for (const note of row.notes) lines.push(`note ${row.case}: ${note}`);
  }
  return lines.join('\n');
}
