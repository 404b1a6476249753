import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitObjects } from '../../src/api/json-elements.js';
import { checkSwap } from '../../src/api/shape.js';
import { scanSwap } from '../../src/api/swap-scan.js';

// One swap as the sandbox sends it, with tags, for a start.
const SWAP: Record<string, unknown> = {
  ...{
    id: '6abd9f38c53ed89237333be2',
    timestamp: '2026-10-01T00:01:36.625Z',
    depositedAt: '2026-09-30T23:46:47.181Z',
    withdrawnAt: '2026-10-01T00:01:00Z',
    detectedAt: '2026-10-01T00:01:36.625Z',
    completedAt: '2026-10-01T00:03:00Z',
    updatedAt: '2026-10-01T00:04:40.151Z',
    bridge: 'Orbiter Finance',
    bridgeKey: 'orbiter',
    sourceChain: 'ethereum',
    destinationChain: 'linea',
    sourceAccount: '0xbc1c1ea4eaf89fa0dbe810c60c42422821fdc615',
    destinationAccount: '0xdf8ee4969a6f2aac2ddc0f291e1757ec26243ebe',
    sourceInteractedWith: '0xecafe53e7624f431466ee0e3008c9f15b6795c53',
    protocolKey: 'orbiter',
    sourceProtocolAddress: '0xecafe53e7624f431466ee0e3008c9f15b6795c53',
    destinationProtocolAddress: '0x80654be6a8bed2860b6470e8717c85bef29072ad',
    intermediateSwapId: '0x1f96672a80ac92a5af47a8387ec6f9f11a8337bdaf18330c7db36d28aae9c08d',
    sourceOtherProtocolAddresses: null,
    destinationOtherProtocolAddresses: ['0x2402980c432c8dea708a77023d93f22c69c6a300'],
    sourceTransaction: '0xc31bac3a353066f36cab90a1ec7153440ff659040731e8470111e56efa41945e',
    destinationTransaction: '0x2783c5373bfd887a7187a057bf3012f2e0c65b8ee364a3b80d930523b01cafef',
    sourceToken: 'USDC',
    destinationToken: 'USDC',
    sourceTokenContract: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
    destinationTokenContract: '0x176211869ca2b568f2a7d4ee941e073a821ee1ff',
    depositAmount: 1509.020851,
    withdrawnAmount: 1497.095728,
    depositUsdAmount: 1509.49,
    withdrawnUsdAmount: 1092.89,
    usdMismatchStatus: 'MismatchDetected',
    tags: null,
  },
  tags: [{ type: 'nft', value: 'x' }],
};
const REQUEST = { method: 'GET', path: '/v1/external/swaps' };

/** The scan of `text` as the only element of a body; undefined when the split does not call it canonical. */
function scan(text: string, field = 'withdrawnAt') {
  const bytes = Buffer.from(`[${text}]`);
  const elements = splitObjects(bytes);
  if (elements?.count !== 1 || elements.canonical[0] !== 1) return undefined;
  return scanSwap(bytes, elements.spans[0]!, elements.spans[1]!, field);
}

/** What the ordinary way makes of `text`: the checked swap, or the error. */
function ordinary(text: string) {
  try {
    return { swap: checkSwap(JSON.parse(text), 0, REQUEST) as unknown as Record<string, unknown> };
  } catch (error) {
    return { error };
  }
}

describe('scanSwap', () => {
  it('vouches for a swap as the API sends it, with its id and filter time', () => {
    const text = JSON.stringify(SWAP);
    expect(scan(text)).toEqual({ id: SWAP.id, time: SWAP.withdrawnAt });
    expect(scan(text, 'updatedAt')).toEqual({ id: SWAP.id, time: SWAP.updatedAt });
    expect(scan(JSON.stringify({ ...SWAP, id: null }))).toEqual({ id: null, time: SWAP.withdrawnAt });
  });

  it.each([
    ['a missing date', JSON.stringify({ ...SWAP, completedAt: undefined })],
    ['a mistyped amount', JSON.stringify({ ...SWAP, depositAmount: '1.5' })],
    ['a null status', JSON.stringify({ ...SWAP, usdMismatchStatus: null })],
    ['a date in another form', JSON.stringify({ ...SWAP, completedAt: '2026-10-01T00:03:00.1234567Z' })],
    ['a date that is not one', JSON.stringify({ ...SWAP, completedAt: 'soon' })],
    ['a list of numbers for addresses', JSON.stringify({ ...SWAP, sourceOtherProtocolAddresses: [1] })],
    ['a tag that is a string', JSON.stringify({ ...SWAP, tags: ['nft'] })],
    ['a known key twice', JSON.stringify(SWAP).replace('"bridge":', '"bridge":"x","bridge":')],
    ['an unknown key twice', JSON.stringify({ ...SWAP, extra: 1 }).replace('"extra":', '"extra":2,"extra":')],
    ['a nested key twice', JSON.stringify({ ...SWAP, tags: [{ type: 'a' }] }).replace('"type":', '"type":"b","type":')],
    ['a bad literal', JSON.stringify({ ...SWAP, bridge: null }).replace('"bridge":null', '"bridge":nul')],
    ['a bad number', JSON.stringify(SWAP).replace(/"depositAmount":[^,]+/, '"depositAmount":-.5')],
    ['a trailing comma', JSON.stringify(SWAP).replace(/}$/, ',}')],
  ])('leaves %s to the ordinary way', (_, text) => {
    expect(scan(text)).toBeUndefined();
  });

  // Anything it vouches for, JSON.parse and checkSwap accept, JSON.stringify writes back byte for byte,
  // and the id and time it read are the parsed ones: swaps with random fields, values and damage.
  it('never vouches for what the ordinary way would refuse or write differently', () => {
    const fields = Object.keys(SWAP);
    const value = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom(null, 'x', '2026-11-01T00:00:00Z', '2026-11-01T00:00:00.5Z', [], [{}], ['a']));
    const swap = fc
      .tuple(fc.dictionary(fc.constantFrom(...fields, 'extra', '0'), value, { maxKeys: 3 }), fc.subarray(fields, { maxLength: 3 }))
      .map(([changes, dropped]) => {
        const out: Record<string, unknown> = { ...SWAP, ...changes };
        for (const field of dropped) delete out[field];
        return JSON.stringify(out);
      });
    const damaged = fc.tuple(swap, fc.nat(), fc.constantFrom(...'{}[]",:0-.e tfnx\\')).map(([text, at, char]) => {
      const i = at % text.length;
      return text.slice(0, i) + char + text.slice(i + 1);
    });
    let vouched = 0;
    fc.assert(
      fc.property(fc.oneof(swap, damaged), fc.constantFrom('withdrawnAt', 'completedAt', 'updatedAt', 'depositedAt'), (text, field) => {
        const scanned = scan(text, field);
        if (scanned === undefined) return;
        vouched += 1;
        const { swap: parsed } = ordinary(text);
        expect(parsed).toBeDefined();
        expect(JSON.stringify(parsed)).toBe(text);
        expect(scanned).toEqual({ id: parsed!.id, time: parsed![field] });
      }),
      { numRuns: 3000 },
    );
    // About a quarter are vouched for: the property is about them, so there must be plenty.
    expect(vouched).toBeGreaterThan(300);
  });
});
