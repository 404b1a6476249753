/**
 * Each chain's block explorer, for the links of a swap card: from the chain list (GET /chains), kept a day per API
 * (the list changes rarely, and a lookup should not wait for it each time). Asked beside the lookup, not after it;
 * a list that cannot be had leaves the card without links, never fails the lookup.
 */
import type { SwapxClient } from '../api/client.js';
import type { Chain } from '../api/types.js';
import { DAY_MS, readCache, writeCache } from '../config/cache.js';
import { fingerprint } from '../util/fingerprint.js';

/** blockchainId → the explorer's address, as the API gives it. */
export type Explorers = ReadonlyMap<string, string>;

type Known = { blockchainId: string; explorerUrl: string }[];

function isKnown(value: unknown): value is Known {
  return Array.isArray(value) && value.every((c) => typeof c?.blockchainId === 'string' && typeof c?.explorerUrl === 'string');
}

/** The explorers of the API at `baseUrl`; undefined when its chain list cannot be had (or `signal` gives up on it). Never rejects. */
export async function explorersOf(
  client: SwapxClient,
  baseUrl: string,
  env: NodeJS.ProcessEnv,
  now: number,
  signal?: AbortSignal,
): Promise<Explorers | undefined> {
  const name = `chains-${fingerprint({ baseUrl })}`;
  let known = readCache(env, name, now, DAY_MS, isKnown);
  if (!known) {
    let chains: Chain[];
    try {
      chains = await client.listChains({ signal });
    } catch {
      return undefined;
    }
    known = chains.flatMap((c) =>
      typeof c.blockchainId === 'string' && typeof c.explorerUrl === 'string' ? [{ blockchainId: c.blockchainId, explorerUrl: c.explorerUrl }] : [],
    );
    await writeCache(env, name, known, now);
  }
  return new Map(known.map((c) => [c.blockchainId, c.explorerUrl]));
}

/**
 * `EXPLORER/tx/HASH`, joined without a double slash (an explorer's address may end in one, or carry a path); undefined
 * for an address that is not http(s) (a link the API sends is opened by a click: no javascript:, file: or data:).
 */
export function transactionUrl(explorerUrl: string | undefined, hash: string | null | undefined): string | undefined {
  if (!explorerUrl || !hash) return undefined;
  let url: URL;
  try {
    url = new URL(explorerUrl.trim());
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/tx/${encodeURIComponent(hash)}`;
  // href is printable ASCII (controls, spaces and non-ASCII are percent-encoded): it cannot end an OSC 8 sequence early.
  return url.href;
}
