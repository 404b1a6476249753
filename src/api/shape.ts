/**
 * Checks that a 2xx body has the shape the spec promises before anything is
 * written: a wrong type must become a clear error, never a silently wrong row.
 * Unknown extra properties pass (the API may grow), and so does a nullable
 * or deprecated field left out; a mistyped field or a missing time does not.
 */
import { ResponseFormatError, type RequestInfo } from './errors.js';
import type { Swap, TokenPage } from './types.js';
import { parseApiTime } from '../util/time.js';

type Kind = 'string' | 'string?' | 'date' | 'date?' | 'number' | 'number?' | 'boolean' | 'strings?' | 'tags?' | 'changes!';

const SWAP_SHAPE: Record<string, Kind> = {
  id: 'string?',
  timestamp: 'date',
  depositedAt: 'date',
  withdrawnAt: 'date',
  detectedAt: 'date',
  completedAt: 'date',
  updatedAt: 'date',
  bridge: 'string?',
  bridgeKey: 'string?',
  sourceChain: 'string?',
  destinationChain: 'string?',
  sourceAccount: 'string?',
  destinationAccount: 'string?',
  sourceInteractedWith: 'string?',
  protocolKey: 'string?',
  sourceProtocolAddress: 'string?',
  destinationProtocolAddress: 'string?',
  intermediateSwapId: 'string?',
  sourceOtherProtocolAddresses: 'strings?',
  destinationOtherProtocolAddresses: 'strings?',
  sourceTransaction: 'string?',
  destinationTransaction: 'string?',
  sourceToken: 'string?',
  destinationToken: 'string?',
  sourceTokenContract: 'string?',
  destinationTokenContract: 'string?',
  depositAmount: 'number?',
  withdrawnAmount: 'number?',
  depositUsdAmount: 'number?',
  withdrawnUsdAmount: 'number?',
  usdMismatchStatus: 'string',
  tags: 'tags?',
};

/**
 * Times the spec requires but deprecates: may disappear one day without breaking an export. (intermediateSwapId,
 * deprecated too, may be null, so may be left out anyway.)
 */
const DEPRECATED = new Set(['timestamp']);

const EXPECTED: Record<Kind, string> = {
  string: 'a string',
  'string?': 'a string or null',
  date: 'an ISO 8601 date-time string',
  'date?': 'an ISO 8601 date-time string or null',
  number: 'a finite number',
  boolean: 'true or false',
  'number?': 'a number or null',
  'strings?': 'an array of strings or null',
  'tags?': 'an array of {type, value} or null',
  'changes!': 'an array of balance changes',
};

