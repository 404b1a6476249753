import { describe, expect, it } from 'vitest';
import { ResponseFormatError } from '../../src/api/errors.js';
import { BRIDGE_SHAPE, CHAIN_SHAPE, MAX_NESTING, TOKEN_SHAPE, checkObjects, checkSwap, checkSwaps, checkTokenPage } from '../../src/api/shape.js';
import { ONE_SWAP } from '../helpers/one-swap.js';

const req = { method: 'GET', path: '/v1/external/swaps?From=a&To=b' };
const PREFIX = 'the API sent data of the wrong shape: ';
const SUFFIX = ' (GET /v1/external/swaps?From=a&To=b)';

/** The message checkSwaps throws for `body`, without the common frame; undefined when it passes. */
function swapsProblem(body: unknown): string | undefined {
  try {
    checkSwaps(body, req);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(ResponseFormatError);
    const message = (error as Error).message;
    expect(message.startsWith(PREFIX) && message.endsWith(SUFFIX)).toBe(true);
    return message.slice(PREFIX.length, -SUFFIX.length);
  }
}

const swapWith = (change: Record<string, unknown>) => [{ ...ONE_SWAP, ...change }];

/** Every field of a swap, and what the message says it should hold. */
const SWAP_EXPECTED: Record<string, string> = {
  id: 'a string or null',
  timestamp: 'an ISO 8601 date-time string',
  depositedAt: 'an ISO 8601 date-time string',
  withdrawnAt: 'an ISO 8601 date-time string',
  detectedAt: 'an ISO 8601 date-time string',
  completedAt: 'an ISO 8601 date-time string',
  updatedAt: 'an ISO 8601 date-time string',
  bridge: 'a string or null',
  bridgeKey: 'a string or null',
  sourceChain: 'a string or null',
  destinationChain: 'a string or null',
  sourceAccount: 'a string or null',
  destinationAccount: 'a string or null',
  sourceInteractedWith: 'a string or null',
  protocolKey: 'a string or null',
  sourceProtocolAddress: 'a string or null',
  destinationProtocolAddress: 'a string or null',
  intermediateSwapId: 'a string or null',
  sourceOtherProtocolAddresses: 'an array of strings or null',
  destinationOtherProtocolAddresses: 'an array of strings or null',
  sourceTransaction: 'a string or null',
  destinationTransaction: 'a string or null',
  sourceToken: 'a string or null',
  destinationToken: 'a string or null',
  sourceTokenContract: 'a string or null',
  destinationTokenContract: 'a string or null',
  depositAmount: 'a number or null',
  withdrawnAmount: 'a number or null',
  depositUsdAmount: 'a number or null',
  withdrawnUsdAmount: 'a number or null',
  usdMismatchStatus: 'a string',
  tags: 'an array of {type, value} or null',
};

/** A value of the right type for each kind of field, other than the fixture's. */
const GOOD: Record<string, unknown[]> = {
  'a string or null': ['text', null, ''],
  'an ISO 8601 date-time string': ['2026-11-01T00:00:00.1234567Z', '2026-11-01T02:00:00+02:00'],
  'an array of strings or null': [[], ['0x1', '0x2'], null],
  'a number or null': [0, -1.5, null],
  'a string': ['', 'Mismatch'],
  'an array of {type, value} or null': [[], [{ type: 'a', value: 'b' }], [{}], null],
};

/** A value of the wrong type for each kind, with how the message names it. */
const BAD: Record<string, [unknown, string][]> = {
  'a string or null': [
    [1, 'a number'],
    [{}, 'an object'],
    [[], 'an array'],
    [true, 'a boolean'],
  ],
  'an ISO 8601 date-time string': [
    [null, 'null'],
    ['yesterday', 'a string'],
    ['2026-02-30T00:00:00Z', 'a string'],
    [1_700_000_000_000, 'a number'],
    [{}, 'an object'],
    // An array of one time reads as that time once made text: refused as an array, not read.
    [['2026-11-01T00:00:00Z'], 'an array'],
  ],
  'an array of strings or null': [
    ['0x1', 'a string'],
    [[1], 'an array'],
    [['a', null], 'an array'],
    [{}, 'an object'],
  ],
  'a number or null': [
    ['1', 'a string'],
    [Number.POSITIVE_INFINITY, 'a number out of range'],
    [Number.NaN, 'a number out of range'],
    [[], 'an array'],
  ],
  'a string': [
    [null, 'null'],
    [1, 'a number'],
    [false, 'a boolean'],
  ],
  'an array of {type, value} or null': [
    ['a', 'a string'],
    [[null], 'an array'],
    [['a'], 'an array'],
    [[[]], 'an array'],
    [[{}, 1], 'an array'],
    [{}, 'an object'],
  ],
};

