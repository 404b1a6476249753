/**
 * The state of a sync directory, `<dir>/.swapx-sync.json`: the query it
 * belongs to (fingerprinted) and the two cursors. Written atomically, and
 * only after the data it describes is durable. A state that cannot be read
 * is refused, never overwritten. It holds no secret: the base URL cannot
 * carry one.
 *
 * Version 1 (append-only parts, ids over the re-scan horizon) is read and
 * upgraded: see `upgraded`.
 */
import { MirrorRefusedError } from '../../sync/errors.js';
import { type FormatName, formatNamed, MIRROR_FORMATS } from '../../formats/registry.js';
import { formatUtc } from '../../util/time.js';
import { orList } from '../../util/words.js';
import { type Difference, differences, fingerprint } from '../../util/fingerprint.js';
import type { MirrorQuery, MirrorState } from '../../sync/store.js';
import type { MirrorStorage } from './storage.js';

/** The state's name among swapx's own files (storage.ts: `.swapx-sync.json` in a folder). */
export const STATE_NAME = 'sync.json';

/** What the data in a sync directory is: a different query needs a different directory. The format is the folder's own. */
export interface SyncQuery extends MirrorQuery {
  /** a format that keeps a mirror (registry.ts: MIRROR_FORMATS) */
  format: FormatName;
  gzip: boolean;
}

export interface SyncState extends MirrorState<SyncQuery> {
  /** read from a version 1 state: the partitions are folded and updates caught up from `since` */
  upgradedFrom?: 1;
}

export { fingerprint };

/** What differs between a saved query and this run's, in this order (the shell labels them). */
export function queryDifferences(saved: SyncQuery, wanted: SyncQuery): Difference[] {
  return differences(saved, wanted, ['baseUrl', 'filter', 'format', 'fields', 'gzip']);
}

const FIELDS_MARK = '\u0000fields';

/** Readable and diffable: one key a line, the fields on one line. */
export function serializeState(state: SyncState, updatedAt: number): string {
  const head = {
    version: 2,
    fingerprint: fingerprint(state.query),
    query: { ...state.query, fields: FIELDS_MARK },
    since: formatUtc(state.since),
    cursor: formatUtc(state.cursor),
    updatedCursor: formatUtc(state.updatedCursor),
    rescanBase: formatUtc(state.rescanBase),
    rescannedAt: state.rescannedAt === undefined ? null : formatUtc(state.rescannedAt),
    ...(state.rescannedTo === undefined ? {} : { rescannedTo: formatUtc(state.rescannedTo) }),
    updatedAt: formatUtc(updatedAt),
  };
  return `${JSON.stringify(head, null, 2).replace(JSON.stringify(FIELDS_MARK), JSON.stringify(state.query.fields))}\n`;
}

const ISO_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;

function time(value: unknown, name: string): number {
  if (typeof value !== 'string' || !ISO_RE.test(value)) throw new Error(`${name} is not a UTC time`);
  return Date.parse(value);
}

function stringArray(value: unknown, name: string): string[] {
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) throw new Error(`${name} is not a list of strings`);
  return value as string[];
}

function parseQuery(value: unknown): SyncQuery {
  const q = value as Partial<SyncQuery> | null;
  if (!q || typeof q !== 'object') throw new Error('query is missing');
  if (typeof q.baseUrl !== 'string') throw new Error('query.baseUrl is missing');
  if (q.filter !== 'Completed') throw new Error('query.filter is not Completed');
  const format = typeof q.format === 'string' ? formatNamed(q.format) : undefined;
  if (!format?.mirror) throw new Error(`query.format is not ${orList(MIRROR_FORMATS.map((other) => other.name))}`);
  if (typeof q.gzip !== 'boolean') throw new Error('query.gzip is missing');
  if (!format.gzip && q.gzip) throw new Error(`query.gzip is true for ${format.name}, which is compressed inside`);
  return { baseUrl: q.baseUrl, filter: 'Completed', format: format.name, fields: stringArray(q.fields, 'query.fields'), gzip: q.gzip };
}

/** Checks every field; throws a plain Error naming the first problem. */
export function parseState(text: string): SyncState {
  const raw = JSON.parse(text) as Record<string, unknown> | null;
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new Error('not a JSON object');
  if (raw.version !== 1 && raw.version !== 2) throw new Error(`version ${JSON.stringify(raw.version)} is not 1 or 2`);
  const query = parseQuery(raw.query);
  if (raw.fingerprint !== fingerprint(query)) throw new Error('the fingerprint does not match the query (edited by hand?)');
  const since = time(raw.since, 'since');
  const cursor = time(raw.cursor, 'cursor');
  const state: SyncState = {
    query,
    since,
    cursor,
    // Version 1 held each swap as first fetched, at times unknown: only `since` is safe for updates.
    updatedCursor: raw.version === 1 ? since : time(raw.updatedCursor, 'updatedCursor'),
    rescanBase: time(raw.rescanBase, 'rescanBase'),
    rescannedAt: raw.rescannedAt === null ? undefined : time(raw.rescannedAt, 'rescannedAt'),
  };
  if (raw.rescannedTo !== undefined) {
    state.rescannedTo = time(raw.rescannedTo, 'rescannedTo');
    if (!(state.since <= state.rescannedTo && state.rescannedTo <= state.cursor)) throw new Error('rescannedTo is not between since and cursor');
  }
  if (raw.version === 1) state.upgradedFrom = 1;
  if (!(state.since <= state.cursor && state.rescanBase <= state.cursor && state.since <= state.updatedCursor)) {
    throw new Error('since ≤ cursor, rescanBase ≤ cursor and since ≤ updatedCursor do not all hold');
  }
  return state;
}

/** The saved state, or undefined when the mirror has none. Unreadable or invalid: MirrorRefusedError, file untouched. */
export async function readState(storage: MirrorStorage): Promise<SyncState | undefined> {
  const file = storage.describe(storage.meta(STATE_NAME));
  let bytes: Buffer | undefined;
  try {
    bytes = await storage.read(storage.meta(STATE_NAME));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new MirrorRefusedError(storage.name, { reason: 'state-unreadable', file, code: code ?? String(error) });
  }
  if (bytes === undefined) return undefined;
  try {
    return parseState(bytes.toString('utf8'));
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new MirrorRefusedError(storage.name, { reason: 'state-corrupt', file, why });
  }
}

/** Writes the state over the version `expect` names (storage.ts; undefined: unconditionally); returns its new stamp. */
export async function writeState(storage: MirrorStorage, state: SyncState, now: number, expect?: string | null): Promise<string | undefined> {
  const file = storage.meta(STATE_NAME);
  await storage.write(file, Buffer.from(serializeState(state, now)), expect === undefined ? undefined : { expect });
  return storage.stamp(file);
}

/** The state's stamp now (undefined: there is none). */
export function stateStamp(storage: MirrorStorage): Promise<string | undefined> {
  return storage.stamp(storage.meta(STATE_NAME));
}

/** Removes the state (a first run that committed nothing is cleaned away). */
export async function removeState(storage: MirrorStorage): Promise<void> {
  await storage.remove(storage.meta(STATE_NAME));
}
