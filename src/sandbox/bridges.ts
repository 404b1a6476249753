/**
 * The bridges the sandbox tracks. Statuses follow the spec's rule (last
 * capture within 24 h / 7 days), so latestSwapTimestamp is derived from the
 * sandbox clock; swaps are only ever attributed to operational, listed bridges.
 */
import type { Bridge, BridgeStatus } from '../api/types.js';
import { formatUtc } from '../util/time.js';
import { chainById } from './chains.js';
import { randomAddress } from './formats.js';
import { hash4, hashString, Rng } from './random.js';

export interface BridgeDef {
  key: string;
  name: string;
  url: string;
  chains: readonly string[];
  status: BridgeStatus;
  delisted: boolean;
  /** First tracked swap (UTC date); null for a bridge with nothing tracked yet. */
  since: string | null;
  /** Last tracked swap of a delisted bridge; others derive it from the clock. */
  until?: string;
  /** Rough all-time volume in USD; also the bridge's share of new swaps. */
  volume: number;
}

const EVM_ALL = ['ethereum', 'arbitrum', 'base', 'optimism', 'polygon', 'bsc', 'avalanche', 'linea', 'zksync'];
const L2S = ['ethereum', 'arbitrum', 'base', 'optimism', 'polygon', 'linea', 'zksync'];
const MAJOR = ['ethereum', 'arbitrum', 'base', 'optimism', 'polygon', 'bsc', 'avalanche'];

export const BRIDGES: readonly BridgeDef[] = [
  {
    key: 'stargate',
    name: 'Stargate',
    url: 'https://stargate.finance',
    chains: [...MAJOR, 'linea'],
    status: 'Operational',
    delisted: false,
    since: '2022-03-17',
    volume: 62e9,
  },
  { key: 'across', name: 'Across', url: 'https://across.to', chains: L2S, status: 'Operational', delisted: false, since: '2021-11-08', volume: 21e9 },
  {
    key: 'relay',
    name: 'Relay',
    url: 'https://relay.link',
    chains: [...EVM_ALL, 'solana'],
    status: 'Operational',
    delisted: false,
    since: '2023-09-12',
    volume: 9.4e9,
  },
  {
    key: 'debridge',
    name: 'deBridge',
    url: 'https://debridge.finance',
    chains: [...MAJOR, 'linea', 'solana'],
    status: 'Operational',
    delisted: false,
    since: '2022-02-24',
    volume: 11e9,
  },
  {
    key: 'wormhole',
    name: 'Portal (Wormhole)',
    url: 'https://portalbridge.com',
    chains: [...MAJOR, 'solana'],
    status: 'Operational',
    delisted: false,
    since: '2021-08-09',
    volume: 48e9,
  },
  {
    key: 'mayan',
    name: 'Mayan',
    url: 'https://mayan.finance',
    chains: [...MAJOR, 'solana'],
    status: 'Operational',
    delisted: false,
    since: '2023-01-18',
    volume: 5.1e9,
  },
  {
    key: 'thorchain',
    name: 'THORChain',
    url: 'https://thorchain.org',
    chains: ['bitcoin', 'ethereum', 'bsc', 'avalanche', 'base'],
    status: 'Operational',
    delisted: false,
    since: '2021-04-13',
    volume: 33e9,
  },
  {
    key: 'chainflip',
    name: 'Chainflip',
    url: 'https://chainflip.io',
    chains: ['bitcoin', 'ethereum', 'arbitrum', 'solana'],
    status: 'Operational',
    delisted: false,
    since: '2023-11-23',
    volume: 1.9e9,
  },
  {
    key: 'allbridge',
    name: 'Allbridge Core',
    url: 'https://allbridge.io',
    chains: [...MAJOR, 'solana', 'tron'],
    status: 'Operational',
    delisted: false,
    since: '2023-03-01',
    volume: 2.6e9,
  },
  {
    key: 'symbiosis',
    name: 'Symbiosis',
    url: 'https://symbiosis.finance',
    chains: [...EVM_ALL, 'tron', 'ton'],
    status: 'Operational',
    delisted: false,
    since: '2022-04-05',
    volume: 3.8e9,
  },
  {
    key: 'rhino',
    name: 'rhino.fi',
    url: 'https://rhino.fi',
    chains: [...L2S, 'bsc', 'solana', 'tron', 'ton'],
    status: 'Operational',
    delisted: false,
    since: '2022-06-20',
    volume: 1.4e9,
  },
  {
    key: 'rainbow',
    name: 'Rainbow Bridge',
    url: 'https://rainbowbridge.app',
    chains: ['ethereum', 'near'],
    status: 'Operational',
    delisted: false,
    since: '2021-03-29',
    volume: 1.1e9,
  },
  {
    key: 'orbiter',
    name: 'Orbiter Finance',
    url: 'https://orbiter.finance',
    chains: L2S,
    status: 'Operational',
    delisted: false,
    since: '2022-01-10',
    volume: 4.3e9,
  },
  {
    key: 'cbridge',
    name: 'Celer cBridge',
    url: 'https://cbridge.celer.network',
    chains: EVM_ALL,
    status: 'Warning',
    delisted: false,
    since: '2021-07-15',
    volume: 14e9,
  },
  { key: 'synapse', name: 'Synapse', url: 'https://synapseprotocol.com', chains: MAJOR, status: 'Warning', delisted: false, since: '2021-08-29', volume: 18e9 },
  { key: 'gaszip', name: 'Gas.zip', url: 'https://gas.zip', chains: EVM_ALL, status: 'Warning', delisted: false, since: null, volume: 0 },
  {
    key: 'hop',
    name: 'Hop Protocol',
    url: 'https://hop.exchange',
    chains: L2S.slice(0, 6),
    status: 'Malfunction',
    delisted: false,
    since: '2021-07-06',
    volume: 6.2e9,
  },
  {
    key: 'meson',
    name: 'Meson',
    url: 'https://meson.fi',
    chains: [...EVM_ALL, 'tron'],
    status: 'Malfunction',
    delisted: false,
    since: '2022-05-30',
    volume: 0.9e9,
  },
  {
    key: 'multichain',
    name: 'Multichain',
    url: 'https://multichain.org',
    chains: MAJOR,
    status: 'Malfunction',
    delisted: true,
    since: '2021-01-12',
    until: '2023-07-06',
    volume: 29e9,
  },
  {
    key: 'connext',
    name: 'Connext (legacy)',
    url: 'https://connext.network',
    chains: L2S.slice(0, 5),
    status: 'Malfunction',
    delisted: true,
    since: '2022-06-01',
    until: '2024-09-30',
    volume: 3.3e9,
  },
  {
    key: 'nomad',
    name: 'Nomad',
    url: 'https://nomad.xyz',
    chains: ['ethereum', 'avalanche'],
    status: 'Malfunction',
    delisted: true,
    since: '2022-01-11',
    until: '2022-08-01',
    volume: 0.4e9,
  },
];