describe('checkSwaps', () => {
  it('passes a valid array, returning the same array', () => {
    const body = [ONE_SWAP, { ...ONE_SWAP, id: 'a2' }];
    expect(checkSwaps(body, req)).toBe(body);
    expect(checkSwaps([], req)).toEqual([]);
  });

  it.each([
    [null, 'null'],
    [{}, 'an object'],
    ['[]', 'a string'],
    [1, 'a number'],
    [Number.POSITIVE_INFINITY, 'a number out of range'],
    [true, 'a boolean'],
    [undefined, 'a undefined'],
  ])('refuses a body that is not an array: %j', (body, named) => {
    expect(swapsProblem(body)).toBe(`expected an array of swaps, got ${named}`);
  });

  it.each([
    [null, 'null'],
    [[], 'an array'],
    ['a1', 'a string'],
    [7, 'a number'],
  ])('refuses an element that is not an object: %j', (element, named) => {
    expect(swapsProblem([ONE_SWAP, element])).toBe(`swap 1 is ${named}, not an object`);
  });

  it('the error is a ResponseFormatError of a 200 naming the request, with no headers or body', () => {
    const error = (() => {
      try {
        checkSwaps({}, req);
      } catch (e) {
        return e as ResponseFormatError;
      }
    })()!;
    expect(error.status).toBe(200);
    expect(error.headers).toEqual({});
    expect(error.body).toBeUndefined();
    expect(error.request).toEqual(req);
    expect(error.message).toBe(`${PREFIX}expected an array of swaps, got an object${SUFFIX}`);
  });

  it('checks every field the spec lists', () => {
    expect(Object.keys(SWAP_EXPECTED).sort()).toEqual(Object.keys(ONE_SWAP).sort());
  });

  for (const [field, expected] of Object.entries(SWAP_EXPECTED)) {
    it(`${field}: takes ${expected}, and names a wrong type`, () => {
      for (const good of GOOD[expected]!) expect(swapsProblem(swapWith({ [field]: good }))).toBeUndefined();
      for (const [bad, named] of BAD[expected]!) expect(swapsProblem(swapWith({ [field]: bad }))).toBe(`swap 0 ${field} is ${named}, expected ${expected}`);
    });
  }

  it('a field left out reads as null, but a required time may not be left out (a deprecated one may)', () => {
    for (const field of Object.keys(SWAP_EXPECTED)) {
      const { [field]: _, ...rest } = ONE_SWAP as Record<string, unknown>;
      const required = ['depositedAt', 'withdrawnAt', 'detectedAt', 'completedAt', 'updatedAt'].includes(field);
      expect(swapsProblem([rest]), field).toBe(required ? `swap 0 has no ${field}` : undefined);
    }
  });

  it('a field present as undefined is checked, not taken for one left out', () => {
    expect(swapsProblem(swapWith({ bridge: undefined }))).toBe('swap 0 bridge is a undefined, expected a string or null');
  });

  it('names the first wrong field of the first wrong swap', () => {
    expect(swapsProblem([ONE_SWAP, { ...ONE_SWAP, bridge: 1, usdMismatchStatus: 2 }, { ...ONE_SWAP, id: 3 }])).toBe(
      'swap 1 bridge is a number, expected a string or null',
    );
  });

  it('balanceChanges, when present, is an array of objects', () => {
    for (const good of [[], [{}], [{ chain: 'x', amount: 1 }]]) expect(swapsProblem(swapWith({ balanceChanges: good }))).toBeUndefined();
    for (const [bad, named] of [
      [null, 'null'],
      [{}, 'an object'],
      ['x', 'a string'],
      [[null], 'an array'],
      [[1], 'an array'],
      [[[]], 'an array'],
      [[{}, 'x'], 'an array'],
    ] as const) {
      expect(swapsProblem(swapWith({ balanceChanges: bad }))).toBe(`swap 0 balanceChanges is ${named}, expected an array of balance changes`);
    }
  });

  it('unknown extra fields pass', () => {
    expect(swapsProblem(swapWith({ somethingNew: { a: [1, 'b'] } }))).toBeUndefined();
  });

  /** A swap whose extra field holds `levels` arrays inside each other: the swap has 1 + levels levels. */
  const nested = (levels: number) => {
    let value: unknown = 'leaf';
    for (let i = 0; i < levels; i++) value = i % 2 === 0 ? [value] : { inner: value };
    return { ...ONE_SWAP, extra: value };
  };

  it(`takes a swap ${MAX_NESTING} levels deep, refuses one deeper`, () => {
    expect(MAX_NESTING).toBe(64);
    expect(swapsProblem([nested(MAX_NESTING - 1)])).toBeUndefined();
    expect(swapsProblem([ONE_SWAP, nested(MAX_NESTING)])).toBe(`swap 1 is nested more than ${MAX_NESTING} levels deep`);
    expect(swapsProblem([nested(MAX_NESTING * 3)])).toBe(`swap 0 is nested more than ${MAX_NESTING} levels deep`);
  });

  it('counts the levels of every branch, not only the first', () => {
    const deep = nested(MAX_NESTING).extra;
    expect(swapsProblem([{ ...ONE_SWAP, extra: [1, null, 'x', { a: 1 }, deep] }])).toBe(`swap 0 is nested more than ${MAX_NESTING} levels deep`);
    expect(swapsProblem([{ ...ONE_SWAP, extra: { a: null, b: 2, c: deep } }])).toBe(`swap 0 is nested more than ${MAX_NESTING} levels deep`);
  });
});

