/**
 * Byte encodings real chains use, so synthetic addresses and hashes are not
 * merely look-alikes: base58 (Solana, NEAR), base58check (Tron), bech32/bech32m
 * (Bitcoin) and TON's user-friendly base64url form, checksums included.
 */
import { createHash } from 'node:crypto';

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

export function toHex(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += HEX[b];
  return s;
}

/** Lower- or upper-case hex without prefix; undefined when not hex of even length. */
export function fromHex(text: string): Uint8Array | undefined {
  if (text.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(text)) return undefined;
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(text.slice(i * 2, i * 2 + 2), 16);
  return out;
}

const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const B58_INDEX = new Map([...B58].map((c, i) => [c, i] as const));

/** Limbs of five base58 digits: fewer, wider steps than digit-at-a-time (Solana signatures are hot). */
const LIMB = 58 ** 5;

export function base58(bytes: Uint8Array): string {
  const limbs: number[] = [];
  // Two bytes per step: limb * 65536 + carry stays below 2^53.
  const odd = bytes.length % 2;
  for (let i = 0; i < bytes.length; i += i === 0 && odd ? 1 : 2) {
    const wide = i === 0 && odd;
    let carry = wide ? (bytes[0] as number) : ((bytes[i] as number) << 8) | (bytes[i + 1] as number);
    const mul = wide ? 256 : 65536;
    for (let j = 0; j < limbs.length; j++) {
      const x = (limbs[j] as number) * mul + carry;
      carry = Math.floor(x / LIMB);
      limbs[j] = x - carry * LIMB;
    }
    while (carry > 0) {
      const next = Math.floor(carry / LIMB);
      limbs.push(carry - next * LIMB);
      carry = next;
    }
  }
  let digits = '';
  for (let j = limbs.length - 1; j >= 0; j--) {
    let limb = limbs[j] as number;
    let chunk = '';
    for (let k = 0; k < 5; k++) {
      chunk = B58[limb % 58] + chunk;
      limb = Math.floor(limb / 58);
    }
    digits += chunk;
  }
  digits = digits.replace(/^1+/, '');
  let zeros = '';
  for (let i = 0; i < bytes.length && bytes[i] === 0; i++) zeros += '1';
  return zeros + digits;
}

export function fromBase58(text: string): Uint8Array | undefined {
  const bytes: number[] = [];
  for (const ch of text) {
    const value = B58_INDEX.get(ch);
    if (value === undefined) return undefined;
    let carry = value;
    for (let j = 0; j < bytes.length; j++) {
      carry += (bytes[j] as number) * 58;
      bytes[j] = carry & 0xff;
      carry >>= 8;
    }
    while (carry > 0) {
      bytes.push(carry & 0xff);
      carry >>= 8;
    }
  }
  let zeros = 0;
  while (zeros < text.length && text[zeros] === '1') zeros++;
  const out = new Uint8Array(zeros + bytes.length);
  for (let i = 0; i < bytes.length; i++) out[out.length - 1 - i] = bytes[i] as number;
  return out;
}

function sha256(data: Uint8Array): Uint8Array {
  return createHash('sha256').update(data).digest();
}

/** base58 with the 4-byte double-SHA-256 checksum (Tron addresses). */
export function base58check(payload: Uint8Array): string {
  const check = sha256(sha256(payload)).subarray(0, 4);
  const all = new Uint8Array(payload.length + 4);
  all.set(payload);
  all.set(check, payload.length);
  return base58(all);
}

const BECH32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';

function polymod(values: number[]): number {
  const GEN = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];
  let chk = 1;
  for (const v of values) {
    const top = chk >>> 25;
    chk = ((chk & 0x1ffffff) << 5) ^ v;
    for (let i = 0; i < 5; i++) if ((top >>> i) & 1) chk ^= GEN[i] as number;
  }
  return chk;
}

/** A segwit address: version 0 uses bech32, version 1+ (taproot) bech32m. */
export function segwitAddress(hrp: string, version: number, program: Uint8Array): string {
  const data = [version];
  let acc = 0;
  let bits = 0;
  for (const b of program) {
    acc = (acc << 8) | b;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      data.push((acc >>> bits) & 31);
    }
  }
  if (bits > 0) data.push((acc << (5 - bits)) & 31);
  const expanded = [...[...hrp].map((c) => c.charCodeAt(0) >> 5), 0, ...[...hrp].map((c) => c.charCodeAt(0) & 31)];
  const constant = version === 0 ? 1 : 0x2bc830a3;
  const mod = polymod([...expanded, ...data, 0, 0, 0, 0, 0, 0]) ^ constant;
  const checksum = Array.from({ length: 6 }, (_, i) => (mod >>> (5 * (5 - i))) & 31);
  return `${hrp}1${[...data, ...checksum].map((d) => BECH32[d]).join('')}`;
}

function crc16(data: Uint8Array): number {
  let crc = 0;
  for (const byte of data) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

/** TON user-friendly address: bounceable starts `EQ`, non-bounceable `UQ` (workchain 0). */
export function tonAddress(hash: Uint8Array, bounceable: boolean): string {
  const raw = new Uint8Array(36);
  raw[0] = bounceable ? 0x11 : 0x51;
  raw[1] = 0;
  raw.set(hash.subarray(0, 32), 2);
  const crc = crc16(raw.subarray(0, 34));
  raw[34] = crc >> 8;
  raw[35] = crc & 0xff;
  return Buffer.from(raw).toString('base64url');
}
