/**
 * The sandbox: a faithful local copy of the export API (startSandbox) and the
 * pure data functions behind it, so tests and benchmarks can compute what the
 * API will return without HTTP.
 */
import type { Bridge, DateRangeFilter, Swap, TokenPage } from '../api/types.js';
import { bridgesAt } from './bridges.js';
import { chainById, chainTokens } from './chains.js';
import { DATA_DEFAULTS, datasetFor, type DataOptions } from './dataset.js';
import { seedKey } from './random.js';
import { parseApiDateTime } from './validation.js';

export { startSandbox, type RunningSandbox, type SandboxOptions } from './server.js';
export { SwapDataset, DATA_DEFAULTS, datasetFor, type DataOptions } from './dataset.js';
export { MAX_DELAY_MS, MAX_OFFSET_MS } from './timeline.js';
export { listChains } from './chains.js';
export { FAULT_KINDS, checkFaultKinds, type FaultKind } from './faults.js';
export { parseApiDateTime } from './validation.js';

export interface WindowQuery {
  /** Start, inclusive: epoch ms or an ISO 8601 string (no zone = UTC). */
  from: number | string;
  /** End, inclusive. Unlike the API, any span is allowed. */
  to: number | string;
  /** Default 'Withdrawn', as the API's. */
  filter?: DateRangeFilter;
  /** The clock for visibility (epoch ms). Default Date.now(), as the sandbox's. */
  now?: number;
}

function toMs(value: number | string): number {
  const ms = typeof value === 'number' ? value : parseApiDateTime(value);
  if (ms === undefined || !Number.isFinite(ms)) throw new RangeError(`Not a date-time: ${String(value)}`);
  return ms;
}

function windowArgs(query: WindowQuery): [number, number, DateRangeFilter, number] {
  return [toMs(query.from), toMs(query.to), query.filter ?? 'Withdrawn', query.now ?? Date.now()];
}

/** Exactly what GET /v1/external/swaps returns for this window (same objects, same order). */
export function swapsInWindow(query: WindowQuery, options?: DataOptions): Swap[] {
  return datasetFor(options).windowSwaps(...windowArgs(query));
}

/** swapsInWindow one swap at a time; each swap appears once, even on a boundary. */
export function iterateSwapsInWindow(query: WindowQuery, options?: DataOptions): Generator<Swap> {
  return datasetFor(options).iterateWindow(...windowArgs(query));
}

/** How many swaps swapsInWindow would return; cheap (times only). */
export function countSwapsInWindow(query: WindowQuery, options?: DataOptions): number {
  return datasetFor(options).countWindow(...windowArgs(query));
}

/** Exactly what GET /v1/external/swaps/{identifier} returns (balanceChanges included). */
export function findSwaps(identifier: string, options?: DataOptions & { now?: number }): Swap[] {
  return datasetFor(options).find(identifier, options?.now ?? Date.now());
}

/** GET /v1/external/chains/{id}/tokens; undefined where the API answers 404. Take 100 and Offset 0 by default. */
export function listTokens(blockchainId: string, page: { take?: number; offset?: number } = {}, options: { seed?: number } = {}): TokenPage | undefined {
  const chain = chainById(blockchainId);
  if (!chain) return undefined;
  const all = chainTokens(chain, seedKey(options.seed ?? DATA_DEFAULTS.seed));
  const offset = page.offset ?? 0;
  return { items: all.slice(offset, offset + (page.take ?? 100)).map((t) => ({ ...t })), totalCount: all.length };
}

/** GET /v1/external/bridges: sorted by allTimeSwapsVolume, descending. */
export function listBridges(query: { includeDelisted?: boolean; now?: number } = {}, options: { seed?: number } = {}): Bridge[] {
  return bridgesAt(seedKey(options.seed ?? DATA_DEFAULTS.seed), query.now ?? Date.now(), query.includeDelisted ?? false);
}
