/**
 * The chains the sandbox tracks and their tokens: real-looking heads (real
 * contracts, decimals, rough prices) padded with deterministic synthetic
 * tokens so paging has something to page through. One table of data: what
 * is made of it (lookups, token lists) is chains.ts.
 */
import type { ChainFamily } from './formats.js';

/** The zero address: an EVM chain's native coin, where a contract is asked for. */
export const EVM_NATIVE = '0x0000000000000000000000000000000000000000';

export interface ChainDef {
  id: string;
  name: string;
  explorerUrl: string;
  family: ChainFamily;
  /** Relative share of swap legs on this chain. */
  weight: number;
  /** Total tokens listed, synthetic ones included. */
  tokenCount: number;
  /** `SYMBOL|Name|contract|decimals|priceUsd|swapWeight`; empty contract = native coin without one. */
  tokens: readonly string[];
}

/** A token as swaps use it; `priceUsd` and `weight` are 0 for tokens swaps never pick. */
export interface TokenDef {
  symbol: string;
  name: string;
  contract: string | null;
  decimals: number;
  priceUsd: number;
  weight: number;
}

export const CHAINS: readonly ChainDef[] = [
  {
    id: 'ethereum',
    name: 'Ethereum',
    explorerUrl: 'https://etherscan.io',
    family: 'evm',
    weight: 10,
    tokenCount: 2731,
    tokens: [
      `ETH|Ether|${EVM_NATIVE}|18|3150|8`,
      'USDC|USD Coin|0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48|6|1|10',
      'USDT|Tether USD|0xdac17f958d2ee523a2206206994597c13d831ec7|6|1|9',
      'WETH|Wrapped Ether|0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2|18|3150|5',
      'WBTC|Wrapped BTC|0x2260fac5e5542a773aa44fbcfedf7c193bc2c599|8|64000|3',
      'DAI|Dai Stablecoin|0x6b175474e89094c44da98b954eedeac495271d0f|18|1|3',
      'wstETH|Wrapped liquid staked Ether 2.0|0x7f39c581f595b53c5cb19bd0b3f8da6c935e2ca0|18|3710|1',
      'USDe|USDe|0x4c9edd5852cd905f086c759e8383e09bff1e68b3|18|1|1',
      'cbBTC|Coinbase Wrapped BTC|0xcbb7c0000ab88b473b1f5afd9ef808440eed33bf|8|64000|1',
      'LINK|ChainLink Token|0x514910771af9ca656af840dff83e8264ecf986ca|18|14.2|1',
      'PEPE|Pepe|0x6982508145454ce325ddbe47a25d4ec3d2311933|18|0.0000092|1',
      'stETH|Liquid staked Ether 2.0|0xae7ab96520de3a18e5e111b5eaab095312d7fe84|18|3145|0',
      'UNI|Uniswap|0x1f9840a85d5af5bf1d1762f925bdaddc4201f984|18|7.9|0',
      'AAVE|Aave Token|0x7fc66500c84a76ad7e9c93437bfc5ac33e2ddae9|18|152|0',
      'SHIB|SHIBA INU|0x95ad61b0a150d79219dcf64e1e6cc01f0b64c4ce|18|0.0000175|0',
      'LDO|Lido DAO Token|0x5a98fcbea516cf06857215779fd812ca3bef1b32|18|1.65|0',
      'MKR|Maker|0x9f8f72aa9304c8b593d555f12ef6589cc3a579a2|18|1480|0',
      'CRV|Curve DAO Token|0xd533a949740bb3306d119cc777fa900ba034cd52|18|0.38|0',
      'FRAX|Frax|0x853d955acef822db058eb8505911ed77f175b99e|18|1|0',
      'ARB|Arbitrum|0xb50721bcf8d664c30412cfbc6cf7a15145234ad1|18|0.62|0',
    ],
  },
  {
    id: 'arbitrum',
    name: 'Arbitrum One',
    explorerUrl: 'https://arbiscan.io',
    family: 'evm',
    weight: 9,
    tokenCount: 64,
    tokens: [
      `ETH|Ether|${EVM_NATIVE}|18|3150|8`,
      'USDC|USD Coin|0xaf88d065e77c8cc2239327c5edb3a432268e5831|6|1|10',
      'USDT|Tether USD|0xfd086bc7cd5c481dcc9c85ebe478a1c0b69fcbb9|6|1|6',
      'WETH|Wrapped Ether|0x82af49447d8a07e3bd95bd0d56f35241523fbab1|18|3150|4',
      'WBTC|Wrapped BTC|0x2f2a2543b76a4166549f7aab2e75bef0aefc5b0f|8|64000|2',
      'ARB|Arbitrum|0x912ce59144191c1204e64559fe8253a0e49e6548|18|0.62|2',
      'DAI|Dai Stablecoin|0xda10009cbd5d07dd0cecc66161fc93d7c9000da1|18|1|1',
      'USDC.e|Bridged USDC|0xff970a61a04b1ca14834a43f5de4533ebddb5cc8|6|1|1',
    ],
  },
  {
    id: 'base',
    name: 'Base',
    explorerUrl: 'https://basescan.org',
    family: 'evm',
    weight: 9,
    tokenCount: 58,
    tokens: [
      `ETH|Ether|${EVM_NATIVE}|18|3150|9`,
      'USDC|USD Coin|0x833589fcd6edb6e08f4c7c32d4f71b54bda02913|6|1|10',
      'WETH|Wrapped Ether|0x4200000000000000000000000000000000000006|18|3150|4',
      'cbBTC|Coinbase Wrapped BTC|0xcbb7c0000ab88b473b1f5afd9ef808440eed33bf|8|64000|2',
      'DAI|Dai Stablecoin|0x50c5725949a6f0c72e6c4a641f24049a917db0cb|18|1|1',
      'USDbC|USD Base Coin|0xd9aaec86b65d86f6a7b5b1b0c42ffa531710b6ca|6|1|1',
    ],
  },
  {
    id: 'optimism',
    name: 'OP Mainnet',
    explorerUrl: 'https://optimistic.etherscan.io',
    family: 'evm',
    weight: 5,
    tokenCount: 41,
    tokens: [
      `ETH|Ether|${EVM_NATIVE}|18|3150|8`,
      'USDC|USD Coin|0x0b2c639c533813f4aa9d7837caf62653d097ff85|6|1|9',
      'USDT|Tether USD|0x94b008aa00579c1307b0ef2c499ad98a8ce58e58|6|1|5',
      'WETH|Wrapped Ether|0x4200000000000000000000000000000000000006|18|3150|3',
      'OP|Optimism|0x4200000000000000000000000000000000000042|18|1.75|2',
      'DAI|Dai Stablecoin|0xda10009cbd5d07dd0cecc66161fc93d7c9000da1|18|1|1',
      'WBTC|Wrapped BTC|0x68f180fcce6836688e9084f035309e29bf0a2095|8|64000|1',
    ],
  },
  {
    id: 'polygon',
    name: 'Polygon PoS',
    explorerUrl: 'https://polygonscan.com',
    family: 'evm',
    weight: 5,
    tokenCount: 73,
    tokens: [
      `POL|Polygon Ecosystem Token|${EVM_NATIVE}|18|0.41|5`,
      'USDC|USD Coin|0x3c499c542cef5e3811e1192ce70d8cc03d5c3359|6|1|10',
      'USDT|Tether USD|0xc2132d05d31c914a87c6611c10748aeb04b58e8f|6|1|8',
      'WETH|Wrapped Ether|0x7ceb23fd6bc0add59e62ac25578270cff1b9f619|18|3150|3',
      'WPOL|Wrapped Polygon Ecosystem Token|0x0d500b1d8e8ef31e21c99d1db9a6444d3adf1270|18|0.41|2',
      'DAI|Dai Stablecoin|0x8f3cf7ad23cd3cadbd9735aff958023239c6a063|18|1|1',
      'WBTC|Wrapped BTC|0x1bfd67037b42cf73acf2047067bd4f2c47d9bfd6|8|64000|1',
    ],
  },
  {
    id: 'bsc',
    name: 'BNB Smart Chain',
    explorerUrl: 'https://bscscan.com',
    family: 'evm',
    weight: 6,
    tokenCount: 88,
    tokens: [
      `BNB|BNB|${EVM_NATIVE}|18|580|7`,
      'USDT|Tether USD|0x55d398326f99059ff775485246999027b3197955|18|1|10',
      'USDC|USD Coin|0x8ac76a51cc950d9822d68b83fe1ad97b32cd580d|18|1|6',
      'WBNB|Wrapped BNB|0xbb4cdb9cbd36b01bd1cbaebf2de08d9173bc095c|18|580|3',
      'BTCB|Bitcoin BEP2|0x7130d2a12b9bcbfae4f2634d864a1ee1ce3ead9c|18|64000|2',
      'ETH|Binance-Peg Ethereum Token|0x2170ed0880ac9a755fd29b2688956bd959f933f8|18|3150|2',
      'DAI|Dai Token|0x1af3f329e8be154074d8769d1ffa4ee058b1dbc3|18|1|1',
      'BUSD|BUSD Token|0xe9e7cea3dedca5984780bafc599bd69add087d56|18|1|0',
    ],
  },
  {
    id: 'avalanche',
    name: 'Avalanche C-Chain',
    explorerUrl: 'https://snowtrace.io',
    family: 'evm',
    weight: 3,
    tokenCount: 37,
    tokens: [
      `AVAX|Avalanche|${EVM_NATIVE}|18|27.5|6`,
      'USDC|USD Coin|0xb97ef9ef8734c71904d8002f8b6bc66dd9c48a6e|6|1|10',
      'USDT|Tether USD|0x9702230a8ea53601f5cd2dc00fdbc13d4df4a8c7|6|1|6',
      'WAVAX|Wrapped AVAX|0xb31f66aa3c1e785363f0875a1b74e27b85fd66c7|18|27.5|3',
      'WETH.e|Wrapped Ether|0x49d5c2bdffac6ce2bfdb6640f4f80f226bc10bab|18|3150|2',
      'BTC.b|Bitcoin|0x152b9d0fdc40c096757f570a51e494bd4b943e50|8|64000|1',
    ],
  },
  {
    id: 'solana',
    name: 'Solana',
    explorerUrl: 'https://solscan.io',
    family: 'solana',
    weight: 7,
    tokenCount: 95,
    tokens: [
      'SOL|Wrapped SOL|So11111111111111111111111111111111111111112|9|145|10',
      'USDC|USD Coin|EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v|6|1|10',
      'USDT|USDT|Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB|6|1|5',
      'JUP|Jupiter|JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN|6|0.85|1',
      'BONK|Bonk|DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263|5|0.000021|1',
      'WETH|Wrapped Ether (Wormhole)|7vfCXTUXx5WJV5JADk17DUJ4ksgau7utNKj4b963voxs|8|3150|1',
      'WIF|dogwifhat|EKpQGSJtjMFqKZ9KQanSqYXRcF8fBopzLHYxdM65zcjm|6|1.9|0',
      'mSOL|Marinade staked SOL|mSoLzYCxHdYgdzU16g5QSh3i5K3z3KZK7ytfqcJm7So|9|172|0',
      'JTO|JITO|jtojtomepa8beP8AuQc6eXt5FriJwfFMwQx2v2f9mCL|9|2.6|0',
      'PYTH|Pyth Network|HZ1JovNiVvGrGNiiYvEozEVgZ58xaU3RKwX8eACQBCt3|6|0.33|0',
      'RAY|Raydium|4k3Dyjzvzp8eMZWUXbBCjEvwSkkk59S5iCNLY3QrkX6R|6|1.8|0',
    ],
  },
  { id: 'bitcoin', name: 'Bitcoin', explorerUrl: 'https://mempool.space', family: 'bitcoin', weight: 3, tokenCount: 14, tokens: ['BTC|Bitcoin||8|64000|1'] },
  {
    id: 'tron',
    name: 'Tron',
    explorerUrl: 'https://tronscan.org',
    family: 'tron',
    weight: 3,
    tokenCount: 26,
    tokens: [
      'USDT|Tether USD|TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t|6|1|10',
      'TRX|Tronix||6|0.16|4',
      'USDC|USD Coin|TEkxiTehnzSmSe2XqrBj4w32RUN966rdz8|6|1|1',
      'WTRX|Wrapped TRX|TNUC9Qb1rRpS5CbWLmNMxXBjyFoydXjWFR|6|0.16|0',
      'USDD|Decentralized USD|TPYmHEhy5n8TCEfYGqW2rPxsghSfzghPDn|18|1|0',
      'BTT|BitTorrent|TAFjULxiVgT4qWk6UZwjqwZXTSaGaqnVp4|18|0.0000009|0',
      'JST|JUST|TCFLL5dx5ZJdKnWuesXxi1VPwjLVmWZZy9|18|0.031|0',
      'SUN|SUN|TSSMHYeV2uE9qYH95DqyoCuNCzEL1NvU3S|18|0.017|0',
    ],
  },
  {
    id: 'near',
    name: 'NEAR Protocol',
    explorerUrl: 'https://nearblocks.io',
    family: 'near',
    weight: 2,
    tokenCount: 31,
    tokens: [
      'NEAR|NEAR||24|4.9|6',
      'USDC|USD Coin|17208628f84f5d6ad33f0da3bbbeb27ffcb398eac501a31bd6ad2011e36133a1|6|1|8',
      'USDT|Tether USD|usdt.tether-token.near|6|1|5',
      'wNEAR|Wrapped NEAR fungible token|wrap.near|24|4.9|2',
      'AURORA|Aurora|aaaaaa20d9e0e2461697782ef11675f668207961.factory.bridge.near|18|0.12|0',
      'REF|Ref Finance Token|token.v2.ref-finance.near|18|0.19|0',
    ],
  },
  {
    id: 'ton',
    name: 'TON',
    explorerUrl: 'https://tonviewer.com',
    family: 'ton',
    weight: 2,
    tokenCount: 29,
    tokens: [
      'TON|Toncoin||9|5.4|6',
      'USDT|Tether USD|EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs|6|1|10',
      'NOT|Notcoin|EQAvlWFDxGF2lXm67y4yzC17wYKD9A0guwPkMs1gOsM__NOT|9|0.0071|1',
      'DOGS|Dogs|EQCvxJy4eG8hyHBFsZ7eePxrRsUQSFE_jpptRAYBmcG_DOGS|9|0.0006|0',
      'STON|STON|EQA2kCVNwVsil2EM2mB0SkXytxCqQjS4mttjDpnXmwG9T6bO|9|2.1|0',
    ],
  },
  {
    id: 'linea',
    name: 'Linea',
    explorerUrl: 'https://lineascan.build',
    family: 'evm',
    weight: 3,
    tokenCount: 22,
    tokens: [
      `ETH|Ether|${EVM_NATIVE}|18|3150|9`,
      'USDC|USD Coin|0x176211869ca2b568f2a7d4ee941e073a821ee1ff|6|1|6',
      'USDT|Tether USD|0xa219439258ca9da29e9cc4ce5596924745e12b93|6|1|3',
      'WETH|Wrapped Ether|0xe5d7c2a44ffddf6b295a15c148167daaaf5cf34f|18|3150|2',
    ],
  },
  {
    id: 'zksync',
    name: 'zkSync Era',
    explorerUrl: 'https://era.zksync.network',
    family: 'evm',
    weight: 2,
    tokenCount: 19,
    tokens: [
      `ETH|Ether|${EVM_NATIVE}|18|3150|9`,
      'USDC|USD Coin|0x1d17cbcf0d6d143135ae902365d2e5e2a16538d4|6|1|5',
      'USDT|Tether USD|0x493257fd37edb34451f62edf8d2a0c418852ba4c|6|1|3',
      'WETH|Wrapped Ether|0x5aea5775959fbc2557cc8789bc1bf90a239d9a91|18|3150|2',
      'ZK|ZKsync|0x5a7d6b2f92c77fad6ccabd7ee0624e64907eaf3e|18|0.12|1',
    ],
  },
];
