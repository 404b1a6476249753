/**
 * Per-chain-family formats of accounts and transaction hashes, and the
 * reverse: which raw bytes an identifier could be the encoding of.
 */
import { base58, base58check, fromBase58, fromHex, segwitAddress, toHex, tonAddress } from './encoding.js';
import type { Rng } from './random.js';

export type ChainFamily = 'evm' | 'solana' | 'bitcoin' | 'tron' | 'near' | 'ton';

/** Raw length of a transaction hash: Solana signatures are 64 bytes, the rest 32. */
export const TX_BYTES: Record<ChainFamily, number> = { evm: 32, solana: 64, bitcoin: 32, tron: 32, near: 32, ton: 32 };

/** Families whose hashes are hex, so lookups compare them case-insensitively. */
export const HEX_TX: Record<ChainFamily, boolean> = { evm: true, solana: false, bitcoin: true, tron: true, near: false, ton: true };

export function formatTx(family: ChainFamily, bytes: Uint8Array): string {
  switch (family) {
    case 'evm':
      return `0x${toHex(bytes)}`;
    case 'solana':
    case 'near':
      return base58(bytes);
    default:
      return toHex(bytes);
  }
}

/** Every byte string `identifier` may encode as a transaction hash of some family. */
export function txByteCandidates(identifier: string): Uint8Array[] {
  const out: Uint8Array[] = [];
  const body = /^0x/i.test(identifier) ? identifier.slice(2) : identifier;
  if (body.length === 64) {
    const hex = fromHex(body);
    if (hex) out.push(hex);
  }
  if (identifier.length >= 32 && identifier.length <= 90) {
    const b58 = fromBase58(identifier);
    if (b58 && (b58.length === 32 || b58.length === 64)) out.push(b58);
  }
  return out;
}

const SYLLABLES = ['ka', 'lo', 'mi', 'ra', 'ne', 'to', 'su', 'vi', 'do', 'xe', 'ba', 'ju', 'pe', 'zo', 'qui', 'fa'];

function nearName(r: Rng): string {
  let name = '';
  const parts = r.range(2, 4);
  for (let i = 0; i < parts; i++) name += r.pick(SYLLABLES);
  if (r.chance(0.5)) name += String(r.int(1000));
  if (r.chance(0.15)) name += `-${r.pick(SYLLABLES)}${r.pick(SYLLABLES)}`;
  return `${name}.near`;
}

/** An account or contract address in the family's usual format. */
export function randomAddress(family: ChainFamily, r: Rng): string {
  switch (family) {
    case 'evm':
      return `0x${r.hex(40)}`;
    case 'solana':
      return base58(r.bytes(32));
    case 'bitcoin':
      // Mostly native segwit (bc1q…), some taproot (bc1p…).
      return r.chance(0.75) ? segwitAddress('bc', 0, r.bytes(20)) : segwitAddress('bc', 1, r.bytes(32));
    case 'tron': {
      const payload = new Uint8Array(21);
      payload[0] = 0x41;
      payload.set(r.bytes(20), 1);
      return base58check(payload);
    }
    case 'near':
      return nearName(r);
    case 'ton':
      return tonAddress(r.bytes(32), r.chance(0.5));
  }
}
