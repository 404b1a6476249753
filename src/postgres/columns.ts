/**
 * The mirror table's columns: one per API field, named in snake_case after it
 * and typed natively (timestamptz times, double precision amounts, text[]
 * address lists, jsonb tags and balance changes, enum values as text), plus
 * swapx's own, prefixed `_swapx_` as loaders prefix theirs:
 *   _swapx_key         the primary key: the swap's id, or for a swap without one
 *                      a digest of its content (the folder mirror keys those by content too)
 *   _swapx_updated_ns  updatedAt in nanoseconds since the epoch: the API's times carry
 *                      seven fractional digits and timestamptz keeps six, so the version
 *                      rule (a later tick in the same millisecond is newer) reads this
 *   _swapx_extra       the fields the spec does not name, as the API sent them (jsonb):
 *                      one column for any name, so a new field needs no DDL
 *   _swapx_loaded_at   when swapx last wrote the row (the merge's transaction time)
 * A row's COPY text is row.ts's.
 */
import { createHash } from 'node:crypto';
import { SWAP_FIELDS, SWAP_TIME_FIELDS } from '../api/types.js';
import { parseApiTime } from '../util/time.js';

export type PgType = 'text' | 'timestamp with time zone' | 'double precision' | 'text[]' | 'jsonb' | 'bigint';

export interface Column {
  /** the column name */
  name: string;
  /** the API field it holds; undefined for swapx's own */
  field?: string;
  type: PgType;
}

const AMOUNT_FIELDS = new Set(['depositAmount', 'withdrawnAmount', 'depositUsdAmount', 'withdrawnUsdAmount']);
const LIST_FIELDS = new Set(['sourceOtherProtocolAddresses', 'destinationOtherProtocolAddresses']);
const JSON_FIELDS = new Set(['tags', 'balanceChanges']);

export const KEY_COLUMN = '_swapx_key';
export const VERSION_COLUMN = '_swapx_updated_ns';
export const EXTRA_COLUMN = '_swapx_extra';
export const LOADED_COLUMN = '_swapx_loaded_at';

/** sourceTransaction → source_transaction, withdrawnUsdAmount → withdrawn_usd_amount */
export function snakeCase(field: string): string {
  return field
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase();
}

function typeOf(field: string): PgType {
  if (SWAP_TIME_FIELDS.has(field)) return 'timestamp with time zone';
  if (AMOUNT_FIELDS.has(field)) return 'double precision';
  if (LIST_FIELDS.has(field)) return 'text[]';
  if (JSON_FIELDS.has(field)) return 'jsonb';
  return 'text';
}

/** Every column swapx writes, key first, in the API's field order, then swapx's own; each is written with every version. */
export const COLUMNS: readonly Column[] = [
  { name: KEY_COLUMN, type: 'text' },
  ...SWAP_FIELDS.map((field) => ({ name: snakeCase(field), field, type: typeOf(field) })),
  { name: VERSION_COLUMN, type: 'bigint' },
  { name: EXTRA_COLUMN, type: 'jsonb' },
];

/** Postgres's quoting of an identifier. */
export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** updatedAt in ns since the epoch, or undefined when unreadable: its millisecond and up to six digits past it. */
export function versionOf(updatedAt: unknown): bigint | undefined {
  if (typeof updatedAt !== 'string') return undefined;
  const ms = parseApiTime(updatedAt);
  if (Number.isNaN(ms)) return undefined;
  const sub = /\.\d{3}(\d{1,6})/.exec(updatedAt)?.[1];
  return BigInt(ms) * 1_000_000n + BigInt(sub === undefined ? 0 : Number(sub.padEnd(6, '0')));
}

/** The row's key: its id, or a digest of its content (a swap without an id is told apart by nothing else). */
export function keyOf(swap: Record<string, unknown>): string {
  const id = swap.id;
  if (typeof id === 'string' && id !== '') return id;
  return `sha256:${createHash('sha256').update(JSON.stringify(swap)).digest('hex')}`;
}
