/** updatedAt as a row keeps it, and which of two versions is later: digits past the millisecond included. */
import { describe, expect, it } from 'vitest';
import { compareUpdated, updatedOf } from '../../src/formats/stored-row.js';

const MS = Date.parse('2026-11-20T11:00:00.123Z');

describe('updatedOf', () => {
  it.each([
    ['2026-11-20T11:00:00.1234567Z', MS, 456700],
    ['2026-11-20T11:00:00.123456Z', MS, 456000],
    ['2026-11-20T11:00:00.1230001Z', MS, 100],
    ['2026-11-20T11:00:00.1239Z', MS, 900000],
    ['2026-11-20T11:00:00.123Z', MS, 0],
    ['2026-11-20T11:00:00Z', Date.parse('2026-11-20T11:00:00Z'), 0],
  ])('%s: ms %i, past it %i ns', (text, ms, sub) => {
    expect(updatedOf(text)).toEqual({ updatedMs: ms, updatedSubMs: sub });
  });

  it('no text: unreadable, nothing past the millisecond', () => {
    expect(updatedOf(undefined)).toEqual({ updatedMs: Number.NaN, updatedSubMs: 0 });
    expect(updatedOf(1_700_000_000_000)).toEqual({ updatedMs: Number.NaN, updatedSubMs: 0 });
    expect(updatedOf('later')).toEqual({ updatedMs: Number.NaN, updatedSubMs: 0 });
  });
});

describe('compareUpdated', () => {
  it('by the millisecond, then the digits past it; an unreadable one is the oldest', () => {
    expect(compareUpdated({ updatedMs: 2 }, { updatedMs: 1 })).toBe(1);
    expect(compareUpdated({ updatedMs: 1 }, { updatedMs: 2 })).toBe(-1);
    expect(compareUpdated({ updatedMs: 1, updatedSubMs: 5 }, { updatedMs: 1, updatedSubMs: 2 })).toBe(3);
    expect(compareUpdated({ updatedMs: 1, updatedSubMs: 5 }, { updatedMs: 1 })).toBe(5);
    expect(compareUpdated({ updatedMs: 1 }, { updatedMs: 1, updatedSubMs: 5 })).toBe(-5);
    expect(compareUpdated({ updatedMs: 1 }, { updatedMs: 1 })).toBe(0);
    expect(compareUpdated({ updatedMs: Number.NaN }, { updatedMs: -8.64e15 })).toBe(-1);
    expect(compareUpdated({ updatedMs: -8.64e15 }, { updatedMs: Number.NaN })).toBe(1);
    expect(compareUpdated({ updatedMs: Number.NaN, updatedSubMs: 3 }, { updatedMs: Number.NaN })).toBe(3);
  });
});
