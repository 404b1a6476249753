/** Reading a sync directory back, and what the sandbox says it should hold. */
import { expect } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { swapsInWindow, type DataOptions } from '../../src/sandbox/index.js';
import { sandboxEnv, tempDir, type CliResult } from './cli.js';
import { expectEqual } from './equal.js';
import { syncLeftovers } from '../../scripts/chaos/compare.js';

export interface PartFile {
  /** date=YYYY-MM-DD/part.jsonl … */
  relative: string;
  date: string;
  rows: Record<string, unknown>[];
  /** first line of the (decompressed) text */
  firstLine: string;
}

export function readParts(dir: string): PartFile[] {
  const parts: PartFile[] = [];
  for (const partition of fs.readdirSync(dir).sort()) {
    const date = /^date=(\d{4}-\d{2}-\d{2})$/.exec(partition)?.[1];
    if (!date) continue;
    for (const name of fs.readdirSync(path.join(dir, partition)).sort()) {
      const bytes = fs.readFileSync(path.join(dir, partition, name));
      const text = (name.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
      const rows = /\.csv(\.gz)?$/.test(name)
        ? (parse(text, { columns: true }) as Record<string, unknown>[])
        : text
            .split('\n')
            .filter((line) => line !== '')
            .map((line) => JSON.parse(line) as Record<string, unknown>);
      parts.push({ relative: `${partition}/${name}`, date, rows, firstLine: text.slice(0, text.indexOf('\n')) });
    }
  }
  return parts;
}

/** Every id written, in part order (duplicates kept, so a test can count them). */
export function writtenIds(dir: string): string[] {
  return readParts(dir).flatMap((part) => part.rows.map((row) => String(row.id)));
}

/**
 * Every partition is one file holding only rows of its date, one per id, sorted by completedAt then id;
 * no id is in two partitions, and no temporary file or lock is left.
 */
export function expectTidy(dir: string): void {
  const ids = new Set<string>();
  for (const part of readParts(dir)) {
    expect(part.relative).toMatch(/^date=\d{4}-\d{2}-\d{2}\/part\.(jsonl|csv)(\.gz)?$/);
    // Gathered, then asserted once: an expect per row cost more than the reading (thousands of rows per mirror).
    const strays: string[] = [];
    const repeated: string[] = [];
    for (const row of part.rows) {
      const id = String(row.id);
      if (new Date(Date.parse(String(row.completedAt))).toISOString().slice(0, 10) !== part.date) strays.push(`${id} (${String(row.completedAt)})`);
      if (ids.has(id)) repeated.push(id);
      ids.add(id);
    }
    expect({ [`not of ${part.date}`]: strays, 'held twice': repeated }).toEqual({ [`not of ${part.date}`]: [], 'held twice': [] });
    const keys = part.rows.map((row) => [Date.parse(String(row.completedAt)), String(row.id)] as const);
    const sortedKeys = [...keys].sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
    expectEqual(keys, sortedKeys);
  }
  expect(syncLeftovers(dir)).toEqual([]);
}

/** The ids a clean sync of [from, to) holds when the sandbox clock reads `now`, sorted. */
export function expectedIds(data: DataOptions, from: string, to: string, now: number): string[] {
  return swapsInWindow({ from, to, filter: 'Completed', now }, data)
    .filter((swap) => Date.parse(swap.completedAt) < Date.parse(to))
    .map((swap) => swap.id!)
    .sort();
}

/**
 * What the API serves at `now` for swaps completed in [from, to), in a mirror's order (by id here),
 * as JSON Lines would hold them: the rows a mirror of that range must equal.
 */
export function expectedRows(data: DataOptions, from: string, to: string, now: number): Record<string, unknown>[] {
  return swapsInWindow({ from, to, filter: 'Completed', now }, data)
    .filter((swap) => Date.parse(swap.completedAt) < Date.parse(to))
    .map((swap) => JSON.parse(JSON.stringify(swap)) as Record<string, unknown>)
    .sort((a, b) => (String(a.id) < String(b.id) ? -1 : 1));
}

/** Every row of a sync dir, by id. */
export function mirrorRows(dir: string): Record<string, unknown>[] {
  return readParts(dir)
    .flatMap((part) => part.rows)
    .sort((a, b) => (String(a.id) < String(b.id) ? -1 : 1));
}

/** Bytes of every data file of a dir (state excluded), by relative path. */
export function snapshotData(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of fs.readdirSync(dir, { recursive: true }).map(String).sort()) {
    const full = path.join(dir, name);
    if (name.startsWith('date=') && fs.statSync(full).isFile()) out[name] = fs.readFileSync(full).toString('base64');
  }
  return out;
}

export function sorted(ids: readonly string[]): string[] {
  return [...ids].sort();
}

export function syncEnv(sandbox: RunningSandbox): NodeJS.ProcessEnv {
  return sandboxEnv(sandbox.url, path.join(tempDir('swapx-cfg-'), 'cfg'));
}

export interface StepLine {
  event: 'sync-step';
  newSwaps: number;
  lateSwaps: number;
  updatedSwaps: number;
  outsideWindow: number;
  cursor: string;
  updatedCursor: string;
  windows: number;
  requests: number;
  retries: number;
  elapsedMs: number;
  parts: string[];
  complete: boolean;
}

/** The --summary-json lines of a run's stderr. */
export function stepLines(result: Pick<CliResult, 'stderr'>): StepLine[] {
  return result.stderr
    .split('\n')
    .filter((line) => line.startsWith('{"event":"sync-step"'))
    .map((line) => JSON.parse(line) as StepLine);
}

export function readState(dir: string): Record<string, unknown> & { cursor: string; updatedCursor: string } {
  return JSON.parse(fs.readFileSync(path.join(dir, '.swapx-sync.json'), 'utf8'));
}

/** The pid of no process (one above the largest the kernel hands out): the owner of a lock that is surely gone. */
export function deadPid(): number {
  try {
    return Number(fs.readFileSync('/proc/sys/kernel/pid_max', 'utf8')) + 1;
  } catch {
    return 2 ** 22 + 1;
  }
}
