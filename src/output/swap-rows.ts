/**
 * The people view of a swap stream: one fixed-width line per swap, so a
 * week of swaps streams to a terminal without being held in memory. The
 * columns fit the width given (the terminal's): the swap id always shows in
 * full, so support can paste it into `swapx swap`; the least useful columns
 * go first on a narrow terminal. With --fields, exactly those fields.
 */
import type { ChalkInstance } from 'chalk';
import type { DateRangeFilter, Swap } from '../api/types.js';
import { DEFAULT_FILTER, FILTER_TIME_FIELD, LIST_SWAP_FIELDS, SWAP_FIELDS, SWAP_TIME_FIELDS } from '../api/types.js';
import { displayValue } from './display.js';
import { linesEncoder, type Encoder } from './encode.js';
import { stripControl } from './sanitize.js';
import { compactNumber, cut, fitColumn, fitWidths, HUMAN_TIME_WIDTH, humanTime, textWidth, usdCell, type Truncate } from './table.js';

interface SwapColumn {
  header: string;
  /** the width it is laid out at when there is room: fixed, as rows stream */
  width: number;
  minWidth: number;
  priority: number;
  required?: boolean;
  /** unset: cut at the end */
  truncate?: Truncate;
  align?: 'left' | 'right';
  /** the cell's text at this width (amounts shorten their number instead of being cut) */
  value: (swap: Swap, width: number) => string;
  colour?: (swap: Swap, c: ChalkInstance) => ((text: string) => string) | undefined;
}

/** An amount and its token in `width` characters: fewer decimals, then 1.23M, before anything is cut. */
export function amountCell(value: number | null, token: string | null, width: number): string {
  if (value === null) return '—';
  const symbol = token ? ` ${stripControl(token)}` : '';
  const forms = [
    value.toLocaleString('en-US', { maximumFractionDigits: 4 }),
    value.toLocaleString('en-US', { maximumFractionDigits: 2 }),
    compactNumber(value),
  ];
  for (const number of forms) if (textWidth(number + symbol) <= width) return number + symbol;
  const number = forms[2]!;
  return textWidth(number) + 2 <= width ? `${number} ${cut(symbol.trim(), width - textWidth(number) - 1)}` : cut(number, width);
}

function defaultColumns(timeField: (typeof FILTER_TIME_FIELD)[DateRangeFilter]): SwapColumn[] {
  const mismatch: Record<string, (c: ChalkInstance) => (t: string) => string> = {
    MismatchDetected: (c) => c.red,
    NotFound: (c) => c.yellow,
    Unprocessed: (c) => c.dim,
  };
  return [
    { header: timeField, width: HUMAN_TIME_WIDTH, minWidth: HUMAN_TIME_WIDTH, priority: 90, truncate: 'never', value: (s) => humanTime(s[timeField]) },
    { header: 'bridge', width: 18, minWidth: 12, priority: 50, value: (s) => s.bridge ?? '—' },
    { header: 'route', width: 22, minWidth: 18, priority: 80, value: (s) => `${s.sourceChain ?? '?'} → ${s.destinationChain ?? '?'}` },
    {
      header: 'deposit',
      width: 20,
      minWidth: 14,
      priority: 30,

      align: 'right',
      value: (s, w) => amountCell(s.depositAmount, s.sourceToken, w),
    },
    {
      header: 'withdrawal',
      width: 20,
      minWidth: 14,
      priority: 40,

      align: 'right',
      value: (s, w) => amountCell(s.withdrawnAmount, s.destinationToken, w),
    },
    {
      header: 'USD',
      width: 11,
      minWidth: 11,
      priority: 70,
      truncate: 'never',
      align: 'right',
      value: (s) => usdCell(s.withdrawnUsdAmount ?? s.depositUsdAmount),
    },
    {
      header: 'USD check',
      width: 16,
      minWidth: 11,
      priority: 20,

      value: (s) => s.usdMismatchStatus ?? '—',
      colour: (s, c) => mismatch[s.usdMismatchStatus]?.(c),
    },
    // Last: an id is whole (to be pasted into swapx swap), and one longer than most (a UUID) pushes no column out of line.
    { header: 'id', width: 24, minWidth: 24, priority: 100, required: true, truncate: 'never', value: (s) => s.id ?? '—' },
  ];
}

/** Widths for fields named with --fields: what their values usually need. */
const FIELD_WIDTH: Record<string, number> = {
  id: 24,
  bridge: 18,
  bridgeKey: 12,
  sourceChain: 12,
  destinationChain: 16,
  protocolKey: 14,
  sourceToken: 11,
  destinationToken: 16,
  depositAmount: 18,
  withdrawnAmount: 18,
  depositUsdAmount: 16,
  withdrawnUsdAmount: 18,
  usdMismatchStatus: 17,
  tags: 30,
  sourceOtherProtocolAddresses: 44,
  destinationOtherProtocolAddresses: 44,
};
const AMOUNT_FIELDS = new Set(['depositAmount', 'withdrawnAmount']);
const USD_FIELDS = new Set(['depositUsdAmount', 'withdrawnUsdAmount']);

