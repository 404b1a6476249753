/** Issue 22.1 and 22.2: what `swapx swap` takes as a hash or an id, before any request. */
import { describe, expect, it } from 'vitest';
import { parseSwapIdentifier } from '../../src/commands/swap-identifier.js';

const EVM = '0xf8e4184224dedd5d47090e3152b23159aa2804479961536b59e7da6c44fa7e1e';

describe('parseSwapIdentifier', () => {
  it.each([
    ['an EVM hash', EVM],
    ['an EVM hash in capitals', `0X${EVM.slice(2).toUpperCase()}`],
    ['a Solana signature', '3ChuAjYtabQKThSddtNhK3sJ96pY9nDGRh3pRTw7jyJyW6nbTq1NEadcoFqvCzLMQz7tQHPDCRCF76EwRwuqAb9T'],
    ['a NEAR hash', 'Ceuv1Dx5xD2A5sVQjs8opWzT5PGdHcXcXh39iZEbZc3x'],
    ['a swap id', '6ae6804ca1ceb0a431f6317d'],
    ['a UUID', '0f8fad5b-d9cb-469f-a165-70867728950e'],
  ])('%s is asked as given', (_name, text) => {
    expect(parseSwapIdentifier(text)).toEqual({ text });
  });
  it('64 hex digits (Bitcoin, Tron, TON, or an EVM hash without 0x) are asked as given, then with 0x', () => {
    expect(parseSwapIdentifier(EVM.slice(2))).toEqual({ text: EVM.slice(2), fallback: EVM });
  });
  it.each([
    ['0x and too few digits', '0x5f1c', /^'0x5f1c' is not a transaction hash: an EVM hash is 0x and 64 hex digits \(this has 4 characters after 0x\)$/],
    ['0x and not hex', `0x${'z'.repeat(64)}`, /\(this has 64 characters after 0x, not all hex digits\)$/],
    ['0x and one digit too many', `${EVM}0`, /\(this has 65 characters after 0x\)$/],
    ['too short for an id', 'abc', /^'abc' is not a transaction hash or a swap id: an EVM transaction hash is 0x and 64 hex digits; /],
    ['punctuation', 'swap#1!', /^'swap#1!' is not a transaction hash or a swap id/],
  ])('%s is refused: %s', (_name, text, message) => {
    expect(() => parseSwapIdentifier(text)).toThrow(message);
  });
});