describe('checkSwap', () => {
  it('checks one element and returns it', () => {
    const swap = { ...ONE_SWAP };
    expect(checkSwap(swap, 4, req)).toBe(swap);
    expect(() => checkSwap({ ...ONE_SWAP, id: 1 }, 4, req)).toThrow(`${PREFIX}swap 4 id is a number, expected a string or null${SUFFIX}`);
    expect(() => checkSwap(null, 2, req)).toThrow(`${PREFIX}swap 2 is null, not an object${SUFFIX}`);
  });
});

/** The message checkObjects or checkTokenPage throws, without the common frame; undefined when it passes. */
function problem(check: () => unknown): string | undefined {
  try {
    check();
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(ResponseFormatError);
    return (error as Error).message.slice(PREFIX.length, -SUFFIX.length);
  }
}

describe('checkObjects', () => {
  const CHAIN = { blockchainId: 'ethereum', name: 'Ethereum', explorerUrl: 'https://etherscan.io' };
  const TOKEN = { symbol: 'USDC', name: 'USD Coin', contract: '0xa0b8', url: null };
  const BRIDGE = {
    earliestSwapTimestamp: '2024-01-01T00:00:00Z',
    latestSwapTimestamp: null,
    allTimeSwapsCount: 10,
    supportedChains: ['ethereum'],
    url: 'https://b.example',
    icon: null,
    key: 'b',
    name: 'B',
    allTimeSwapsVolume: 1.5,
    status: 'Active',
    delisted: false,
  };

  it('passes arrays of valid objects, and objects with fields left out', () => {
    const chains = [CHAIN, {}, { blockchainId: null }];
    expect(checkObjects(chains, 'chains', req, CHAIN_SHAPE)).toBe(chains);
    expect(checkObjects([TOKEN, {}], 'tokens', req, TOKEN_SHAPE)).toEqual([TOKEN, {}]);
    expect(
      checkObjects([BRIDGE, { ...BRIDGE, delisted: true, latestSwapTimestamp: '2026-01-01T00:00:00Z', supportedChains: null }], 'bridges', req, BRIDGE_SHAPE),
    ).toHaveLength(2);
    expect(checkObjects([{ status: 'x' }], 'bridges', req, BRIDGE_SHAPE)).toHaveLength(1);
  });

  it.each([
    [null, 'null'],
    [{}, 'an object'],
    ['x', 'a string'],
  ])('refuses a body that is not an array: %j', (body, named) => {
    expect(problem(() => checkObjects(body, 'chains', req, CHAIN_SHAPE))).toBe(`expected an array of chains, got ${named}`);
  });

  it.each([
    [null, 'null'],
    [[], 'an array'],
    ['ethereum', 'a string'],
  ])('refuses an element that is not an object: %j', (element, named) => {
    expect(problem(() => checkObjects([CHAIN, element], 'chains', req, CHAIN_SHAPE))).toBe(`chains 1 is ${named}, not an object`);
  });

  it.each([
    ['chains', CHAIN_SHAPE, CHAIN, 'blockchainId', 1, 'blockchainId is a number, expected a string or null'],
    ['chains', CHAIN_SHAPE, CHAIN, 'name', {}, 'name is an object, expected a string or null'],
    ['chains', CHAIN_SHAPE, CHAIN, 'explorerUrl', [], 'explorerUrl is an array, expected a string or null'],
    ['tokens', TOKEN_SHAPE, TOKEN, 'symbol', 1, 'symbol is a number, expected a string or null'],
    ['tokens', TOKEN_SHAPE, TOKEN, 'name', true, 'name is a boolean, expected a string or null'],
    ['tokens', TOKEN_SHAPE, TOKEN, 'contract', 2, 'contract is a number, expected a string or null'],
    ['tokens', TOKEN_SHAPE, TOKEN, 'url', {}, 'url is an object, expected a string or null'],
    ['bridges', BRIDGE_SHAPE, BRIDGE, 'earliestSwapTimestamp', 'soon', 'earliestSwapTimestamp is a string, expected an ISO 8601 date-time string or null'],
    [
      'bridges',
      BRIDGE_SHAPE,
      BRIDGE,
      'earliestSwapTimestamp',
      ['2026-01-01T00:00:00Z'],
      'earliestSwapTimestamp is an array, expected an ISO 8601 date-time string or null',
    ],
    ['bridges', BRIDGE_SHAPE, BRIDGE, 'latestSwapTimestamp', 5, 'latestSwapTimestamp is a number, expected an ISO 8601 date-time string or null'],
    ['bridges', BRIDGE_SHAPE, BRIDGE, 'allTimeSwapsCount', '10', 'allTimeSwapsCount is a string, expected a number or null'],
    ['bridges', BRIDGE_SHAPE, BRIDGE, 'supportedChains', [1], 'supportedChains is an array, expected an array of strings or null'],
    ['bridges', BRIDGE_SHAPE, BRIDGE, 'url', 1, 'url is a number, expected a string or null'],
    ['bridges', BRIDGE_SHAPE, BRIDGE, 'icon', 1, 'icon is a number, expected a string or null'],
    ['bridges', BRIDGE_SHAPE, BRIDGE, 'key', 1, 'key is a number, expected a string or null'],
    ['bridges', BRIDGE_SHAPE, BRIDGE, 'name', 1, 'name is a number, expected a string or null'],
    ['bridges', BRIDGE_SHAPE, BRIDGE, 'allTimeSwapsVolume', null, 'allTimeSwapsVolume is null, expected a finite number'],
    ['bridges', BRIDGE_SHAPE, BRIDGE, 'allTimeSwapsVolume', Number.POSITIVE_INFINITY, 'allTimeSwapsVolume is a number out of range, expected a finite number'],
    ['bridges', BRIDGE_SHAPE, BRIDGE, 'allTimeSwapsVolume', '1', 'allTimeSwapsVolume is a string, expected a finite number'],
    ['bridges', BRIDGE_SHAPE, BRIDGE, 'status', null, 'status is null, expected a string'],
    ['bridges', BRIDGE_SHAPE, BRIDGE, 'delisted', 'false', 'delisted is a string, expected true or false'],
    ['bridges', BRIDGE_SHAPE, BRIDGE, 'delisted', null, 'delisted is null, expected true or false'],
    ['bridges', BRIDGE_SHAPE, BRIDGE, 'delisted', 0, 'delisted is a number, expected true or false'],
  ] as const)('%s: %s %j is refused', (what, shape, valid, field, bad, message) => {
    expect(problem(() => checkObjects([valid, { ...valid, [field]: bad }], what, req, shape))).toBe(`${what} 1 ${message}`);
  });

  it('knows every field of the spec', () => {
    expect(Object.keys(CHAIN_SHAPE)).toEqual(Object.keys(CHAIN));
    expect(Object.keys(TOKEN_SHAPE)).toEqual(Object.keys(TOKEN));
    expect(Object.keys(BRIDGE_SHAPE)).toEqual(Object.keys(BRIDGE));
  });
});

