/**
 * Query binding and validation the way the real (ASP.NET) service does it:
 * case-insensitive parameter names, first value wins, enum names in any case,
 * and errors collected per field with ASP.NET's wording.
 */
import { DATE_RANGE_FILTERS, MAX_WINDOW_MS, OFFSET_MAX, TAKE_MAX, type DateRangeFilter } from '../api/types.js';

export type FieldErrors = Record<string, string[]>;
export type Bound<T> = { ok: true; value: T } | { ok: false; errors: FieldErrors };

/** Query parameters by lower-cased name; the first occurrence wins. */
export function readQuery(search: URLSearchParams): Map<string, string> {
  const out = new Map<string, string>();
  for (const [name, value] of search) {
    const key = name.toLowerCase();
    if (!out.has(key)) out.set(key, value);
  }
  return out;
}

const ISO_RE = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,7}))?)?\s*(Z|z|[+-]\d{2}(?::?\d{2})?)?)?$/;

/**
 * An ISO 8601 date or date-time as epoch ms (fractions below a millisecond
 * kept as a fraction). No zone means UTC. Undefined when not parsable.
 */
export function parseApiDateTime(input: string): number | undefined {
  const m = ISO_RE.exec(input.trim());
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const [h, mi, s] = [Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0)];
  if (mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s > 59) return undefined;
  const base = Date.UTC(y, mo - 1, d, h, mi, s);
  const check = new Date(base);
  if (check.getUTCDate() !== d || check.getUTCMonth() !== mo - 1) return undefined;
  // Date.UTC maps years 0-99 to 1900-1999; setUTCFullYear restores them.
  const ms = y < 100 ? new Date(base).setUTCFullYear(y) : base;
  const fraction = m[7] ? Number(`0.${m[7]}`) * 1000 : 0;
  let offset = 0;
  const zone = m[8];
  if (zone && zone.toUpperCase() !== 'Z') {
    const digits = zone.slice(1).replace(':', '');
    const zh = Number(digits.slice(0, 2));
    const zm = Number(digits.slice(2) || '0');
    if (zh > 14 || zm > 59) return undefined;
    offset = (zone.startsWith('-') ? -1 : 1) * (zh * 60 + zm) * 60_000;
  }
  return ms + fraction - offset;
}

const required = (field: string) => `The ${field} field is required.`;
const notValid = (value: string, field: string) =>
  value.trim() === '' ? `The value '${value}' is invalid.` : `The value '${value}' is not valid for ${field}.`;

function add(errors: FieldErrors, field: string, message: string): void {
  (errors[field] ??= []).push(message);
}

export interface SwapsQuery {
  from: number;
  to: number;
  filter: DateRangeFilter;
}

export function bindSwapsQuery(query: Map<string, string>): Bound<SwapsQuery> {
  const errors: FieldErrors = {};
  const time = (field: string): number | undefined => {
    const raw = query.get(field.toLowerCase());
    if (raw === undefined || raw.trim() === '') {
      add(errors, field, required(field));
      return undefined;
    }
    const ms = parseApiDateTime(raw);
    if (ms === undefined) add(errors, field, notValid(raw, field));
    return ms;
  };
  const from = time('From');
  const to = time('To');
  let filter: DateRangeFilter = 'Withdrawn';
  const rawFilter = query.get('filter');
  if (rawFilter !== undefined) {
    const match = DATE_RANGE_FILTERS.find((f) => f.toLowerCase() === rawFilter.trim().toLowerCase());
    if (match) filter = match;
    else add(errors, 'Filter', notValid(rawFilter, 'Filter'));
  }
  if (from !== undefined && to !== undefined) {
    if (to < from) add(errors, 'To', 'To must be later than or equal to From.');
    else if (to - from > MAX_WINDOW_MS) add(errors, 'To', 'The span between From and To must not exceed 30 minutes.');
  }
  if (Object.keys(errors).length > 0 || from === undefined || to === undefined) return { ok: false, errors };
  return { ok: true, value: { from, to, filter } };
}

function bindInt(query: Map<string, string>, field: string, fallback: number, max: number, errors: FieldErrors): number {
  const raw = query.get(field.toLowerCase());
  if (raw === undefined) return fallback;
  const text = raw.trim();
  const n = /^[+-]?\d+$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(n) || n < -2147483648 || n > 2147483647) {
    add(errors, field, notValid(raw, field));
    return fallback;
  }
  if (n < 0 || n > max) add(errors, field, `The field ${field} must be between 0 and ${max}.`);
  return n;
}

export interface TokensQuery {
  take: number;
  offset: number;
}

/** Take defaults to 100, Offset to 0. */
export function bindTokensQuery(query: Map<string, string>): Bound<TokensQuery> {
  const errors: FieldErrors = {};
  const take = bindInt(query, 'Take', 100, TAKE_MAX, errors);
  const offset = bindInt(query, 'Offset', 0, OFFSET_MAX, errors);
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, value: { take, offset } };
}

/** includeDelisted defaults to false; only true/false (any case) bind, as bool.TryParse does. */
export function bindBridgesQuery(query: Map<string, string>): Bound<{ includeDelisted: boolean }> {
  const raw = query.get('includedelisted');
  if (raw === undefined) return { ok: true, value: { includeDelisted: false } };
  const text = raw.trim().toLowerCase();
  if (text === 'true' || text === 'false') return { ok: true, value: { includeDelisted: text === 'true' } };
  return { ok: false, errors: { includeDelisted: [notValid(raw, 'includeDelisted')] } };
}
