/**
 * Seeded, fast, non-cryptographic randomness. Every sandbox datum is a pure
 * function of (seed, coordinates), so nothing here keeps global state.
 */

/** murmur3's 32-bit finaliser: a cheap bijective avalanche. */
export function mix32(x: number): number {
  x ^= x >>> 16;
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  return x >>> 0;
}

/** Hashes up to four 32-bit coordinates; fixed arity keeps the hot path allocation-free. */
export function hash4(a: number, b: number, c = 0, d = 0): number {
  let h = mix32(a ^ 0x9e3779b9);
  h = mix32(h ^ Math.imul(b | 0, 0xcc9e2d51));
  h = mix32(h ^ Math.imul(c | 0, 0x1b873593));
  h = mix32(h ^ Math.imul(d | 0, 0xe6546b64));
  return h;
}

/** FNV-1a over a string, then mixed: for keys such as chain or bridge ids. */
export function hashString(text: string, salt = 0): number {
  let h = 0x811c9dc5 ^ salt;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return mix32(h);
}

/** Folds any JS number (negative, fractional, above 2^32) into a 32-bit seed key. */
export function seedKey(seed: number): number {
  const lo = seed >>> 0;
  const hi = Math.floor(seed / 4294967296) >>> 0;
  const frac = Math.floor((seed - Math.floor(seed)) * 4294967296) >>> 0;
  return hash4(lo, hi, frac, 0x5eed);
}

const HEX_BYTE = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** sfc32: 128-bit state, so per-swap streams practically never collide. */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(a: number, b: number, c: number, d: number) {
    this.a = a | 0;
    this.b = b | 0;
    this.c = c | 0;
    this.d = d | 0;
    // The state words are already well-mixed hashes; a few rounds separate them further.
    for (let i = 0; i < 6; i++) this.next();
  }

  /** A stream keyed by (key, x, y, tag); the four state words come from independent hashes. */
  static of(key: number, x: number, y: number, tag: number): Rng {
    return new Rng(hash4(key, x, y, tag), hash4(x, y, tag, key), hash4(y, tag, key, x), hash4(tag, key, x, y));
  }

  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1). */
  float(): number {
    return this.next() / 4294967296;
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.float() * n);
  }

  /** Uniform integer in [min, max]. */
  range(min: number, max: number): number {
    return min + this.int(max - min + 1);
  }

  chance(p: number): boolean {
    return this.float() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T;
  }

  /** Index chosen by cumulative weights (ascending, last = total). */
  weighted(cumulative: readonly number[]): number {
    const total = cumulative[cumulative.length - 1] ?? 0;
    const x = this.float() * total;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((cumulative[mid] ?? 0) > x) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  /** Standard normal (Box-Muller). */
  normal(): number {
    const u = 1 - this.float();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.float());
  }

  bytes(n: number): Uint8Array {
    return this.fill(new Uint8Array(n), n);
  }

  /** Fills out[0, n) with random bytes; returns out. */
  fill(out: Uint8Array, n: number): Uint8Array {
    for (let i = 0; i < n; i += 4) {
      const v = this.next();
      out[i] = v >>> 24;
      if (i + 1 < n) out[i + 1] = (v >>> 16) & 0xff;
      if (i + 2 < n) out[i + 2] = (v >>> 8) & 0xff;
      if (i + 3 < n) out[i + 3] = v & 0xff;
    }
    return out;
  }

  /** `chars` (even) lowercase hex digits. */
  hex(chars: number): string {
    let s = '';
    for (let i = 0; i < chars; i += 8) {
      const v = this.next();
      s += HEX_BYTE[v >>> 24]! + HEX_BYTE[(v >>> 16) & 0xff]! + HEX_BYTE[(v >>> 8) & 0xff]! + HEX_BYTE[v & 0xff]!;
    }
    return s.length === chars ? s : s.slice(0, chars);
  }
}

/** Cumulative sums of weights, for Rng.weighted. */
export function cumulative(weights: readonly number[]): number[] {
  let sum = 0;
  return weights.map((w) => (sum += w));
}