/** Bridges new swaps are attributed to: listed and capturing transfers. */
export const SWAP_BRIDGES: readonly BridgeDef[] = BRIDGES.filter((b) => b.status === 'Operational' && !b.delisted);

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Last capture consistent with the status at `now`, whole seconds. */
function latestSwap(def: BridgeDef, seed: number, now: number): number | null {
  if (def.since === null) return null;
  if (def.until) return Date.parse(`${def.until}T00:00:00Z`) + (hash4(seed, hashString(def.key), 1) % DAY);
  const h = hash4(seed, hashString(def.key), 2);
  const ago = def.status === 'Operational' ? h % 300_000 : def.status === 'Warning' ? DAY + (h % (5 * DAY)) : 8 * DAY + (h % (40 * DAY));
  return Math.floor((now - ago) / 1000) * 1000;
}

export function bridgesAt(seed: number, now: number, includeDelisted: boolean): Bridge[] {
  const out: Bridge[] = [];
  for (const def of BRIDGES) {
    if (def.delisted && !includeDelisted) continue;
    const r = Rng.of(seed, hashString(def.key), 0, 0xb41d);
    const volume = def.volume === 0 ? 0 : Math.round(def.volume * (0.85 + 0.3 * r.float()) * 100) / 100;
    const latest = latestSwap(def, seed, now);
    out.push({
      earliestSwapTimestamp: def.since === null ? null : formatUtc(Date.parse(`${def.since}T00:00:00Z`) + r.int(DAY / 1000) * 1000),
      latestSwapTimestamp: latest === null ? null : formatUtc(latest),
      // Average ticket of a few thousand USD gives plausible counts.
      allTimeSwapsCount: def.since === null ? null : Math.round(volume / (1800 + r.int(4000))),
      supportedChains: [...def.chains],
      url: def.url,
      icon: `https://assets.xflow.example/bridges/${def.key}.svg`,
      key: def.key,
      name: def.name,
      allTimeSwapsVolume: volume,
      status: def.status,
      delisted: def.delisted,
    });
  }
  return out.sort((a, b) => b.allTimeSwapsVolume - a.allTimeSwapsVolume);
}

/** seed → bridge → chain → slot → address; nested maps keep the hot path free of key strings. */
const protocolCache = new Map<number, Map<BridgeDef, Map<string, string[]>>>();

/**
 * A bridge's contract on a chain. Each bridge has up to three per chain
 * (router, pool, messenger), stable for a seed.
 */
export function protocolAddress(seed: number, bridge: BridgeDef, chainId: string, slot: number): string {
  let bySeed = protocolCache.get(seed);
  if (!bySeed) {
    if (protocolCache.size >= 16) protocolCache.clear();
    protocolCache.set(seed, (bySeed = new Map()));
  }
  let byChain = bySeed.get(bridge);
  if (!byChain) bySeed.set(bridge, (byChain = new Map()));
  let slots = byChain.get(chainId);
  if (!slots) byChain.set(chainId, (slots = []));
  let address = slots[slot];
  if (address === undefined) {
    const chain = chainById(chainId);
    if (!chain) throw new Error(`unknown chain ${chainId}`);
    address =
      chain.family === 'near'
        ? `${['', 'pool.', 'relay.'][slot] ?? ''}${bridge.key}-bridge.near`
        : randomAddress(chain.family, Rng.of(seed, hashString(bridge.key), hashString(chainId), 0xc0 + slot));
    slots[slot] = address;
  }
  return address;
}
