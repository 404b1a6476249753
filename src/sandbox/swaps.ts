/**
 * One swap, built from (seed, minute, index) and its precomputed times. The
 * draw order below is part of the data: changing it changes every swap.
 */
import type { BalanceChange, InOutDollarStatus, Swap, Tag } from '../api/types.js';
import { formatTimestamp } from './clock.js';
import { balanceChange, quantize, roundUsd } from './amounts.js';
import { protocolAddress, SWAP_BRIDGES, type BridgeDef } from './bridges.js';
import type { ChainDef, TokenDef } from './catalog.js';
import { chainById, swapTokens } from './chains.js';
import { DESTINATION, encodeId, sealTx, SOURCE, type Side } from './reversible-ids.js';
import { formatTx, randomAddress, TX_BYTES } from './formats.js';
import { cumulative, hashString, Rng } from './random.js';
import type { UpdateKind } from './timeline.js';

const TAG_BODY = 0x5a;

interface BridgeChoice {
  def: BridgeDef;
  chains: ChainDef[];
  chainWeights: number[];
}

const BRIDGE_CHOICES: BridgeChoice[] = SWAP_BRIDGES.map((def) => {
  const chains = def.chains.map((id) => {
    const chain = chainById(id);
    if (!chain) throw new Error(`bridge ${def.key} lists unknown chain ${id}`);
    return chain;
  });
  return { def, chains, chainWeights: cumulative(chains.map((c) => c.weight)) };
});
const BRIDGE_WEIGHTS = cumulative(SWAP_BRIDGES.map((b) => Math.sqrt(b.volume)));

const TOKENS = new Map<string, { list: TokenDef[]; weights: number[] }>();
function tokensOf(chain: ChainDef): { list: TokenDef[]; weights: number[] } {
  let entry = TOKENS.get(chain.id);
  if (!entry) {
    const list = swapTokens(chain);
    entry = { list, weights: cumulative(list.map((t) => t.weight)) };
    TOKENS.set(chain.id, entry);
  }
  return entry;
}

/** Addresses by seed, chain and slot, generated on first use. */
const addressPools = new Map<number, Map<string, string[]>>();

function pooledAddress(seed: number, chain: ChainDef, slot: number): string {
  let bySeed = addressPools.get(seed);
  if (!bySeed) {
    if (addressPools.size >= 16) addressPools.clear();
    addressPools.set(seed, (bySeed = new Map()));
  }
  let pool = bySeed.get(chain.id);
  if (!pool) bySeed.set(chain.id, (pool = []));
  return (pool[slot] ??= randomAddress(chain.family, Rng.of(seed, hashString(chain.id), slot, 0xacc)));
}

/** Users come back: accounts are drawn from a per-chain pool, skewed towards a few busy ones. */
const ACCOUNT_POOL = 4096;
const account = (seed: number, chain: ChainDef, r: Rng) => pooledAddress(seed, chain, Math.floor(ACCOUNT_POOL * r.float() ** 2));

/** Aggregators some swaps are routed through (sourceInteractedWith + an agg-affiliate tag). */
const AGGREGATORS = ['jumper', 'rango', 'bungee', 'squid', 'rubic', 'xyfinance'];

const STATUS_FINAL: readonly InOutDollarStatus[] = ['OK', 'NotFound', 'MismatchDetected', 'Unprocessed'];
const STATUS_FINAL_WEIGHTS = cumulative([72, 10, 10, 8]);
const STATUS_UPDATED: readonly InOutDollarStatus[] = ['OK', 'NotFound', 'MismatchDetected'];
const STATUS_UPDATED_WEIGHTS = cumulative([80, 5, 15]);

/** Inputs from the timeline layer. */
export interface SwapSeedData {
  minute: number;
  index: number;
  times: ArrayLike<number>;
  at: number;
  updateKind: UpdateKind;
  /** The version served: 0 at completion, 1 after the first update, 2 after the late correction. */
  version?: 0 | 1 | 2;
  /** updatedAt of that version (default: the first update's time in `times`). */
  updatedAt?: number;
}

function pickChains(r: Rng, choice: BridgeChoice): [ChainDef, ChainDef] {
  const src = r.weighted(choice.chainWeights);
  let dst = r.weighted(choice.chainWeights);
  if (dst === src) dst = (src + 1 + r.int(choice.chains.length - 1)) % choice.chains.length;
  return [choice.chains[src] as ChainDef, choice.chains[dst] as ChainDef];
}

function pickToken(r: Rng, chain: ChainDef, preferSymbol?: string): TokenDef {
  const { list, weights } = tokensOf(chain);
  if (preferSymbol !== undefined && r.chance(0.75)) {
    const same = list.find((t) => t.symbol === preferSymbol);
    if (same) return same;
  }
  return list[r.weighted(weights)] as TokenDef;
}

