/** The swaps table column by column: which columns a width keeps, each cell's form, colours, and --fields. */
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { LIST_SWAP_FIELDS, SWAP_FIELDS } from '../../src/api/types.js';
import { amountCell, swapRowsEncoder, type SwapRowsOptions } from '../../src/output/swap-rows.js';

const swap = {
  id: '6ae680109afb274a0910f7db',
  withdrawnAt: '2026-11-01T00:00:00.123Z',
  depositedAt: '2026-10-31T23:59:00Z',
  bridge: 'Stargate',
  sourceChain: 'ethereum',
  destinationChain: 'base',
  depositAmount: 1234.56789,
  withdrawnAmount: 1234.5,
  sourceToken: 'USDC',
  destinationToken: 'USDC',
  depositUsdAmount: 1234.57,
  withdrawnUsdAmount: 1234.5,
  usdMismatchStatus: 'MismatchDetected',
  sourceTransaction: `0x${'ab'.repeat(40)}`,
  sourceAccount: `0x${'cd'.repeat(30)}`,
  intermediateSwapId: `0x${'ef'.repeat(40)}`,
  tags: [{ type: 'nft', value: 'x' }],
  sourceOtherProtocolAddresses: null,
};
const plain = new Chalk({ level: 0 });
const colour = new Chalk({ level: 1 });

function table(record: object, options: SwapRowsOptions = {}, filter?: 'Deposited', c = plain): string {
  const encoder = swapRowsEncoder(filter, c, options);
  return encoder.header() + encoder.batch([record], true);
}

describe('amountCell', () => {
  it.each([
    [1234.56789, 'USDC', 15, '1,234.5679 USDC'],
    [1234.56789, 'USDC', 13, '1,234.57 USDC'],
    [1234.56789, 'USDC', 10, '1.23k USDC'],
    [1234.56789, 'USDC', 7, '1.23k U'],
    [1234.56789, 'USDC', 5, '1.23k'],
    [1234.56789, 'USDC', 4, '1.2…'],
    [1234.56789, 'USDC', 3, '1.…'],
    [1234.56789, null, 20, '1,234.5679'],
    [1234.56789, '', 20, '1,234.5679'],
    [1234.56789, 'a\u001b[2Jb', 20, '1,234.5679 ab'],
    [12_345_678.9, 'VERYLONGTOKEN', 12, '12.35M VERY…'],
    [12_345_678.9, 'VERYLONGTOKEN', 8, '12.35M V'],
    [12_345_678.9, 'VERYLONGTOKEN', 7, '12.35M'],
    [0, 'X', 20, '0 X'],
  ] as const)('%d %s in %d: %s', (value, token, width, expected) => {
    expect(amountCell(value, token, width)).toBe(expected);
  });
});

