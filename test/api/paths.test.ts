import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/api/errors.js';
import { PATHS } from '../../src/api/paths.js';

describe('PATHS', () => {
  it('names each operation of the API', () => {
    expect(PATHS.swaps).toBe('/v1/external/swaps');
    expect(PATHS.chains).toBe('/v1/external/chains');
    expect(PATHS.bridges).toBe('/v1/external/bridges');
    expect(PATHS.swap('0xabc')).toBe('/v1/external/swaps/0xabc');
    expect(PATHS.tokens('ethereum')).toBe('/v1/external/chains/ethereum/tokens');
  });

  it('escapes the resource as one path segment', () => {
    expect(PATHS.swap('a/b c?d#e%')).toBe('/v1/external/swaps/a%2Fb%20c%3Fd%23e%25');
    expect(PATHS.tokens('../x')).toBe('/v1/external/chains/..%2Fx/tokens');
    expect(PATHS.swap('...')).toBe('/v1/external/swaps/...');
    expect(PATHS.swap('.a')).toBe('/v1/external/swaps/.a');
  });

  it.each(['', '.', '..'])('refuses %j, which a URL would drop', (value) => {
    for (const make of [PATHS.swap, PATHS.tokens]) {
      expect(() => make(value)).toThrow(UsageError);
      expect(() => make(value)).toThrow(`'${value}' cannot name a resource in a URL path`);
    }
  });
});
