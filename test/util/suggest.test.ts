import { describe, expect, it } from 'vitest';
import { closest } from '../../src/util/suggest.js';

describe('closest', () => {
  it('a name that starts with the input comes first, whatever its length, ignoring case', () => {
    expect(closest('ARB', ['arbitrum', 'arb', 'base'])).toEqual(['arb', 'arbitrum']);
    expect(closest('eth', ['ethereum-classic-long-name', 'eth2'])).toEqual(['eth2', 'ethereum-classic-long-name']);
  });

  it('counts insertions, deletions and substitutions as one edit each', () => {
    // limit max(2, ceil(len / 3)): 2 edits for 'polygon' (7 letters: 3)
    expect(closest('polgon', ['polygon'])).toEqual(['polygon']);
    expect(closest('pollygon', ['polygon'])).toEqual(['polygon']);
    expect(closest('polxgon', ['polygon'])).toEqual(['polygon']);
  });

  it('a swap of neighbours is one edit, not two', () => {
    // 'ab' vs 'ba': 1 edit as a swap (limit 2, so both count); a third name tells 1 from 2 by order.
    expect(closest('abcdef', ['bacdef', 'abcdxy'])).toEqual(['bacdef', 'abcdxy']);
    expect(closest('xy', ['yx', 'xz'], 1)).toEqual(['xz']);
    expect(closest('xyzw', ['yxzw', 'xyab'])).toEqual(['yxzw', 'xyab']);
  });

  it('keeps names within a third of the input’s length in edits, at least 2', () => {
    expect(closest('abcdefghi', ['abcdefxyz', 'abcdefgxy'])).toEqual(['abcdefgxy', 'abcdefxyz']);
    expect(closest('abcdefghi', ['abcdewxyz'])).toEqual([]);
    expect(closest('abcdefghij', ['abcdefgxyz'])).toEqual(['abcdefgxyz']);
    expect(closest('abcdefghij', ['abcdefwxyz'])).toEqual(['abcdefwxyz']);
    expect(closest('abcdefghij', ['abcdevwxyz'])).toEqual([]);
    expect(closest('a', ['xy', 'xyz'])).toEqual(['xy']);
    expect(closest('', ['ab'])).toEqual(['ab']);
  });

  it('nearest first, then by name; at most `max`, 3 by default', () => {
    expect(closest('tonn', ['tron', 'ton', 'toon', 'tonic', 'xx'])).toEqual(['ton', 'toon', 'tonic']);
    expect(closest('tonn', ['tron', 'ton', 'toon'], 2)).toEqual(['ton', 'toon']);
    expect(closest('bat', ['cat', 'bad', 'bar', 'bay'])).toEqual(['bad', 'bar', 'bay']);
    expect(closest('zzzz', [])).toEqual([]);
  });

  it('compares the input and each name case-insensitively', () => {
    expect(closest('ETHREUM', ['Ethereum'])).toEqual(['Ethereum']);
    expect(closest('Avalanche', ['AVALANCHE-C'])).toEqual(['AVALANCHE-C']);
  });

  it('counts edits at the start and the end of both names', () => {
    expect(closest('xabcdef', ['abcdefy'])).toEqual(['abcdefy']);
    expect(closest('abcdef', ['zzabcdef'])).toEqual(['zzabcdef']);
    expect(closest('abcdef', ['abcdezzz'])).toEqual([]);
    expect(closest('zzzabcdef', ['abcdef'])).toEqual(['abcdef']);
  });
});
