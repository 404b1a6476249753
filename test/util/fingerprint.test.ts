/** What saved work belongs to: a fingerprint that ignores key order, and the differences named in the user's terms. */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { describeDifferences, differences, fingerprint } from '../../src/util/fingerprint.js';

describe('fingerprint', () => {
  it('is sha-256 of the sorted entries, 32 hex characters, whatever the key order', () => {
    const expected = createHash('sha256').update('[["a",1],["b",[true,null]]]').digest('hex').slice(0, 32);
    expect(fingerprint({ a: 1, b: [true, null] })).toBe(expected);
    expect(fingerprint({ b: [true, null], a: 1 })).toBe(expected);
    expect(fingerprint({ a: 2, b: [true, null] })).not.toBe(expected);
  });
});

describe('differences, described', () => {
  const labels = { fields: '--fields' };
  type Q = { gzip: boolean; format: string; fields: string[] };
  const describeDifference = (saved: Q, wanted: Q, named: Record<string, string>) =>
    describeDifferences(differences(saved, wanted, ['format', 'gzip', 'fields']), named);
  it('names each key that differs, in the order given, with both values as JSON, a label in place of its key', () => {
    const saved = { gzip: false, format: 'csv', fields: ['id'] };
    expect(describeDifference(saved, { gzip: true, format: 'jsonl', fields: ['id'] }, labels)).toBe('format was "csv", now "jsonl"; gzip was false, now true');
    expect(describeDifference(saved, { ...saved, fields: ['id', 'x'] }, labels)).toBe('--fields was ["id"], now ["id","x"]');
    expect(describeDifference(saved, { ...saved, fields: ['id'] }, labels)).toBe('');
  });
});
