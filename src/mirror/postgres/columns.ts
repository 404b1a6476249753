/**
 * The mirror table's columns: one per API field, named in snake_case after it
 * and typed natively (timestamptz times, double precision amounts, text[]
 * address lists, jsonb tags and balance changes, enum values as text), plus
 * swapx's own, prefixed `_swapx_` as loaders prefix theirs:
 *   _swapx_key         the primary key: the swap's id, or for a swap without one
 *                      a digest of its content (the folder mirror keys those by content too);
 *                      an id too long for the index is keyed by its digest
 *   _swapx_updated_ns  updatedAt in nanoseconds since the epoch: the API's times carry
 *                      seven fractional digits and timestamptz keeps six, so the version
 *                      rule (a later tick in the same millisecond is newer) reads this
 *   _swapx_extra       the fields the spec does not name, as the API sent them (jsonb):
 *                      one column for any name, so a new field needs no DDL
 *   _swapx_loaded_at   when swapx last wrote the row (the merge's transaction time)
 * A row's COPY text is row.ts's.
 */
import { createHash } from 'node:crypto';
import { SWAP_FIELDS, SWAP_TIME_FIELDS } from '../../api/types.js';
import { parseApiTime } from '../../util/time.js';

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

/**
 * The most bytes a text value of an indexed column may hold. A btree entry holds at most 2,704 bytes (a third of a
 * page, less its header) and Postgres refuses the row of a longer one, failing the whole batch; the bound leaves room
 * for the entry's own bytes, whatever compression would have saved.
 */
export const INDEXED_BYTES = 2000;

/** The fields whose columns are indexed (a support lookup: by id, by either transaction hash). */
export const INDEXED_FIELDS: ReadonlySet<string> = new Set(['id', 'sourceTransaction', 'destinationTransaction']);

/** The bytes `text` takes in a text column: UTF-8, a NUL or a lone surrogate stored as U+FFFD (3 bytes, not 1). */
export function storedBytes(text: string): number {
  let nuls = 0;
  for (let at = text.indexOf('\u0000'); at !== -1; at = text.indexOf('\u0000', at + 1)) nuls += 1;
  // Buffer.byteLength counts a lone surrogate as the 3 bytes of the U+FFFD it writes.
  return Buffer.byteLength(text, 'utf8') + 2 * nuls;
}

/** Whether `text` fits an index: a quick yes for a short one (3 bytes at most a UTF-16 unit), else its stored bytes. */
export function fitsIndex(text: string): boolean {
  return text.length * 3 <= INDEXED_BYTES || storedBytes(text) <= INDEXED_BYTES;
}

/** bigint's range: a version past it is held at its end (the row's updated_at keeps the time itself). */
const MAX_VERSION = 2n ** 63n - 1n;
const MIN_VERSION = -(2n ** 63n);

/**
 * updatedAt in ns since the epoch, or undefined when unreadable: its millisecond and up to six digits past it. An
 * updatedAt after 2262-04-11 or before 1677-09-21 is past a bigint's nanoseconds: it is held at the end it passed (such
 * versions compare equal among themselves, and as later or earlier than any other).
 */
export function versionOf(updatedAt: unknown): bigint | undefined {
  if (typeof updatedAt !== 'string') return undefined;
  const ms = parseApiTime(updatedAt);
  if (Number.isNaN(ms)) return undefined;
  const sub = /\.\d{3}(\d{1,6})/.exec(updatedAt)?.[1];
  const ns = BigInt(ms) * 1_000_000n + BigInt(sub === undefined ? 0 : Number(sub.padEnd(6, '0')));
  return ns > MAX_VERSION ? MAX_VERSION : ns < MIN_VERSION ? MIN_VERSION : ns;
}

/** A NUL or a lone surrogate, which Postgres text holds as U+FFFD. */
const NOT_STORED_RE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** The key's prefix for a digest: no id is used as a key with it, so a digest never equals an id. */
const DIGEST_PREFIX = 'sha256:';

/**
 * The row's key: its id as Postgres holds it (two ids that differ only where Postgres writes U+FFFD are one key, or
 * the merge would meet one row twice), or a digest: of its content for a swap without an id (it is told apart by
 * nothing else); of the id for an id too long for the index, or one that starts as a digest does. The digested JSON
 * starts with `{` for a swap and `"` for an id, so the two never meet.
 */
export function keyOf(swap: Record<string, unknown>): string {
  const id = swap.id;
  if (typeof id !== 'string' || id === '') return digest(JSON.stringify(swap));
  const stored = id.replace(NOT_STORED_RE, '\uFFFD');
  return stored.startsWith(DIGEST_PREFIX) || !fitsIndex(stored) ? digest(JSON.stringify(id)) : stored;
}

function digest(text: string): string {
  return `${DIGEST_PREFIX}${createHash('sha256').update(text).digest('hex')}`;
}
