/**
 * Tables for people: aligned columns that fit the terminal, control
 * characters stripped, colour only when allowed. Too wide a table first
 * loses its least useful columns, then cuts cells (hashes in the middle, so
 * both ends stay recognisable).
 */
import { parseApiTime } from '../util/time.js';
import { stripControl } from './sanitize.js';

/** Where a cell too long for its column loses characters; 'never' keeps it whole (ids people paste). Unset: 'end'. */
export type Truncate = 'end' | 'middle' | 'never';

export interface Column<T> {
  header: string;
  value: (row: T) => string;
  align?: 'left' | 'right';
  /** colours the padded cell; receives the raw text */
  style?: (padded: string, raw: string) => string;
  /** higher stays longer on a narrow terminal; default: earlier columns rank higher */
  priority?: number;
  /** never dropped for width (the identifier, a column the user asked for) */
  required?: boolean;
  /** the narrowest the column is still useful at; default 8 */
  minWidth?: number;
  truncate?: Truncate;
}

/** Used when the terminal does not say (piped output, a file): what most terminals open at. */
const DEFAULT_TERMINAL_WIDTH = 80;
const DEFAULT_MIN_WIDTH = 8;
const GAP = '  ';

/** The width to fit: the stream's own when it is a terminal, else $COLUMNS, else 80. */
export function terminalWidth(stream: { columns?: number; isTTY?: boolean }, env: NodeJS.ProcessEnv = {}): number {
  if (stream.isTTY === true && Number.isInteger(stream.columns) && stream.columns! > 0) return stream.columns!;
  const fromEnv = Number(env.COLUMNS);
  if (Number.isInteger(fromEnv) && fromEnv > 0) return fromEnv;
  return DEFAULT_TERMINAL_WIDTH;
}

export function textWidth(text: string): number {
  return [...text].length;
}

/** Cuts text to `width` characters with an ellipsis: at the end (`mode` unset or 'end'), or in the middle for hashes and addresses. */
export function cut(text: string, width: number, mode?: Truncate): string {
  const chars = [...text];
  if (chars.length <= width || mode === 'never') return text;
  if (width <= 1) return chars.slice(0, width).join('');
  if (mode === 'middle' && width >= 5) {
    const tail = Math.floor((width - 1) / 2);
    const head = width - 1 - tail;
    return `${chars.slice(0, head).join('')}…${chars.slice(chars.length - tail).join('')}`;
  }
  return `${chars.slice(0, width - 1).join('')}…`;
}

export interface FitColumn {
  /** the width it would like (its widest cell) */
  width: number;
  minWidth: number;
  priority: number;
  required: boolean;
}

/**
 * The width of each column on a line of `available` characters, or undefined
 * for a column dropped. Drops the lowest-priority column while cutting every
 * kept one to its minimum could not absorb the overflow; then cuts the
 * widest columns, down to each minimum. Required columns are never dropped,
 * so a line may still overflow when they alone do not fit.
 */
export function fitWidths(columns: readonly FitColumn[], available: number, gapWidth = GAP.length): (number | undefined)[] {
  const widths: (number | undefined)[] = columns.map((c) => c.width);
  const total = () => {
    const kept = widths.filter((w): w is number => w !== undefined);
    return kept.reduce((sum, w) => sum + w, 0) + gapWidth * Math.max(0, kept.length - 1);
  };
  // Lowest priority first; among equals, the later column first.
  const order = columns.map((_, i) => i).sort((a, b) => columns[a]!.priority - columns[b]!.priority || b - a);
  // Nothing is dropped from a line that fits: the slack (never negative) covers an overflow of 0 or less.
  for (;;) {
    const overflow = total() - available;
    const lowestDroppable = order.find((i) => widths[i] !== undefined && !columns[i]!.required);
    const slack = columns.reduce((sum, c, i) => sum + (widths[i] === undefined ? 0 : widths[i]! - Math.min(c.minWidth, widths[i]!)), 0);
    if (slack >= overflow || lowestDroppable === undefined) break;
    widths[lowestDroppable] = undefined;
  }
  // A character at a time from the widest column that can give one: cut columns end up alike.
  for (let overflow = total() - available; overflow > 0; overflow -= 1) {
    let widest: number | undefined;
    for (const i of order) {
      const w = widths[i];
      if (w === undefined || w <= columns[i]!.minWidth) continue;
      if (widest === undefined || w > widths[widest]!) widest = i;
    }
    if (widest === undefined) break;
    widths[widest]! -= 1;
  }
  return widths;
}

/** A column's fitting facts from its definition and its widest cell. */
export function fitColumn(column: Pick<Column<unknown>, 'priority' | 'required' | 'minWidth' | 'truncate'>, index: number, width: number): FitColumn {
  const minWidth = column.truncate === 'never' ? width : Math.min(width, column.minWidth ?? DEFAULT_MIN_WIDTH);
  return { width, minWidth, priority: column.priority ?? -index, required: column.required === true };
}