/** The endings of the fields that hold an address. */
const ADDRESS_ENDINGS = ['Account', 'Contract', 'ProtocolAddress', 'InteractedWith'];

/**
 * The widest a hash or an address usually is, so that there is room it shows whole: a transaction up to a Solana
 * signature (88 base58 characters), an address up to a TON one (48); other lists and hashes 66 (0x and 64).
 */
function hashWidth(field: string): number {
  if (field.endsWith('Transaction')) return 88;
  if (ADDRESS_ENDINGS.some((ending) => field.endsWith(ending))) return 48;
  return 66;
}

/** One column per field the user named, in that order; long hashes are cut in the middle to fit. */
function fieldColumns(fields: readonly string[]): SwapColumn[] {
  return fields.map((field, index) => {
    const record = (s: Swap) => (s as unknown as Record<string, unknown>)[field];
    const base = { header: field, priority: -index, required: true };
    if (SWAP_TIME_FIELDS.has(field))
      return {
        ...base,
        width: Math.max(HUMAN_TIME_WIDTH, field.length),
        minWidth: HUMAN_TIME_WIDTH,
        truncate: 'never',
        value: (s) => humanTime(record(s) as string | null),
      };
    if (USD_FIELDS.has(field))
      return { ...base, width: FIELD_WIDTH[field]!, minWidth: 11, truncate: 'never', align: 'right', value: (s) => usdCell(record(s) as number | null) };
    if (AMOUNT_FIELDS.has(field)) {
      return {
        ...base,
        width: FIELD_WIDTH[field]!,
        minWidth: 10,

        align: 'right',
        value: (s, w) => amountCell(record(s) as number | null, null, w),
      };
    }
    const hashLike = !(field in FIELD_WIDTH);
    return {
      ...base,
      width: Math.max(FIELD_WIDTH[field] ?? hashWidth(field), field.length),
      // An id is never cut: its minimum is its width whatever is given here.
      minWidth: hashLike ? 13 : 8,
      truncate: field === 'id' ? 'never' : hashLike ? 'middle' : undefined,
      value: (s) => {
        const value = record(s);
        return value === null || value === undefined ? '—' : displayValue(value);
      },
    } satisfies SwapColumn;
  });
}

/** The same names in the same order. */
function sameList(fields: readonly string[], list: readonly string[]): boolean {
  return fields.length === list.length && fields.every((field, i) => field === list[i]);
}

export interface SwapRowsOptions {
  /** the line width to fit (the terminal's); default: no limit */
  width?: number;
  /** the fields asked for with --fields; default: the people view */
  fields?: readonly string[];
}

export function swapRowsEncoder(filter: DateRangeFilter | undefined, c: ChalkInstance, options: SwapRowsOptions = {}): Encoder {
  const timeField = FILTER_TIME_FIELD[filter ?? DEFAULT_FILTER];
  // Every field (with or without balanceChanges, which lists lack) is no choice: the people view.
  const { fields } = options;
  const custom = fields !== undefined && !sameList(fields, SWAP_FIELDS) && !sameList(fields, LIST_SWAP_FIELDS);
  const all = custom ? fieldColumns(fields) : defaultColumns(timeField);
  const fitted = fitWidths(
    all.map((column, i) => fitColumn(column, i, column.width)),
    options.width ?? Number.POSITIVE_INFINITY,
  );
  const columns = all.flatMap((column, i) => (fitted[i] === undefined ? [] : [{ ...column, width: fitted[i]! }]));
  // A header is cut at its end, whatever its column's cells.
  const pad = (column: SwapColumn, text: string, header = false) => {
    const shown = cut(stripControl(text), column.width, header ? undefined : column.truncate);
    const gap = ' '.repeat(Math.max(0, column.width - textWidth(shown)));
    return column.align === 'right' ? gap + shown : shown + gap;
  };
  return linesEncoder(
    () =>
      `${c.bold(
        columns
          .map((column) => pad(column, column.header, true))
          .join('  ')
          .trimEnd(),
      )}\n`,
    (record) => {
      const s = record as Swap;
      const cells = columns.map((column) => {
        const padded = pad(column, column.value(s, column.width));
        return column.colour?.(s, c)?.(padded) ?? padded;
      });
      return `${cells.join('  ').trimEnd()}\n`;
    },
  );
}