function typeName(value: unknown): string {
  if (value === null) return 'null';
  // 1e400 parses as Infinity: a number, but not one a double holds.
  if (typeof value === 'number' && !Number.isFinite(value)) return 'a number out of range';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function fits(kind: Kind, value: unknown): boolean {
  switch (kind) {
    case 'string':
      return typeof value === 'string';
    case 'string?':
      return value === null || typeof value === 'string';
    case 'date':
      return typeof value === 'string' && !Number.isNaN(parseApiTime(value));
    case 'date?':
      return value === null || (typeof value === 'string' && !Number.isNaN(parseApiTime(value)));
    case 'number':
      // Number.isFinite is false for anything not a number (it does not convert).
      return Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'number?':
      return value === null || Number.isFinite(value);
    case 'strings?':
      return value === null || (Array.isArray(value) && value.every((v) => typeof v === 'string'));
    case 'tags?':
      return value === null || (Array.isArray(value) && value.every((t) => t !== null && typeof t === 'object' && !Array.isArray(t)));
    case 'changes!':
      return Array.isArray(value) && value.every((c) => c !== null && typeof c === 'object' && !Array.isArray(c));
  }
}

function wrongShape(message: string, request: RequestInfo): ResponseFormatError {
  return new ResponseFormatError(`the API sent data of the wrong shape: ${message} (${request.method} ${request.path})`, 200, {}, undefined, request);
}

export function checkSwaps(body: unknown, request: RequestInfo): Swap[] {
  if (!Array.isArray(body)) throw wrongShape(`expected an array of swaps, got ${typeName(body)}`, request);
  for (let i = 0; i < body.length; i++) {
    checkSwap(body[i], i, request);
    if (deeperThan(body[i], MAX_NESTING)) throw wrongShape(`swap ${i} is nested more than ${MAX_NESTING} levels deep`, request);
  }
  return body as Swap[];
}

/**
 * Levels of arrays and objects a swap may hold (it has 3: tags, then a tag): deeper, writing it (JSON.stringify,
 * walks of our own) would overflow the stack instead of saying what is wrong. json-elements.ts checks it on bytes.
 */
export const MAX_NESTING = 64;

/** Whether `value` has arrays or objects more than `levels` deep (a swap itself is one level). */
function deeperThan(value: unknown, levels: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (levels === 0) return true;
  for (const inner of Array.isArray(value) ? value : Object.values(value)) if (deeperThan(inner, levels - 1)) return true;
  return false;
}

/** The shape as a list, read once per swap in a tight loop: an export checks every field of every swap. */
const SWAP_FIELDS_CHECKED = Object.entries(SWAP_SHAPE).map(([field, kind]) => ({ field, kind, optional: kind !== 'date' || DEPRECATED.has(field) }));

/** One element of a swaps array, `i` its place in the array (for the message). */
export function checkSwap(swap: unknown, i: number, request: RequestInfo): Swap {
  if (swap === null || typeof swap !== 'object' || Array.isArray(swap)) throw wrongShape(`swap ${i} is ${typeName(swap)}, not an object`, request);
  const record = swap as Record<string, unknown>;
  for (const { field, kind, optional } of SWAP_FIELDS_CHECKED) {
    const value = record[field];
    if (value === undefined && !(field in record)) {
      // A serializer that leaves nulls out, or a deprecated field retired: absent reads as null.
      if (optional) continue;
      throw wrongShape(`swap ${i} has no ${field}`, request);
    }
    if (!fits(kind, value)) throw wrongShape(`swap ${i} ${field} is ${typeName(value)}, expected ${EXPECTED[kind]}`, request);
  }
  if ('balanceChanges' in record && !fits('changes!', record.balanceChanges)) {
    throw wrongShape(`swap ${i} balanceChanges is ${typeName(record.balanceChanges)}, expected ${EXPECTED['changes!']}`, request);
  }
  return swap as Swap;
}

/**
 * The lookups' records, field by field as for swaps: a field left out reads as null (a serializer that leaves
 * nulls out), a field of the wrong type is an error, never a cell with {"a":1} in it or a crash further on.
 */
export const CHAIN_SHAPE: Record<string, Kind> = { blockchainId: 'string?', name: 'string?', explorerUrl: 'string?' };
export const TOKEN_SHAPE: Record<string, Kind> = { symbol: 'string?', name: 'string?', contract: 'string?', url: 'string?' };
export const BRIDGE_SHAPE: Record<string, Kind> = {
  earliestSwapTimestamp: 'date?',
  latestSwapTimestamp: 'date?',
  allTimeSwapsCount: 'number?',
  supportedChains: 'strings?',
  url: 'string?',
  icon: 'string?',
  key: 'string?',
  name: 'string?',
  allTimeSwapsVolume: 'number',
  status: 'string',
  delisted: 'boolean',
};

/** Chains, tokens and bridges: an array of objects whose fields have the spec's types. */
export function checkObjects<T>(body: unknown, what: string, request: RequestInfo, shape: Record<string, Kind>): T[] {
  if (!Array.isArray(body)) throw wrongShape(`expected an array of ${what}, got ${typeName(body)}`, request);
  for (let i = 0; i < body.length; i++) {
    const item: unknown = body[i];
    if (item === null || typeof item !== 'object' || Array.isArray(item)) throw wrongShape(`${what} ${i} is ${typeName(item)}, not an object`, request);
    for (const [field, kind] of Object.entries(shape)) {
      const value = (item as Record<string, unknown>)[field];
      if (value !== undefined && !fits(kind, value)) throw wrongShape(`${what} ${i} ${field} is ${typeName(value)}, expected ${EXPECTED[kind]}`, request);
    }
  }
  return body as T[];
}

export function checkTokenPage(body: unknown, request: RequestInfo): TokenPage {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw wrongShape(`expected a token page, got ${typeName(body)}`, request);
  const page = body as Record<string, unknown>;
  // Number.isInteger is false for anything not a number (it does not convert).
  if (!Number.isInteger(page.totalCount)) throw wrongShape(`totalCount is ${typeName(page.totalCount)}, expected an integer`, request);
  if (page.items !== null) checkObjects(page.items, 'tokens', request, TOKEN_SHAPE);
  return body as TokenPage;
}
