import { describe, expect, it } from 'vitest';
import { stripControl } from '../../src/output/sanitize.js';
import { compactUsd, renderTable } from '../../src/output/table.js';

describe('stripControl', () => {
  it('removes ANSI sequences, OSC titles and other controls', () => {
    expect(stripControl('\u001b[31mred\u001b[0m')).toBe('red');
    expect(stripControl('\u001b]0;pwned\u0007title')).toBe('title');
    expect(stripControl('bell\u0007 back\bspace \u009b31mC1')).toBe('bell backspace C1');
    expect(stripControl('two\nlines\tand tab')).toBe('two lines and tab');
    expect(stripControl('plain ✓ ünïcode')).toBe('plain ✓ ünïcode');
    expect(stripControl('paid \u202edesu\u202c \u2066x\u2069')).toBe('paid desu x');
    expect(stripControl('line\u2028sep\u2029para')).toBe('line sep para');
  });
});

describe('renderTable', () => {
  it('aligns columns, right-aligns numbers, strips controls from cells', () => {
    const rows = [
      { name: 'Stargate', n: '1,234' },
      { name: 'evil\u001b[2J', n: '5' },
    ];
    const text = renderTable(
      [
        { header: 'name', value: (r: (typeof rows)[number]) => r.name },
        { header: 'swaps', value: (r) => r.n, align: 'right' },
      ],
      rows,
    );
    expect(text).toBe('name      swaps\nStargate  1,234\nevil          5\n');
  });
});

describe('compactUsd', () => {
  it('reads like money for people', () => {
    expect(compactUsd(69_540_000_000)).toBe('$69.54B');
    expect(compactUsd(1_250_000)).toBe('$1.25M');
    expect(compactUsd(999.5)).toBe('$999.50');
    expect(compactUsd(null)).toBe('');
  });
});

describe('fitting a width', () => {
  it('cut keeps both ends of a hash in the middle mode, the start otherwise', async () => {
    const { cut } = await import('../../src/output/table.js');
    expect(cut('0x1f33ab1812364c10022ec377833f7dc2', 13, 'middle')).toBe('0x1f33…3f7dc2');
    expect(cut('Portal (Wormhole)', 10)).toBe('Portal (W…');
    expect(cut('6ae680109afb274a0910f7db', 10, 'never')).toBe('6ae680109afb274a0910f7db');
    expect(cut('short', 10, 'middle')).toBe('short');
  });
  it('fitWidths drops the lowest priority first, then cuts the widest, never below a minimum or a required column', async () => {
    const { fitWidths } = await import('../../src/output/table.js');
    const col = (width: number, minWidth: number, priority: number, required = false) => ({ width, minWidth, priority, required });
    // 10 + 20 + 30 + 4 gaps = 64: the priority-1 column goes, then 2 is cut from the widest (20 → 18)
    expect(fitWidths([col(10, 10, 3, true), col(20, 10, 2), col(30, 30, 1)], 30)).toEqual([10, 18, undefined]);
    expect(fitWidths([col(10, 10, 3, true), col(20, 10, 2), col(30, 30, 1)], 100)).toEqual([10, 20, 30]);
    // nothing droppable: every column at its minimum, the line overflows
    expect(fitWidths([col(10, 10, 2, true), col(20, 15, 1, true)], 20)).toEqual([10, 15]);
  });
  it('usdCell: cents below a million, $1.23M from there', async () => {
    const { usdCell } = await import('../../src/output/table.js');
    expect(usdCell(999_999.994)).toBe('$999,999.99');
    expect(usdCell(12_345_678.9)).toBe('$12.35M');
    expect(usdCell(null)).toBe('—');
  });
  // Issue 22.8: the sign before the dollar, no T beyond a trillion.
  it('negative and huge dollars read as money', async () => {
    const { usdCell } = await import('../../src/output/table.js');
    expect(usdCell(-77_530_000)).toBe('-$77.53M');
    expect(usdCell(-1_234.5)).toBe('-$1,234.50');
    expect(usdCell(-1.2345678901e20)).toBe('-$1.23e20');
    expect(usdCell(1e296)).toBe('$1.00e296');
    expect(usdCell(2.5e12)).toBe('$2.50T');
    expect(compactUsd(-77_530_000)).toBe('-$77.53M');
    expect(compactUsd(-5)).toBe('-$5.00');
  });
  it('humanTime: one form, UTC to the second with the zone, whatever the API sent', async () => {
    const { humanTime } = await import('../../src/output/table.js');
    expect(humanTime('2026-10-31T23:57:57.155Z')).toBe('2026-10-31T23:57:57Z');
    expect(humanTime('2026-11-01T00:00:00Z')).toBe('2026-11-01T00:00:00Z');
    expect(humanTime('2026-11-01T12:10:00.1234567')).toBe('2026-11-01T12:10:00Z');
    expect(humanTime('2026-11-01T02:00:00+02:00')).toBe('2026-11-01T00:00:00Z');
    expect(humanTime(null)).toBe('—');
    expect(humanTime('soon')).toBe('soon');
  });
  it('plural: 1 swap, 2 swaps', async () => {
    const { plural } = await import('../../src/output/table.js');
    expect([plural(0, 'swap'), plural(1, 'swap'), plural(1234, 'swap')]).toEqual(['0 swaps', '1 swap', '1,234 swaps']);
  });
});

