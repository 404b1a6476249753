import { describe, expect, it } from 'vitest';
import { quantize } from '../../src/sandbox/amounts.js';
import { formatTimestamp } from '../../src/sandbox/clock.js';
import { decodeId, encodeId, openTx, sealTx } from '../../src/sandbox/reversible-ids.js';
import { base58, base58check, fromBase58, fromHex, segwitAddress, tonAddress } from '../../src/sandbox/encoding.js';
import { Rng } from '../../src/sandbox/random.js';
import { contentTypeFor } from '../../src/sandbox/negotiate.js';
import { parseApiDateTime } from '../../src/sandbox/validation.js';
import { formatUtc } from '../../src/util/time.js';

describe('sandbox encodings', () => {
  it('base58 matches a BigInt reference and round-trips, leading zeros included', () => {
    const reference = (bytes: Uint8Array) => {
      const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
      let n = 0n;
      for (const b of bytes) n = n * 256n + BigInt(b);
      let s = '';
      for (; n > 0n; n /= 58n) s = alphabet[Number(n % 58n)] + s;
      for (let i = 0; i < bytes.length && bytes[i] === 0; i++) s = `1${s}`;
      return s;
    };
    const r = new Rng(1, 2, 3, 4);
    for (let length = 0; length <= 66; length++) {
      const bytes = r.bytes(length);
      if (length % 3 === 0 && length > 1) bytes[0] = bytes[1] = 0;
      expect(base58(bytes)).toBe(reference(bytes));
      expect(fromBase58(base58(bytes))).toEqual(bytes);
    }
  });

  it('produces real checksummed addresses (published vectors)', () => {
    const program = fromHex('751e76e8199196d454941c45d1b3a323f1433bd6')!;
    expect(segwitAddress('bc', 0, program)).toBe('bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4');
    const twice = new Uint8Array([...program, ...program]);
    expect(segwitAddress('bc', 1, twice)).toBe('bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7kt5nd6y');
    const tronZero = new Uint8Array(21);
    tronZero[0] = 0x41;
    expect(base58check(tronZero)).toBe('T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb');
    expect(tonAddress(new Uint8Array(32), true)).toBe('EQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAM9c');
  });
});

describe('sandbox identifier codec', () => {
  it('round-trips swap ids and rejects other seeds', () => {
    for (const [minute, index] of [
      [29_000_000, 0],
      [29_000_001, 12_345],
      [71_582_787, 16_777_215],
    ] as const) {
      const id = encodeId(7, minute, index);
      expect(id).toMatch(/^[0-9a-f]{24}$/);
      expect(decodeId(7, id)).toEqual({ minute, index });
      expect(decodeId(8, id)).toBeUndefined();
    }
  });

  it('round-trips transaction payloads for 32- and 64-byte hashes', () => {
    const r = new Rng(9, 9, 9, 9);
    for (const length of [32, 64]) {
      for (const side of [0, 1] as const) {
        const bytes = r.bytes(length);
        sealTx(7, bytes, { minute: 29_123_456, index: 777 }, side);
        expect(openTx(7, bytes)).toEqual({ minute: 29_123_456, index: 777, side });
        expect(openTx(8, bytes)).toBeUndefined();
        bytes[0]! ^= 1;
        expect(openTx(7, bytes)).toBeUndefined();
      }
    }
  });
});

describe('sandbox small parts', () => {
  it('formats timestamps exactly like formatUtc', () => {
    const r = new Rng(5, 6, 7, 8);
    for (let i = 0; i < 2000; i++) {
      const ms = Date.UTC(2020, 0, 1) + Math.floor(r.float() * 3e12) - (i % 4 === 0 ? i % 1000 : 0);
      const t = i % 3 === 0 ? Math.floor(ms / 1000) * 1000 : ms;
      expect(formatTimestamp(t)).toBe(formatUtc(t));
    }
  });

  it('keeps amounts exact across text, raw and double', () => {
    expect(quantize(1520.25, 6)).toEqual({ text: '1520.25', raw: '1520250000', value: 1520.25, decimals: 6 });
    expect(quantize(0.0000001, 18)).toMatchObject({ text: '0.000001', raw: '1000000000000' });
    expect(quantize(3, 24)).toMatchObject({ text: '3', raw: `3${'0'.repeat(24)}` });
    expect(quantize(1e12, 18).text).toBe('1000000000000');
    const r = new Rng(1, 1, 1, 1);
    for (let i = 0; i < 500; i++) {
      const q = quantize(Math.exp(r.normal() * 6), [6, 8, 9, 18, 24][i % 5]!);
      expect(q.value).toBe(Number(q.text));
    }
  });

  it('parses API date-times', () => {
    expect(parseApiDateTime('2026-11-01T00:30:00Z')).toBe(Date.UTC(2026, 10, 1, 0, 30));
    expect(parseApiDateTime('2026-11-01T00:30:00')).toBe(Date.UTC(2026, 10, 1, 0, 30));
    expect(parseApiDateTime('2026-11-01 00:30')).toBe(Date.UTC(2026, 10, 1, 0, 30));
    expect(parseApiDateTime('2026-11-01T02:30:00.25+02:00')).toBe(Date.UTC(2026, 10, 1, 0, 30) + 250);
    expect(parseApiDateTime('2026-11-01')).toBe(Date.UTC(2026, 10, 1));
    for (const bad of ['', 'now', '2026-11-31T00:00:00Z', '2026-11-01T24:00:00Z', '2026-11-01T00:00:00+25:00', '1730419200']) {
      expect(parseApiDateTime(bad), bad).toBeUndefined();
    }
  });

  it('negotiates the media type', () => {
    expect(contentTypeFor(undefined)).toBe('application/json; charset=utf-8');
    expect(contentTypeFor('*/*')).toBe('application/json; charset=utf-8');
    expect(contentTypeFor('text/plain')).toBe('text/plain; charset=utf-8');
    expect(contentTypeFor('text/json, application/json')).toBe('text/json; charset=utf-8');
    expect(contentTypeFor('text/plain;q=0.2, application/json')).toBe('application/json; charset=utf-8');
    expect(contentTypeFor('image/png')).toBe('application/json; charset=utf-8');
  });
});
