/**
 * The mirror table's columns: one per API field, named in snake_case after it
 * and typed natively (timestamptz times, double precision amounts, text[]
 * address lists, jsonb tags and balance changes, enum values as text), plus
 * swapx's own three, prefixed `_swapx_` as loaders prefix theirs:
 *   _swapx_key         the primary key: the swap's id, or for a swap without one
 *                      a digest of its content (the folder mirror keys those by content too)
 *   _swapx_updated_ns  updatedAt in nanoseconds since the epoch: the API's times carry
 *                      seven fractional digits and timestamptz keeps six, so the version
 *                      rule (a later tick in the same millisecond is newer) reads this
 *   _swapx_loaded_at   when swapx last wrote the row (the merge's transaction time)
 * And each row's COPY text (format text: tab-separated, \N for NULL).
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

/** A field the API sends that this swapx does not know: a jsonb column (any JSON value fits), added to the table. */
export function extraColumn(field: string): Column {
  return { name: snakeCase(field), field, type: 'jsonb' };
}

/** Every column swapx writes, key first, in the API's field order. */
export const COLUMNS: readonly Column[] = [
  { name: KEY_COLUMN, type: 'text' },
  ...SWAP_FIELDS.map((field) => ({ name: snakeCase(field), field, type: typeOf(field) })),
  { name: VERSION_COLUMN, type: 'bigint' },
];

/** Postgres's quoting of an identifier. */
export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** COPY text format: backslash, tab, newline and carriage return escaped. Postgres text holds no NUL: it becomes U+FFFD. */
function copyEscape(text: string): string {
  return text.replace(/[\\\t\n\r\u0000]/g, (c) => COPY_ESCAPES[c]!);
}
const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r', '\u0000': '\uFFFD' };

const NULL = '\\N';

/**
 * An API time as Postgres reads it: one swapx reads holds nothing to escape, and one without a zone is UTC, as swapx
 * reads it everywhere (Postgres would take the session's time zone). NULL for one swapx cannot read: Postgres would
 * refuse the whole batch.
 */
function timeValue(value: unknown): string {
  if (typeof value !== 'string' || Number.isNaN(parseApiTime(value))) return NULL;
  return ZONED_RE.test(value) ? value : `${value}Z`;
}
const ZONED_RE = /([Zz]|[+-]\d{2}:?\d{2})$/;

function textValue(value: unknown): string {
  if (value === null || value === undefined) return NULL;
  return copyEscape(typeof value === 'string' ? value : JSON.stringify(value));
}

function numberValue(value: unknown): string {
  // Infinity and NaN are not JSON: a number from JSON is finite, and String() writes it exactly (shortest round trip).
  return typeof value === 'number' && Number.isFinite(value) ? String(value) : NULL;
}

/** A text[] literal: {"a","b"}, NULL elements unquoted. A value that is not a list of strings is NULL. */
function listValue(value: unknown): string {
  if (!Array.isArray(value)) return NULL;
  const items = value.map((item) =>
    item === null ? 'NULL' : `"${String(typeof item === 'string' ? item : JSON.stringify(item)).replace(/[\\"]/g, (c) => `\\${c}`)}"`,
  );
  return copyEscape(`{${items.join(',')}}`);
}

/** JSON as jsonb reads it: the value itself (an array stays an array), never a JSON string of its text. jsonb refuses \u0000. */
function jsonValue(value: unknown): string {
  if (value === undefined || value === null) return NULL;
  return copyEscape(JSON.stringify(value).replace(JSON_ESCAPE_RE, jsonbEscape));
}
/** Each escape of JSON text, so that an escaped backslash followed by `u0000` is told from the escape \u0000. */
const JSON_ESCAPE_RE = /\\(u[0-9a-fA-F]{4}|.)/g;
/**
 * jsonb refuses \u0000 and a surrogate alone (JSON.stringify escapes only lone ones; a pair is written as itself):
 * either would fail the whole batch, so each becomes U+FFFD, as text columns have it.
 */
function jsonbEscape(sequence: string, body: string): string {
  return /^u(0000|d[89a-f][0-9a-f]{2})$/i.test(body) ? '\\ufffd' : sequence;
}

const ENCODERS: Record<PgType, (value: unknown) => string> = {
  text: textValue,
  'timestamp with time zone': timeValue,
  'double precision': numberValue,
  'text[]': listValue,
  jsonb: jsonValue,
  bigint: (value) => (typeof value === 'bigint' ? String(value) : NULL),
};

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

/** Encodes a swap, whose key and version the caller found, as one line of COPY text, tab-separated. */
export type RowEncoder = (swap: Record<string, unknown>, key: string, version: bigint | undefined) => string;

/** The encoder of a set of columns (known or extra ones), each column's writer chosen once. */
export function rowEncoder(columns: readonly Column[]): RowEncoder {
  const parts = columns.map((column): ((swap: Record<string, unknown>, key: string, version: bigint | undefined) => string) => {
    if (column.name === KEY_COLUMN) return (_swap, key) => copyEscape(key);
    if (column.name === VERSION_COLUMN) return (_swap, _key, version) => ENCODERS.bigint(version);
    const field = column.field!;
    const encode = ENCODERS[column.type];
    return (swap) => encode(swap[field]);
  });
  return (swap, key, version) => {
    let line = parts[0]!(swap, key, version);
    for (let i = 1; i < parts.length; i++) line += `\t${parts[i]!(swap, key, version)}`;
    return `${line}\n`;
  };
}