describe('checkTokenPage', () => {
  it('passes a page with items, or with items null', () => {
    const page = { totalCount: 2, items: [{ symbol: 'A' }, { symbol: null }] };
    expect(checkTokenPage(page, req)).toBe(page);
    expect(checkTokenPage({ totalCount: 0, items: null }, req)).toEqual({ totalCount: 0, items: null });
    expect(checkTokenPage({ totalCount: 0, items: [] }, req)).toEqual({ totalCount: 0, items: [] });
  });

  it.each([
    [null, 'null'],
    [[], 'an array'],
    ['x', 'a string'],
    [3, 'a number'],
  ])('refuses a page that is not an object: %j', (body, named) => {
    expect(problem(() => checkTokenPage(body, req))).toBe(`expected a token page, got ${named}`);
  });

  it.each([
    [undefined, 'a undefined'],
    ['2', 'a string'],
    [1.5, 'a number'],
    [null, 'null'],
  ])('refuses a totalCount that is not an integer: %j', (totalCount, named) => {
    expect(problem(() => checkTokenPage({ totalCount, items: [] }, req))).toBe(`totalCount is ${named}, expected an integer`);
  });

  it('checks the items as tokens', () => {
    expect(problem(() => checkTokenPage({ totalCount: 1, items: [{ symbol: 1 }] }, req))).toBe('tokens 0 symbol is a number, expected a string or null');
    expect(problem(() => checkTokenPage({ totalCount: 1, items: {} }, req))).toBe('expected an array of tokens, got an object');
    expect(problem(() => checkTokenPage({ totalCount: 1 }, req))).toBe('expected an array of tokens, got a undefined');
  });
});
