import { describe, expect, it } from 'vitest';
import { BRIDGE_STATUSES, type Bridge, type Chain, type TokenPage } from '../../src/api/types.js';
import { listBridges, listChains, listTokens } from '../../src/sandbox/index.js';
import { NOW, get, notFoundBody, useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox({ seed: 5 });

describe('sandbox chains and tokens', () => {
  it('lists at least the twelve required chains with explorer URLs', async () => {
    const res = await get(sandbox(), '/v1/external/chains');
    const chains = res.json as Chain[];
    expect(chains).toStrictEqual(listChains());
    const ids = chains.map((c) => c.blockchainId);
    for (const id of ['ethereum', 'arbitrum', 'base', 'optimism', 'polygon', 'bsc', 'avalanche', 'solana', 'bitcoin', 'tron', 'near', 'ton']) {
      expect(ids).toContain(id);
    }
    for (const c of chains) {
      expect(c.blockchainId).toBe(c.blockchainId!.toLowerCase());
      expect(c.name).toBeTruthy();
      expect(c.explorerUrl).toMatch(/^https:\/\/[a-z0-9.-]+$/);
    }
  });

  it('pages tokens with Take (default 100) and Offset (default 0)', async () => {
    const path = '/v1/external/chains/ethereum/tokens';
    const first = (await get(sandbox(), path)).json as TokenPage;
    expect(first.items).toHaveLength(100);
    expect(first.totalCount).toBeGreaterThan(2500);
    expect(first.items!.slice(0, 3).map((t) => t.symbol)).toEqual(['ETH', 'USDC', 'USDT']);
    const page = (await get(sandbox(), `${path}?Take=10&Offset=95`)).json as TokenPage;
    expect(page.items!.slice(0, 5)).toStrictEqual(first.items!.slice(95));
    expect(page.totalCount).toBe(first.totalCount);
    const tail = (await get(sandbox(), `${path}?take=1000&offset=${first.totalCount - 3}`)).json as TokenPage;
    expect(tail.items).toHaveLength(3);
    expect(tail.items![0]!.symbol).toMatch(/^TKN\d+$/);
    expect(((await get(sandbox(), `${path}?Take=0`)).json as TokenPage).items).toEqual([]);
    expect(((await get(sandbox(), `${path}?Offset=100000`)).json as TokenPage).items).toEqual([]);
    expect(page).toStrictEqual(listTokens('ethereum', { take: 10, offset: 95 }, { seed: 5 }));
  });

  it('walks all ethereum tokens in 1000-token pages without gaps or repeats', async () => {
    const seen: string[] = [];
    for (let offset = 0; ; offset += 1000) {
      const page = (await get(sandbox(), `/v1/external/chains/ethereum/tokens?Take=1000&Offset=${offset}`)).json as TokenPage;
      seen.push(...page.items!.map((t) => t.contract!));
      if (page.items!.length < 1000) break;
    }
    expect(seen.length).toBe(listTokens('ethereum', {}, { seed: 5 })!.totalCount);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('gives every other chain tens of tokens with explorer URLs', async () => {
    for (const chain of listChains().filter((c) => c.blockchainId !== 'ethereum')) {
      const page = (await get(sandbox(), `/v1/external/chains/${chain.blockchainId}/tokens?Take=1000`)).json as TokenPage;
      expect(page.totalCount).toBeGreaterThanOrEqual(10);
      expect(page.totalCount).toBeLessThan(100);
      for (const t of page.items!) expect(t.url!.startsWith('https://')).toBe(true);
    }
  });

  it('answers 404 ProblemDetails for an unknown chain', async () => {
    const res = await get(sandbox(), '/v1/external/chains/dogechain/tokens');
    expect(res.status).toBe(404);
    expect(res.json).toStrictEqual(notFoundBody('/v1/external/chains/dogechain/tokens', "Blockchain 'dogechain' is not supported."));
  });
});

describe('sandbox bridges', () => {
  it('sorts by allTimeSwapsVolume descending and hides delisted bridges by default', async () => {
    const listed = (await get(sandbox(), '/v1/external/bridges')).json as Bridge[];
    const all = (await get(sandbox(), '/v1/external/bridges?includeDelisted=true')).json as Bridge[];
    const explicitFalse = (await get(sandbox(), '/v1/external/bridges?includeDelisted=false')).json as Bridge[];
    expect(explicitFalse).toStrictEqual(listed);
    expect(all.length).toBeGreaterThanOrEqual(15);
    expect(listed.every((b) => !b.delisted)).toBe(true);
    expect(all.filter((b) => b.delisted).length).toBeGreaterThan(0);
    expect(all.filter((b) => !b.delisted)).toStrictEqual(listed);
    for (const list of [listed, all]) {
      const volumes = list.map((b) => b.allTimeSwapsVolume);
      expect(volumes).toEqual([...volumes].sort((a, b) => b - a));
    }
    expect(new Set(listed.map((b) => b.status))).toEqual(new Set(BRIDGE_STATUSES));
    expect(all).toStrictEqual(listBridges({ includeDelisted: true, now: NOW }, { seed: 5 }));
  });

  it('keeps statuses consistent with the latest swap time', async () => {
    const all = (await get(sandbox(), '/v1/external/bridges?includeDelisted=true')).json as Bridge[];
    for (const b of all) {
      expect(b.key).toMatch(/^[a-z0-9-]+$/);
      expect(b.supportedChains!.length).toBeGreaterThanOrEqual(2);
      if (b.latestSwapTimestamp === null) continue;
      const age = NOW - Date.parse(b.latestSwapTimestamp);
      if (b.status === 'Operational') expect(age).toBeLessThan(86_400_000);
      if (b.status === 'Warning') expect(age).toBeGreaterThanOrEqual(86_400_000);
      if (b.status === 'Malfunction') expect(age).toBeGreaterThanOrEqual(7 * 86_400_000);
      expect(Date.parse(b.earliestSwapTimestamp!)).toBeLessThan(Date.parse(b.latestSwapTimestamp));
    }
  });
});
