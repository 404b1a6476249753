/**
 * A swap as one line of COPY text (format text: tab-separated, \N for NULL), a value for each of COLUMNS: each
 * field the spec names in its typed column, and in _swapx_extra, as the API sent them, every other field and each
 * value its typed column cannot hold. Such a value would fail the whole batch, every run (Postgres refuses a year
 * 0000, and an index refuses an entry of more than 2,704 bytes): its column gets NULL, and it is reported (`unfit`),
 * so that the mirror moves on and says which swap and field. Every column is written with every version, so a newer
 * version replaces the whole row.
 */
import { SWAP_FIELDS } from '../../api/types.js';
import type { UnfitValue } from '../../sync/store.js';
import { parseApiTime } from '../../util/time.js';
import { COLUMNS, EXTRA_COLUMN, fitsIndex, INDEXED_BYTES, INDEXED_FIELDS, type PgType, storedBytes } from './columns.js';

/** COPY text format: backslash, tab, newline and carriage return escaped. Postgres text holds no NUL: it becomes U+FFFD. */
function copyEscape(text: string): string {
  return text.replace(/[\\\t\n\r\u0000]/g, (c) => COPY_ESCAPES[c]!);
}
const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r', '\u0000': '\uFFFD' };

const NULL = '\\N';

/** A value its column cannot hold, and why: what follows the value in the warning ("is out of timestamptz's range"). */
class Unfit {
  constructor(readonly why: string) {}
}

/** An encoder: the value as COPY text, or why its column cannot hold it. */
type Encode = (value: unknown) => string | Unfit;

/**
 * An API time as Postgres reads it: one without a zone is UTC, as swapx reads it everywhere (Postgres would take the
 * session's time zone). Of what parseApiTime reads, Postgres refuses a year written 0000 (timestamptz has no year 0)
 * and a zone past ±15:59; checked against the server (test/mirror/postgres/unfit.test.ts).
 */
function timeValue(value: unknown): string | Unfit {
  if (value === null || value === undefined) return NULL;
  if (typeof value !== 'string' || Number.isNaN(parseApiTime(value))) return new Unfit('is not a date-time');
  if (value.startsWith('0000')) return new Unfit("is out of timestamptz's range");
  const zone = ZONE_RE.exec(value);
  if (!zone) return `${value}Z`;
  return Number(zone[1]) > MAX_ZONE_HOURS ? new Unfit(`has a UTC offset timestamptz does not take (at most ±${MAX_ZONE_HOURS}:59)`) : value;
}
const ZONE_RE = /(?:[Zz]|[+-](\d{2}):?\d{2})$/;
const MAX_ZONE_HOURS = 15;

function textValue(value: unknown): string {
  if (value === null || value === undefined) return NULL;
  return copyEscape(typeof value === 'string' ? value : JSON.stringify(value));
}

/** Text in an indexed column: one too long for the index would fail the batch (exact bytes: storedBytes). */
function indexedValue(value: unknown): string | Unfit {
  if (value === null || value === undefined) return NULL;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  if (fitsIndex(text)) return copyEscape(text);
  return new Unfit(`is ${storedBytes(text).toLocaleString('en-US')} bytes, more than an index takes (at most ${INDEXED_BYTES.toLocaleString('en-US')})`);
}

function numberValue(value: unknown): string | Unfit {
  if (value === null || value === undefined) return NULL;
  // Infinity and NaN are not JSON: a number from JSON is finite, and String() writes it exactly (shortest round trip).
  return typeof value === 'number' && Number.isFinite(value) ? String(value) : new Unfit('is not a finite number');
}

/** A text[] literal: {"a","b"}, NULL elements unquoted, another JSON value as its JSON text. */
function listValue(value: unknown): string | Unfit {
  if (value === null || value === undefined) return NULL;
  if (!Array.isArray(value)) return new Unfit('is not a list');
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

const ENCODERS: Record<Exclude<PgType, 'bigint'>, Encode> = {
  text: textValue,
  'timestamp with time zone': timeValue,
  'double precision': numberValue,
  'text[]': listValue,
  jsonb: jsonValue,
};

const KNOWN_FIELDS = new Set<string>(SWAP_FIELDS);

/** The fields' columns, each with its encoder, in the order of COLUMNS: after the key, before the version and the extra fields. */
const FIELD_ENCODERS = COLUMNS.filter((c) => c.field !== undefined).map((c) => ({
  field: c.field!,
  encode: INDEXED_FIELDS.has(c.field!) ? indexedValue : ENCODERS[c.type as keyof typeof ENCODERS],
}));

/** Control characters as \u escapes: a warning stays one line. */
function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A value as a warning shows it: a string quoted, anything else as JSON; cut past 40 characters (never 3 MB of it). */
function shown(value: unknown): string {
  const text = typeof value === 'string' ? value : String(JSON.stringify(value));
  let cut = text.length > SHOWN_CHARS ? text.slice(0, SHOWN_CHARS) : text;
  // A surrogate pair is not cut in two.
  if (cut.length < text.length && /[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  const escaped = `${printable(cut)}${cut.length < text.length ? '…' : ''}`;
  return typeof value === 'string' ? `'${escaped}'` : escaped;
}
const SHOWN_CHARS = 40;

export interface EncodedRow {
  /** the COPY line, newline-terminated */
  line: string;
  /** the values kept in _swapx_extra because their column cannot hold them; undefined when none */
  unfit?: UnfitValue[];
}

/**
 * A swap, whose key and version the caller found, as one line of COPY text for COLUMNS. Any name of a field the spec
 * does not name is a key of _swapx_extra (a dash, an accent, 200 characters, `fooBar` beside `foo_bar`; the object has
 * no prototype, so `__proto__` is a key too); a value undefined is no field (JSON has none).
 */
export function encodeRow(swap: Record<string, unknown>, key: string, version: bigint | undefined): EncodedRow {
  let extra: Record<string, unknown> | undefined;
  let unfit: UnfitValue[] | undefined;
  let line = copyEscape(key);
  for (const { field, encode } of FIELD_ENCODERS) {
    const value = swap[field];
    const text = encode(value);
    if (typeof text === 'string') {
      line += `\t${text}`;
      continue;
    }
    line += `\t${NULL}`;
    extra ??= Object.create(null) as Record<string, unknown>;
    extra[field] = value;
    unfit ??= [];
    // The swap is named by its key: its id, or the digest of one too long (or of a swap without one).
    unfit.push({ id: printable(key), field, reason: `${shown(value)} ${text.why}, kept as sent in ${EXTRA_COLUMN}` });
  }
  for (const field of Object.keys(swap)) {
    if (KNOWN_FIELDS.has(field) || swap[field] === undefined) continue;
    extra ??= Object.create(null) as Record<string, unknown>;
    extra[field] = swap[field];
  }
  line += `\t${version === undefined ? NULL : String(version)}\t${jsonValue(extra)}\n`;
  return unfit ? { line, unfit } : { line };
}
