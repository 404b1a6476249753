/** Tables for people: aligned columns, control characters stripped, colour only when allowed. */
import { stripControl } from './sanitize.js';

export interface Column<T> {
  header: string;
  value: (row: T) => string;
  align?: 'left' | 'right';
  /** colours the padded cell; receives the raw text */
  style?: (padded: string, raw: string) => string;
}

function width(text: string): number {
  return [...text].length;
}

export function renderTable<T>(columns: readonly Column<T>[], rows: readonly T[], options: { header?: (text: string) => string } = {}): string {
  const cells = rows.map((row) => columns.map((column) => stripControl(column.value(row))));
  const widths = columns.map((column, i) => Math.max(width(column.header), ...cells.map((row) => width(row[i]!))));
  const pad = (text: string, i: number) => {
    const gap = ' '.repeat(widths[i]! - width(text));
    return columns[i]!.align === 'right' ? gap + text : text + gap;
  };
  const headerLine = columns.map((column, i) => pad(column.header, i)).join('  ').trimEnd();
  const lines = [options.header ? options.header(headerLine) : headerLine];
  for (const row of cells) {
    lines.push(
      row
        .map((text, i) => {
          const padded = pad(text, i);
          const style = columns[i]!.style;
          return style ? style(padded, text) : padded;
        })
        .join('  ')
        .trimEnd(),
    );
  }
  return `${lines.join('\n')}\n`;
}

/** `label  value` lines, labels aligned. */
export function renderPairs(pairs: readonly (readonly [string, string])[], label: (text: string) => string = (t) => t): string {
  const w = Math.max(0, ...pairs.map(([key]) => width(key)));
  return pairs.map(([key, value]) => `${label(key.padEnd(w))}  ${stripControl(value)}`).join('\n') + '\n';
}

/** 1234567.8 → "$1.23M" for people; machine formats keep the number. */
export function compactUsd(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '';
  const abs = Math.abs(value);
  const units: [number, string][] = [
    [1e12, 'T'],
    [1e9, 'B'],
    [1e6, 'M'],
    [1e3, 'k'],
  ];
  for (const [size, suffix] of units) if (abs >= size) return `$${(value / size).toFixed(2)}${suffix}`;
  return `$${value.toFixed(2)}`;
}
