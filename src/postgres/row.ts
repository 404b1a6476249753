/**
 * A swap as one line of COPY text (format text: tab-separated, \N for NULL), a value for each of COLUMNS: each
 * field the spec names in its typed column, and every other field in _swapx_extra, as the API sent it. Every
 * column is written with every version, so a newer version replaces the whole row.
 */
import { SWAP_FIELDS } from '../api/types.js';
import { parseApiTime } from '../util/time.js';
import { COLUMNS, type PgType } from './columns.js';

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

const ENCODERS: Record<Exclude<PgType, 'bigint'>, (value: unknown) => string> = {
  text: textValue,
  'timestamp with time zone': timeValue,
  'double precision': numberValue,
  'text[]': listValue,
  jsonb: jsonValue,
};

const KNOWN_FIELDS = new Set<string>(SWAP_FIELDS);

/**
 * The fields of `swap` the spec does not name, as sent, or undefined when there are none (JSON has no undefined
 * value: a library caller's undefined is no field). Any name is a key:
 * with a dash, an accent, 200 characters, `fooBar` beside `foo_bar`; the object has no prototype, so that a field
 * named `__proto__` is a key too.
 */
function extraOf(swap: Record<string, unknown>): Record<string, unknown> | undefined {
  let extra: Record<string, unknown> | undefined;
  for (const field of Object.keys(swap)) {
    if (KNOWN_FIELDS.has(field) || swap[field] === undefined) continue;
    extra ??= Object.create(null) as Record<string, unknown>;
    extra[field] = swap[field];
  }
  return extra;
}

/** The fields' columns, each with its encoder, in the order of COLUMNS: after the key, before the version and the extra fields. */
const FIELD_ENCODERS = COLUMNS.filter((c) => c.field !== undefined).map((c) => ({ field: c.field!, encode: ENCODERS[c.type as keyof typeof ENCODERS] }));

/** A swap, whose key and version the caller found, as one line of COPY text for COLUMNS. */
export function encodeRow(swap: Record<string, unknown>, key: string, version: bigint | undefined): string {
  let line = copyEscape(key);
  for (const { field, encode } of FIELD_ENCODERS) line += `\t${encode(swap[field])}`;
  return `${line}\t${version === undefined ? NULL : String(version)}\t${jsonValue(extraOf(swap))}\n`;
}
