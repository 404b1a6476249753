/**
 * Reversible identifiers, so a lookup is O(1): decode (minute, index),
 * rebuild that one swap, and accept only if the whole identifier matches.
 *
 * - Swap id: a Mongo ObjectId look-alike (24 hex): 4-byte epoch seconds of the
 *   anchor minute, 5 seed-derived check bytes, 3-byte counter = base + index.
 * - Tx hash: the last 12 bytes carry minute, index, side and 4 check bytes,
 *   XOR-masked with a key derived from the seed and the other (random) bytes,
 *   so the whole hash still looks random.
 */
import { fromHex, toHex } from './encoding.js';
import { hash4, mix32 } from './random.js';

export interface SwapRef {
  minute: number;
  index: number;
}

/** Which transaction of the swap a hash names. */
export type Side = 0 | 1;
export const SOURCE: Side = 0;
export const DESTINATION: Side = 1;

const TAG_ID = 0x1d;
const TAG_TX = 0x7a;
const PAYLOAD = 12;

function writeU32(bytes: Uint8Array, at: number, v: number): void {
  bytes[at] = v >>> 24;
  bytes[at + 1] = (v >>> 16) & 0xff;
  bytes[at + 2] = (v >>> 8) & 0xff;
  bytes[at + 3] = v & 0xff;
}

function readU32(bytes: Uint8Array, at: number): number {
  return (((bytes[at] ?? 0) << 24) | ((bytes[at + 1] ?? 0) << 16) | ((bytes[at + 2] ?? 0) << 8) | (bytes[at + 3] ?? 0)) >>> 0;
}

export function encodeId(seed: number, minute: number, index: number): string {
  const bytes = new Uint8Array(12);
  writeU32(bytes, 0, minute * 60);
  writeU32(bytes, 4, hash4(seed, minute, 0, TAG_ID));
  bytes[8] = hash4(seed, minute, 1, TAG_ID) & 0xff;
  const counter = (hash4(seed, minute, 2, TAG_ID) + index) & 0xffffff;
  bytes[9] = counter >>> 16;
  bytes[10] = (counter >>> 8) & 0xff;
  bytes[11] = counter & 0xff;
  return toHex(bytes);
}

export function decodeId(seed: number, id: string): SwapRef | undefined {
  if (id.length !== 24) return undefined;
  const bytes = fromHex(id);
  if (!bytes) return undefined;
  const seconds = readU32(bytes, 0);
  if (seconds % 60 !== 0) return undefined;
  const minute = seconds / 60;
  if (readU32(bytes, 4) !== hash4(seed, minute, 0, TAG_ID) || bytes[8] !== (hash4(seed, minute, 1, TAG_ID) & 0xff)) return undefined;
  const counter = ((bytes[9] ?? 0) << 16) | ((bytes[10] ?? 0) << 8) | (bytes[11] ?? 0);
  return { minute, index: (counter - hash4(seed, minute, 2, TAG_ID)) & 0xffffff };
}

/** Mask words keyed by the seed and the random part of the hash. */
function maskOf(seed: number, bytes: Uint8Array, randomLength: number): [number, number, number] {
  let h = mix32(seed ^ TAG_TX);
  for (let i = 0; i < randomLength; i += 4) h = mix32(h ^ readU32(bytes, i));
  return [hash4(h, 1), hash4(h, 2), hash4(h, 3)];
}

/** Completes `bytes` (random except its last 12) with the masked payload. */
export function sealTx(seed: number, bytes: Uint8Array, ref: SwapRef, side: Side): Uint8Array {
  const at = bytes.length - PAYLOAD;
  const [m0, m1, m2] = maskOf(seed, bytes, at);
  writeU32(bytes, at, (ref.minute ^ m0) >>> 0);
  writeU32(bytes, at + 4, ((((ref.index & 0xffffff) << 8) | side) ^ m1) >>> 0);
  writeU32(bytes, at + 8, (hash4(seed, ref.minute, ref.index, TAG_TX + side) ^ m2) >>> 0);
  return bytes;
}

export function openTx(seed: number, bytes: Uint8Array): (SwapRef & { side: Side }) | undefined {
  if (bytes.length < PAYLOAD + 4) return undefined;
  const at = bytes.length - PAYLOAD;
  const [m0, m1, m2] = maskOf(seed, bytes, at);
  const minute = (readU32(bytes, at) ^ m0) >>> 0;
  const word = (readU32(bytes, at + 4) ^ m1) >>> 0;
  const index = word >>> 8;
  const side = word & 0xff;
  if (side !== SOURCE && side !== DESTINATION) return undefined;
  if ((readU32(bytes, at + 8) ^ m2) >>> 0 !== hash4(seed, minute, index, TAG_TX + side)) return undefined;
  return { minute, index, side };
}
