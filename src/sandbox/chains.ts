/** The sandbox's chains and tokens as the API serves them, made from the catalog's table (catalog.ts). */
import type { Chain, Token } from '../api/types.js';
import { CHAINS, EVM_NATIVE, type ChainDef, type TokenDef } from './catalog.js';
import { randomAddress } from './formats.js';
import { hashString, Rng } from './random.js';

const BY_ID = new Map(CHAINS.map((c) => [c.id, c] as const));

/** A chain by blockchainId, case-insensitively (route values are not case-sensitive). */
export function chainById(id: string): ChainDef | undefined {
  return BY_ID.get(id.toLowerCase());
}

export function listChains(): Chain[] {
  return CHAINS.map((c) => ({ blockchainId: c.id, name: c.name, explorerUrl: c.explorerUrl }));
}

function parseRow(row: string): TokenDef {
  const [symbol = '', name = '', contract = '', decimals = '18', price = '0', weight = '0'] = row.split('|');
  return { symbol, name, contract: contract || null, decimals: Number(decimals), priceUsd: Number(price), weight: Number(weight) };
}

/** Tokens a swap may move on this chain, in catalog order. */
export function swapTokens(chain: ChainDef): TokenDef[] {
  return chain.tokens.map(parseRow).filter((t) => t.weight > 0);
}

function tokenUrl(chain: ChainDef, token: TokenDef): string {
  if (token.contract === null || token.contract === EVM_NATIVE) return chain.explorerUrl;
  switch (chain.family) {
    case 'tron':
      return `${chain.explorerUrl}/#/token20/${token.contract}`;
    case 'ton':
      return `${chain.explorerUrl}/${token.contract}`;
    case 'bitcoin':
      return `https://ordiscan.com/rune/${token.symbol}`;
    default:
      return `${chain.explorerUrl}/token/${token.contract}`;
  }
}

function syntheticToken(chain: ChainDef, seed: number, n: number): TokenDef {
  const r = Rng.of(seed, hashString(chain.id), n, 0x70c);
  // Bitcoin has no contracts; its fungible tokens are runes, identified by `block:tx`.
  const contract = chain.family === 'bitcoin' ? `${840000 + r.int(60000)}:${r.int(4000)}` : randomAddress(chain.family, r);
  return { symbol: `TKN${n}`, name: `Token ${n}`, contract, decimals: 18, priceUsd: 0, weight: 0 };
}

const tokenCache = new Map<string, Token[]>();

/** The full token list of a chain, deterministic for a seed key. */
export function chainTokens(chain: ChainDef, seed: number): Token[] {
  const cacheKey = `${seed}:${chain.id}`;
  let list = tokenCache.get(cacheKey);
  if (!list) {
    const defs = chain.tokens.map(parseRow);
    for (let n = 1; defs.length < chain.tokenCount; n++) defs.push(syntheticToken(chain, seed, n));
    list = defs.map((t) => ({ symbol: t.symbol, name: t.name, contract: t.contract, url: tokenUrl(chain, t) }));
    if (tokenCache.size > 64) tokenCache.clear();
    tokenCache.set(cacheKey, list);
  }
  return list;
}