function txHash(seed: number, r: Rng, chain: ChainDef, minute: number, index: number, side: Side): string {
  const bytes = new Uint8Array(TX_BYTES[chain.family]);
  r.fill(bytes, bytes.length - 12);
  return formatTx(chain.family, sealTx(seed, bytes, { minute, index }, side));
}

function otherAddresses(r: Rng, seed: number, bridge: BridgeDef, chain: ChainDef): string[] | null {
  const u = r.float();
  if (u < 0.4) return null;
  if (u < 0.75) return [];
  const out = [protocolAddress(seed, bridge, chain.id, 2)];
  if (r.chance(0.3)) out.push(randomAddress(chain.family, r));
  return out;
}

function usdAmounts(r: Rng, status: InOutDollarStatus, depositUsd: number, withdrawnUsd: number): [number | null, number | null] {
  switch (status) {
    case 'Unprocessed':
      return [null, null];
    case 'NotFound': {
      const u = r.float();
      return u < 0.6 ? [null, null] : u < 0.8 ? [null, roundUsd(withdrawnUsd)] : [roundUsd(depositUsd), null];
    }
    case 'MismatchDetected': {
      const factor = r.chance(0.5) ? 0.4 + 0.45 * r.float() : 1.2 + 1.3 * r.float();
      return [roundUsd(depositUsd), roundUsd(withdrawnUsd * factor)];
    }
    case 'OK':
      return [roundUsd(depositUsd), roundUsd(withdrawnUsd)];
  }
}

function tagsFor(r: Rng, aggregator: string | null): Tag[] | null {
  const u = r.float();
  if (u < 0.45) return null;
  if (u < 0.65) return aggregator ? [{ type: 'agg-affiliate', value: aggregator }] : [];
  const tags: Tag[] = [];
  if (aggregator) tags.push({ type: 'agg-affiliate', value: aggregator });
  if (r.chance(0.5) || tags.length === 0) tags.push({ type: 'chain-nonce', value: String(r.range(1, 2_000_000)) });
  if (r.chance(0.12)) tags.push({ type: 'nft', value: r.chance(0.5) ? 'deposit' : 'withdrawal' });
  return tags;
}

const TAG_VERSION = 0x7e;

/**
 * Earlier and later versions than the one buildSwap draws (what really changes after completion:
 * USD amounts, usdMismatchStatus, tags; never ids, hashes or times other than updatedAt).
 * Before its first update a swap is unpriced; its correction re-prices it and may settle a verdict.
 */
function applyVersion(seed: number, data: SwapSeedData, swap: Swap): void {
  const version = data.version ?? (data.updateKind === 0 ? 0 : 1);
  if (version === 0 && data.updateKind !== 0) {
    swap.depositUsdAmount = null;
    swap.withdrawnUsdAmount = null;
    swap.usdMismatchStatus = 'Unprocessed';
    swap.tags = null;
    return;
  }
  if (version !== 2) return;
  const r = Rng.of(seed, data.minute, data.index, TAG_VERSION);
  const reprice = (usd: number | null) => (usd === null ? null : roundUsd(usd * (0.97 + 0.06 * r.float())));
  swap.depositUsdAmount = reprice(swap.depositUsdAmount);
  swap.withdrawnUsdAmount = reprice(swap.withdrawnUsdAmount);
  const u = r.float();
  if (swap.usdMismatchStatus === 'MismatchDetected' && u < 0.5) {
    swap.usdMismatchStatus = 'OK';
    swap.withdrawnUsdAmount = swap.depositUsdAmount;
  } else if (swap.usdMismatchStatus === 'OK' && u < 0.1) swap.usdMismatchStatus = 'MismatchDetected';
  else if (swap.usdMismatchStatus === 'Unprocessed' || swap.usdMismatchStatus === 'NotFound') {
    swap.usdMismatchStatus = 'NotFound';
  }
  if (r.chance(0.3) && !swap.tags?.some((tag) => tag.type === 'chain-nonce'))
    swap.tags = [...(swap.tags ?? []), { type: 'chain-nonce', value: String(r.range(1, 2_000_000)) }];
}