describe('the people view', () => {
  it.each([
    [
      undefined,
      'withdrawnAt           bridge              route                                deposit            withdrawal          USD  USD check         id\n' +
        '2026-11-01T00:00:00Z  Stargate            ethereum → base              1,234.5679 USDC          1,234.5 USDC    $1,234.50  MismatchDetected  6ae680109afb274a0910f7db\n',
    ],
    [
      160,
      'withdrawnAt           bridge              route                            deposit           withdrawal          USD  USD check         id\n' +
        '2026-11-01T00:00:00Z  Stargate            ethereum → base          1,234.5679 USDC         1,234.5 USDC    $1,234.50  MismatchDetected  6ae680109afb274a0910f7db\n',
    ],
    [
      146,
      'withdrawnAt           bridge           route                       deposit       withdrawal          USD  USD check       id\n' +
        '2026-11-01T00:00:00Z  Stargate         ethereum → base     1,234.5679 USDC     1,234.5 USDC    $1,234.50  MismatchDetec…  6ae680109afb274a0910f7db\n',
    ],
    [
      145,
      'withdrawnAt           bridge           route                      deposit       withdrawal          USD  USD check       id\n' +
        '2026-11-01T00:00:00Z  Stargate         ethereum → base      1,234.57 USDC     1,234.5 USDC    $1,234.50  MismatchDetec…  6ae680109afb274a0910f7db\n',
    ],
    [
      120,
      'withdrawnAt           bridge              route                        withdrawal          USD  id\n' +
        '2026-11-01T00:00:00Z  Stargate            ethereum → base            1,234.5 USDC    $1,234.50  6ae680109afb274a0910f7db\n',
    ],
    [
      100,
      'withdrawnAt           bridge              route                        USD  id\n2026-11-01T00:00:00Z  Stargate            ethereum → base        $1,234.50  6ae680109afb274a0910f7db\n',
    ],
    [80, 'withdrawnAt           route                        USD  id\n2026-11-01T00:00:00Z  ethereum → base        $1,234.50  6ae680109afb274a0910f7db\n'],
    [60, 'withdrawnAt           id\n2026-11-01T00:00:00Z  6ae680109afb274a0910f7db\n'],
    [10, 'id\n6ae680109afb274a0910f7db\n'],
  ])('at width %s', (width, expected) => {
    expect(table(swap, { width })).toBe(expected);
  });

  it("the filter's time, bold headers, the USD check coloured by its status", () => {
    expect(table(swap, { width: 200 }, 'Deposited', colour)).toBe(
      '\u001b[1mdepositedAt           bridge              route                                deposit            withdrawal          USD  USD check         id\u001b[22m\n' +
        '2026-10-31T23:59:00Z  Stargate            ethereum → base              1,234.5679 USDC          1,234.5 USDC    $1,234.50  \u001b[31mMismatchDetected\u001b[39m  6ae680109afb274a0910f7db\n',
    );
    const row = (status: string | null) => table({ ...swap, usdMismatchStatus: status }, { width: 200 }, undefined, colour).split('\n')[1]!;
    expect(row('NotFound')).toContain('$1,234.50  \u001b[33mNotFound        \u001b[39m  6ae');
    expect(row('Unprocessed')).toContain('$1,234.50  \u001b[2mUnprocessed     \u001b[22m  6ae');
    expect(row('OK')).toContain('$1,234.50  OK                6ae');
    expect(row(null)).toContain('$1,234.50  —                 6ae');
  });

  it('a time or a dollar amount that is too long for its column is shown whole', () => {
    const odd = { ...swap, withdrawnAt: 'not a time the API should send', withdrawnUsdAmount: -999_999.99 };
    expect(table(odd, { width: 200 }).split('\n')[1]).toBe(
      'not a time the API should send  Stargate            ethereum → base              1,234.5679 USDC          1,234.5 USDC  -$999,999.99  MismatchDetected  6ae680109afb274a0910f7db',
    );
  });

  it('a swap with nothing known: a dash in each cell, ? for the chains, the deposit in dollars when there is no withdrawal', () => {
    const empty = Object.fromEntries(Object.keys(swap).map((key) => [key, null]));
    expect(table(empty, { width: 200 }).split('\n')[1]).toBe(
      '—                     —                   ? → ?                                      —                     —            —  —                 —',
    );
    expect(table({ ...swap, withdrawnUsdAmount: null }, { width: 200 }).split('\n')[1]).toContain('USDC    $1,234.57  Mismatch');
  });

  it('every field, with or without balanceChanges, is no choice: the people view', () => {
    const people = table(swap, { width: 200 });
    expect(table(swap, { width: 200, fields: SWAP_FIELDS })).toBe(people);
    expect(table(swap, { width: 200, fields: LIST_SWAP_FIELDS })).toBe(people);
    expect(table(swap, { width: 200, fields: [...LIST_SWAP_FIELDS].reverse() })).not.toBe(people);
    // Every field but two in their places: a choice.
    const swapped = [LIST_SWAP_FIELDS[1]!, LIST_SWAP_FIELDS[0]!, ...LIST_SWAP_FIELDS.slice(2)];
    expect(table(swap, { width: 200, fields: swapped }).split('\n')[0]).toMatch(/^timestamp {13}id {24}depositedAt/);
    expect(table(swap, { width: 200, fields: LIST_SWAP_FIELDS.slice(0, -1) }).split('\n')[0]).toMatch(/^id {24}timestamp/);
  });
});

