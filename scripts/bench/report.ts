// Plain-text tables and the machine the bench ran on.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';

/** A column: its header and its alignment (left or right). */
export type Column = readonly [header: string, align: 'l' | 'r'];

/**
 * An aligned table: `columns` are [header, align] with align 'l' or 'r'; rows are arrays of strings.
 * Notes follow the table, one per line.
 */
export function table(title: string, columns: readonly Column[], rows: readonly (readonly string[])[], notes: readonly string[] = []): string {
  const widths = columns.map(([header], i) => Math.max(header.length, ...rows.map((row) => (row[i] ?? '').length)));
  const cell = (text: string, i: number) => (columns[i]?.[1] === 'r' ? text.padStart(widths[i] ?? 0) : text.padEnd(widths[i] ?? 0));
  const line = (cells: readonly string[]) => cells.map(cell).join('  ').trimEnd();
  return [
    title,
    '',
    `  ${line(columns.map(([header]) => header))}`,
    `  ${widths.map((w) => '-'.repeat(w)).join('  ')}`,
    ...rows.map((row) => `  ${line(row)}`),
    ...(notes.length ? ['', ...notes.map((note) => `  ${note}`)] : []),
    '',
  ].join('\n');
}

export const verdict = (pass: boolean | null | undefined): string => (pass ? 'PASS' : 'MISS');
export const fixed = (n: number, digits = 2): string => (Number.isFinite(n) ? n.toFixed(digits) : '-');
export const grouped = (n: number): string => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '-');
/** GNU time reports KiB; the targets are in MB (10^6 bytes). */
export const kibToMB = (kib: number): number => (kib * 1024) / 1e6;

function cpuModel(): string {
  try {
    const line = fs
      .readFileSync('/proc/cpuinfo', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('model name'));
    return line ? line.slice(line.indexOf(':') + 1).trim() : (os.cpus()[0]?.model ?? 'unknown');
  } catch {
    return os.cpus()[0]?.model ?? 'unknown';
  }
}

function gitHead(cwd: string): string {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--', 'src', 'bin', 'package.json'], {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    return dirty ? `${head} + uncommitted changes to src/, bin/ or package.json` : head;
  } catch {
    return 'unknown';
  }
}

export const loadAverage = (): number[] => os.loadavg().map((n) => Number(n.toFixed(2)));

/** The machine and checkout the bench ran on, as printed and written to bench-results.json. */
export interface Machine {
  cpu: string;
  cores: number;
  memoryGB: number;
  node: string;
  os: string;
  date: string;
  commit: string;
  loadAverageAtStart: number[];
}

export function machine(root: string): Machine {
  return {
    cpu: cpuModel(),
    cores: os.availableParallelism(),
    memoryGB: Number((os.totalmem() / 1e9).toFixed(1)),
    node: process.version,
    os: `${os.type()} ${os.release()}`,
    date: new Date().toISOString(),
    commit: gitHead(root),
    loadAverageAtStart: loadAverage(),
  };
}