/** Builds the swap; with `withBalances`, also its balanceChanges (as the lookup serves it). */
export function buildSwap(seed: number, data: SwapSeedData, withBalances: boolean): Swap {
  const { minute, index, times, at } = data;
  const r = Rng.of(seed, minute, index, TAG_BODY);
  const choice = BRIDGE_CHOICES[r.weighted(BRIDGE_WEIGHTS)] as BridgeChoice;
  const bridge = choice.def;
  const [src, dst] = pickChains(r, choice);
  const srcToken = pickToken(r, src);
  const dstToken = pickToken(r, dst, srcToken.symbol);

  // Ticket size: log-normal around $300, from cents to millions.
  const usd = Math.min(5e6, Math.max(0.5, Math.exp(Math.log(300) + 1.6 * r.normal())));
  const fee = 0.0005 + 0.01 * r.float() ** 2;
  const deposit = quantize(usd / srcToken.priceUsd, srcToken.decimals);
  const withdrawn = quantize((deposit.value * srcToken.priceUsd * (1 - fee)) / dstToken.priceUsd, dstToken.decimals);
  const status =
    data.updateKind === 0
      ? (STATUS_FINAL[r.weighted(STATUS_FINAL_WEIGHTS)] as InOutDollarStatus)
      : (STATUS_UPDATED[r.weighted(STATUS_UPDATED_WEIGHTS)] as InOutDollarStatus);
  const noise = () => 1 + 0.002 * r.normal();
  const [depositUsd, withdrawnUsd] = usdAmounts(r, status, deposit.value * srcToken.priceUsd * noise(), withdrawn.value * dstToken.priceUsd * noise());

  const sourceAccount = account(seed, src, r);
  const destinationAccount = src.family === 'evm' && dst.family === 'evm' && r.chance(0.6) ? sourceAccount : account(seed, dst, r);
  const sourceProtocolAddress = protocolAddress(seed, bridge, src.id, r.int(2));
  const destinationProtocolAddress = protocolAddress(seed, bridge, dst.id, r.int(2));
  const aggregator = src.family === 'evm' && r.chance(0.25) ? r.pick(AGGREGATORS) : null;
  const sourceInteractedWith =
    src.family !== 'evm'
      ? null
      : aggregator
        ? pooledAddress(seed, src, ACCOUNT_POOL + AGGREGATORS.indexOf(aggregator)) // an aggregator's router on this chain
        : sourceProtocolAddress;
  const protocolKey = r.chance(0.08) ? null : r.chance(0.25) ? `${bridge.key}-v2` : bridge.key;
  const sourceOtherProtocolAddresses = otherAddresses(r, seed, bridge, src);
  const destinationOtherProtocolAddresses = otherAddresses(r, seed, bridge, dst);
  const sourceTransaction = txHash(seed, r, src, minute, index, SOURCE);
  const destinationTransaction = txHash(seed, r, dst, minute, index, DESTINATION);
  const intermediateSwapId = `0x${r.hex(64)}`;
  const tags = tagsFor(r, aggregator);
  const detectedAt = formatTimestamp(times[at + 2] as number);

  // Keys in the spec's order (SWAP_FIELDS), which is also the JSON order.
  const swap: Swap = {
    id: encodeId(seed, minute, index),
    timestamp: detectedAt,
    depositedAt: formatTimestamp(times[at] as number),
    withdrawnAt: formatTimestamp(times[at + 1] as number),
    detectedAt,
    completedAt: formatTimestamp(times[at + 3] as number),
    updatedAt: formatTimestamp(data.updatedAt ?? (times[at + 4] as number)),
    bridge: bridge.name,
    bridgeKey: bridge.key,
    sourceChain: src.id,
    destinationChain: dst.id,
    sourceAccount,
    destinationAccount,
    sourceInteractedWith,
    protocolKey,
    sourceProtocolAddress,
    destinationProtocolAddress,
    intermediateSwapId,
    sourceOtherProtocolAddresses,
    destinationOtherProtocolAddresses,
    sourceTransaction,
    destinationTransaction,
    sourceToken: srcToken.symbol,
    destinationToken: dstToken.symbol,
    sourceTokenContract: srcToken.contract,
    destinationTokenContract: dstToken.contract,
    depositAmount: deposit.value,
    withdrawnAmount: withdrawn.value,
    depositUsdAmount: depositUsd,
    withdrawnUsdAmount: withdrawnUsd,
    usdMismatchStatus: status,
    tags,
  };
  applyVersion(seed, data, swap);
  if (withBalances) {
    const changes: BalanceChange[] = [
      balanceChange(sourceAccount, src.id, srcToken.symbol, srcToken.contract, deposit, 'out'),
      balanceChange(sourceProtocolAddress, src.id, srcToken.symbol, srcToken.contract, deposit, 'in'),
      balanceChange(destinationProtocolAddress, dst.id, dstToken.symbol, dstToken.contract, withdrawn, 'out'),
      balanceChange(destinationAccount, dst.id, dstToken.symbol, dstToken.contract, withdrawn, 'in'),
    ];
    swap.balanceChanges = changes;
  }
  return swap;
}