describe('--fields', () => {
  const fields = [
    'depositedAt',
    'withdrawnUsdAmount',
    'depositAmount',
    'sourceTransaction',
    'sourceAccount',
    'intermediateSwapId',
    'tags',
    'bridge',
    'id',
    'sourceOtherProtocolAddresses',
  ];

  it('each field at the width its values usually need: hashes whole where there is room, else cut in the middle', () => {
    expect(table(swap, { fields })).toBe(
      'depositedAt           withdrawnUsdAmount       depositAmount  sourceTransaction                                                                         sourceAccount                                     intermediateSwapId                                                  tags                            bridge              id                        sourceOtherProtocolAddresses\n' +
        '2026-10-31T23:59:00Z           $1,234.50          1,234.5679  0xabababababababababababababababababababababababababababababababababababababababab        0xcdcdcdcdcdcdcdcdcdcdcd…dcdcdcdcdcdcdcdcdcdcdcd  0xefefefefefefefefefefefefefefefe…efefefefefefefefefefefefefefefef  [{"type":"nft","value":"x"}]    Stargate            6ae680109afb274a0910f7db  —\n',
    );
  });

  it('narrow: every field kept (asked for), each cut to its minimum; times, dollars and the id never cut', () => {
    expect(table(swap, { fields, width: 60 })).toBe(
      'depositedAt           withdrawnUsdAmount  depositAm…  sourceTransa…  sourceAccount  intermediate…  tags      bridge    id                        sourceO…\n' +
        '2026-10-31T23:59:00Z           $1,234.50  1,234.5679  0xabab…ababab  0xcdcd…cdcdcd  0xefef…efefef  [{"type…  Stargate  6ae680109afb274a0910f7db  —\n',
    );
  });

  it.each([
    ['sourceTransaction', 88],
    ['destinationTransaction', 88],
    ['sourceAccount', 48],
    ['destinationTokenContract', 48],
    ['sourceProtocolAddress', 48],
    ['sourceInteractedWith', 48],
    ['intermediateSwapId', 66],
  ])('%s: a column %d wide', (field, width) => {
    expect(table({ id: 'x' }, { fields: [field, 'id'] }).split('\n')[0]).toBe(`${field.padEnd(width + 2)}id`);
  });

  it.each(['timestamp', 'depositedAt', 'withdrawnAt', 'detectedAt', 'completedAt', 'updatedAt'])('%s: a time, as every table shows one', (field) => {
    expect(table({ [field]: '2026-11-01T00:00:00.5Z', id: 'x' }, { fields: [field, 'id'] })).toBe(`${field.padEnd(22)}id\n2026-11-01T00:00:00Z  x\n`);
  });

  it.each([
    ['depositAmount', 18, '1,234.5'],
    ['withdrawnAmount', 18, '1,234.5'],
    ['depositUsdAmount', 16, '$1,234.50'],
    ['withdrawnUsdAmount', 18, '$1,234.50'],
  ])('%s: a number, right-aligned in %d', (field, width, shown) => {
    expect(table({ [field]: 1234.5, id: 'x' }, { fields: [field, 'id'] })).toBe(`${field.padStart(width)}  id\n${shown.padStart(width)}  x\n`);
  });

  it('a time field asked for is shown whole, even text that is no time', () => {
    expect(table({ withdrawnAt: 'not a time the API should send', id: 'x' }, { fields: ['withdrawnAt', 'id'] })).toBe(
      'withdrawnAt           id\nnot a time the API should send  x\n',
    );
  });

  it('a dollar field asked for is never cut, however narrow the line', () => {
    expect(table({ withdrawnUsdAmount: -999_999.99, id: 'x' }, { fields: ['withdrawnUsdAmount', 'id'], width: 20 })).toBe(
      'withdrawnUsdAmount  id\n      -$999,999.99  x\n',
    );
  });

  it('columns of one width cut alike, the later one first; a field the swap lacks shows a dash', () => {
    const chains = { sourceChain: 'ethereum', bridgeKey: 'wormhole', id: 'x' };
    expect(table(chains, { fields: ['sourceChain', 'bridgeKey'], width: 25 })).toBe('sourceChain   bridgeKey\nethereum      wormhole\n');
    expect(table(chains, { fields: ['sourceChain', 'bridgeKey'], width: 24 })).toBe('sourceChain  bridgeKey\nethereum     wormhole\n');
    expect(table({ id: 'x' }, { fields: ['bridge', 'id'] })).toBe(`bridge${' '.repeat(14)}id\n—${' '.repeat(19)}x\n`);
  });

  it('a field of words is cut at its end, to 8; an id asked for is never cut, however long', () => {
    const long = { ...swap, id: '0f8fad5b-d9cb-469f-a165-70867728950e', destinationOtherProtocolAddresses: ['0xa', '0xb'] };
    expect(table(long, { fields: ['destinationOtherProtocolAddresses', 'id'], width: 30 })).toBe(
      'destina…  id\n0xa, 0xb  0f8fad5b-d9cb-469f-a165-70867728950e\n',
    );
    expect(table(long, { fields: ['destinationOtherProtocolAddresses', 'id'] })).toBe(
      `destinationOtherProtocolAddresses             id\n0xa, 0xb${' '.repeat(38)}0f8fad5b-d9cb-469f-a165-70867728950e\n`,
    );
  });
});