describe('the swaps table', () => {
  it('a swap of $12,345,678 reads $12.35M, not a cut number; a huge amount shortens, never cuts its digits', async () => {
    const { swapRowsEncoder, amountCell } = await import('../../src/output/swap-rows.js');
    const { Chalk } = await import('chalk');
    const swap = {
      id: '6ae680109afb274a0910f7db',
      withdrawnAt: '2026-11-01T00:00:00.123Z',
      bridge: 'Stargate',
      sourceChain: 'ethereum',
      destinationChain: 'base',
      depositAmount: 12_345_678.123456,
      withdrawnAmount: 12_345_000.5,
      sourceToken: 'USDC',
      destinationToken: 'USDC',
      depositUsdAmount: 12_345_678.9,
      withdrawnUsdAmount: 12_345_678.9,
      usdMismatchStatus: 'OK',
    };
    const encoder = swapRowsEncoder(undefined, new Chalk({ level: 0 }), { width: 160 });
    expect(encoder.header()).toBe(
      'withdrawnAt           bridge              route                            deposit           withdrawal          USD  USD check         id\n',
    );
    expect(encoder.batch([swap], true)).toBe(
      '2026-11-01T00:00:00Z  Stargate            ethereum → base       12,345,678.12 USDC    12,345,000.5 USDC      $12.35M  OK                6ae680109afb274a0910f7db\n',
    );
    // Issue 22.7: an id longer than most (a UUID) is last, so it pushes no column out of line.
    const uuid = { ...swap, id: '0f8fad5b-d9cb-469f-a165-70867728950e' };
    expect(encoder.batch([uuid], true)).toBe(
      '2026-11-01T00:00:00Z  Stargate            ethereum → base       12,345,678.12 USDC    12,345,000.5 USDC      $12.35M  OK                0f8fad5b-d9cb-469f-a165-70867728950e\n',
    );
    // Issue 22.8: a huge amount is 1.00e284 with its token, never 1e+284T.
    expect(amountCell(1e296, 'USDC', 20)).toBe('1.00e296 USDC');
    expect(amountCell(-1.5e18, 'USDC', 20)).toBe('-1.50e18 USDC');
    expect(amountCell(12_345_678.123456, 'USDC', 18)).toBe('12,345,678.12 USDC');
    expect(amountCell(12_345_678.123456, 'USDC', 12)).toBe('12.35M USDC');
    expect(amountCell(12_345_678.123456, 'USDC', 6)).toBe('12.35M');
    expect(amountCell(0.1234567, 'WETH', 20)).toBe('0.1235 WETH');
    expect(amountCell(null, 'WETH', 20)).toBe('—');
  });
});