export interface TableOptions {
  header?: (text: string) => string;
  /** the line width to fit; default: no limit */
  maxWidth?: number;
}

export function renderTable<T>(columns: readonly Column<T>[], rows: readonly T[], options: TableOptions = {}): string {
  const all = rows.map((row) => columns.map((column) => stripControl(column.value(row))));
  const natural = columns.map((column, i) => Math.max(textWidth(column.header), ...all.map((row) => textWidth(row[i]!))));
  const fitted = fitWidths(
    columns.map((column, i) => fitColumn(column, i, natural[i]!)),
    options.maxWidth ?? Number.POSITIVE_INFINITY,
  );
  const kept = columns.map((_, i) => i).filter((i) => fitted[i] !== undefined);
  // A header is cut at its end, whatever its column's cells.
  const pad = (text: string, i: number, header = false) => {
    const column = columns[i]!;
    const shown = cut(text, fitted[i]!, header ? undefined : column.truncate);
    const gap = ' '.repeat(Math.max(0, fitted[i]! - textWidth(shown)));
    return { shown, padded: column.align === 'right' ? gap + shown : shown + gap };
  };
  const headerLine = kept
    .map((i) => pad(columns[i]!.header, i, true).padded)
    .join(GAP)
    .trimEnd();
  const lines = [options.header ? options.header(headerLine) : headerLine];
  for (const row of all) {
    lines.push(
      kept
        .map((i) => {
          const { padded } = pad(row[i]!, i);
          const style = columns[i]!.style;
          return style ? style(padded, row[i]!) : padded;
        })
        .join(GAP)
        .trimEnd(),
    );
  }
  return `${lines.join('\n')}\n`;
}

/** `label  value` lines, labels aligned. */
export function renderPairs(pairs: readonly (readonly [string, string])[], label: (text: string) => string = (t) => t): string {
  const w = Math.max(0, ...pairs.map(([key]) => textWidth(key)));
  return `${pairs.map(([key, value]) => `${label(key.padEnd(w))}  ${stripControl(value)}`).join('\n')}\n`;
}

/**
 * A number in at most a few characters: 1.23k, 1.23M, 1.23B, 1.23T, then
 * 1.23e18 beyond (never 1e+284T); the sign before everything it shortens.
 */
export function compactNumber(value: number): string {
  const abs = Math.abs(value);
  const sign = value < 0 ? '-' : ''; // written only when |value| >= 1,000
  if (abs >= 1e15) {
    const [mantissa, exponent] = abs.toExponential(2).split('e');
    return `${sign}${mantissa}e${Number(exponent)}`;
  }
  for (const [size, suffix] of UNITS) if (abs >= size) return `${sign}${(abs / size).toFixed(2)}${suffix}`;
  return value.toLocaleString('en-US', { maximumFractionDigits: 2 });
}

const UNITS: readonly (readonly [number, string])[] = [
  [1e12, 'T'],
  [1e9, 'B'],
  [1e6, 'M'],
  [1e3, 'k'],
];

/** Number.isFinite, which is false for null and undefined too, as a type guard. */
function isFiniteNumber(value: number | null | undefined): value is number {
  return Number.isFinite(value);
}

/** 1234567.8 → "$1.23M", -77530000 → "-$77.53M" for people; machine formats keep the number. */
export function compactUsd(value: number | null | undefined): string {
  if (!isFiniteNumber(value)) return '';
  const abs = Math.abs(value);
  const sign = value < 0 ? '-' : '';
  if (abs < 1e3) return `${sign}$${abs.toFixed(2)}`;
  return `${sign}$${compactNumber(abs)}`;
}

/** Dollars for a table cell: cents below a million, the compact `$1.23M` from there, `—` for none. */
export function usdCell(value: number | null | undefined): string {
  if (!isFiniteNumber(value)) return '—';
  if (Math.abs(value) >= 1e6) return compactUsd(value);
  const sign = value < 0 ? '-' : '';
  return `${sign}$${Math.abs(value).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

/**
 * A time the API sent, as every table and card shows it: ISO 8601 in UTC to the second, `2026-11-25T12:00:00Z`,
 * the form of the summaries, plans and resume commands too, and one --from and --to take without quotes.
 * Text that is no time is shown as it came.
 */
export function humanTime(value: string | null | undefined): string {
  if (value === null || value === undefined || value === '') return '—';
  const ms = parseApiTime(value);
  if (Number.isNaN(ms)) return value;
  return `${new Date(ms).toISOString().slice(0, 19)}Z`;
}

/** The width of humanTime's text. */
export const HUMAN_TIME_WIDTH = 20;

/** `count noun`, the noun in the plural unless count is 1: "1 swap", "2 swaps". */
export function plural(count: number, noun: string): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? noun : `${noun}s`}`;
}
