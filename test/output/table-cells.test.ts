/** The table helpers edge by edge: terminal width, cutting, fitting, rendering, and the number and time forms. */
import { describe, expect, it } from 'vitest';
import {
  compactNumber,
  compactUsd,
  cut,
  fitColumn,
  fitWidths,
  HUMAN_TIME_WIDTH,
  humanTime,
  plural,
  renderPairs,
  renderTable,
  terminalWidth,
  textWidth,
  usdCell,
  type Column,
} from '../../src/output/table.js';

describe('terminalWidth', () => {
  it("a terminal's own columns; else $COLUMNS; else 80", () => {
    expect(terminalWidth({ isTTY: true, columns: 120 }, { COLUMNS: '90' })).toBe(120);
    expect(terminalWidth({ isTTY: false, columns: 120 }, { COLUMNS: '90' })).toBe(90);
    expect(terminalWidth({ columns: 120 })).toBe(80);
    expect(terminalWidth({ isTTY: true, columns: 0 }, { COLUMNS: '90' })).toBe(90);
    expect(terminalWidth({ isTTY: true, columns: 1 })).toBe(1);
    expect(terminalWidth({ isTTY: true, columns: 10.5 }, { COLUMNS: '70' })).toBe(70);
    expect(terminalWidth({ isTTY: true }, { COLUMNS: '70' })).toBe(70);
    expect(terminalWidth({}, { COLUMNS: '0' })).toBe(80);
    expect(terminalWidth({}, { COLUMNS: '1' })).toBe(1);
    expect(terminalWidth({}, { COLUMNS: '-5' })).toBe(80);
    expect(terminalWidth({}, { COLUMNS: '72.5' })).toBe(80);
    expect(terminalWidth({}, { COLUMNS: 'wide' })).toBe(80);
    expect(terminalWidth({})).toBe(80);
  });
});

describe('textWidth and cut', () => {
  it('counts characters, not UTF-16 units', () => {
    expect(textWidth('a🙂b')).toBe(3);
    expect(textWidth('')).toBe(0);
  });

  it('cuts at the end with an ellipsis; a text that fits, or a never column, stays whole', () => {
    expect(cut('abcdef', 6)).toBe('abcdef');
    expect(cut('abcdef', 5)).toBe('abcd…');
    expect(cut('abcdef', 2)).toBe('a…');
    expect(cut('abcdef', 1)).toBe('a');
    expect(cut('abcdef', 0)).toBe('');
    expect(cut('a🙂cdef', 3)).toBe('a🙂…');
    expect(cut('abcdef', 3, 'never')).toBe('abcdef');
  });

  it('cuts in the middle from five characters, keeping the longer part at the start', () => {
    expect(cut('0123456789', 5, 'middle')).toBe('01…89');
    expect(cut('0123456789', 6, 'middle')).toBe('012…89');
    expect(cut('0123456789', 9, 'middle')).toBe('0123…6789');
    expect(cut('0123456789', 10, 'middle')).toBe('0123456789');
    expect(cut('0123456789', 4, 'middle')).toBe('012…');
    expect(cut('0123456789', 1, 'middle')).toBe('0');
  });
});

describe('fitColumn', () => {
  it("a never column's minimum is its width; else its minimum (default 8), at most its width", () => {
    expect(fitColumn({ truncate: 'never', minWidth: 3 }, 0, 20)).toEqual({ width: 20, minWidth: 20, priority: -0, required: false });
    expect(fitColumn({ minWidth: 12, priority: 5, required: true }, 2, 20)).toEqual({ width: 20, minWidth: 12, priority: 5, required: true });
    expect(fitColumn({}, 3, 20)).toEqual({ width: 20, minWidth: 8, priority: -3, required: false });
    expect(fitColumn({ minWidth: 12 }, 1, 5)).toEqual({ width: 5, minWidth: 5, priority: -1, required: false });
    expect(fitColumn({ truncate: 'end', minWidth: 4 }, 1, 10)).toEqual({ width: 10, minWidth: 4, priority: -1, required: false });
  });
});

describe('fitWidths', () => {
  const col = (width: number, minWidth: number, priority: number, required = false) => ({ width, minWidth, priority, required });

  it('everything fits, exactly: nothing changes', () => {
    // 10 + 2 + 20 = 32
    expect(fitWidths([col(10, 5, 1), col(20, 5, 2)], 32)).toEqual([10, 20]);
    expect(fitWidths([col(10, 5, 1)], 10)).toEqual([10]);
    expect(fitWidths([], 0)).toEqual([]);
  });

  it('cuts before dropping when cutting to the minimums absorbs the overflow exactly', () => {
    // 34 wanted of 30: slack 5 + 5 = 10 >= 4; the widest gives a character at a time
    expect(fitWidths([col(10, 5, 1), col(22, 17, 2)], 30)).toEqual([10, 18]);
    // slack exactly the overflow: every column at its minimum
    expect(fitWidths([col(10, 5, 1), col(20, 15, 2)], 22)).toEqual([5, 15]);
  });

  it('drops the lowest priority first, and among equals the later column', () => {
    expect(fitWidths([col(10, 10, 1), col(10, 10, 1), col(10, 10, 2)], 22)).toEqual([10, undefined, 10]);
    expect(fitWidths([col(10, 10, 3), col(10, 10, 1), col(10, 10, 2)], 22)).toEqual([10, undefined, 10]);
    // two dropped, the gap of each going with it
    expect(fitWidths([col(10, 10, 3), col(10, 10, 1), col(10, 10, 2)], 10)).toEqual([10, undefined, undefined]);
  });

  it('never drops a required column; a gap of another width counts', () => {
    expect(fitWidths([col(10, 10, 1, true), col(10, 10, 2)], 15)).toEqual([10, undefined]);
    expect(fitWidths([col(10, 10, 1), col(10, 10, 2)], 21, 1)).toEqual([10, 10]);
    expect(fitWidths([col(10, 10, 1), col(10, 10, 2)], 21)).toEqual([undefined, 10]);
  });

  it('cuts the widest column that can give, down to each minimum, the earliest in priority order among equals', () => {
    expect(fitWidths([col(12, 4, 2), col(12, 4, 1)], 24)).toEqual([11, 11]);
    expect(fitWidths([col(12, 4, 2), col(12, 4, 1)], 25)).toEqual([12, 11]);
    expect(fitWidths([col(30, 29, 2), col(12, 4, 1)], 36)).toEqual([29, 5]);
    // at its minimum a column gives no more, even when widest
    expect(fitWidths([col(20, 20, 2, true), col(12, 4, 1, true)], 26)).toEqual([20, 4]);
  });
});

describe('renderTable', () => {
  interface Row {
    name: string;
    hash: string;
    n: string;
  }
  const rows: Row[] = [
    { name: 'Stargate', hash: '0x1f33ab1812364c10022ec377', n: '1,234' },
    { name: 'Across', hash: '0xabc', n: '5' },
  ];
  const columns: Column<Row>[] = [
    { header: 'name', value: (r) => r.name, required: true },
    { header: 'hash', value: (r) => r.hash, truncate: 'middle', minWidth: 9, priority: -5 },
    { header: 'swaps', value: (r) => r.n, align: 'right', style: (padded, raw) => `<${padded}|${raw}>` },
  ];

  it('at its natural width: padded, aligned, styled, the header as given', () => {
    expect(renderTable(columns, rows, { header: (text) => `[${text}]` })).toBe(
      '[name      hash                        swaps]\n' +
        'Stargate  0x1f33ab1812364c10022ec377  <1,234|1,234>\n' +
        'Across    0xabc                       <    5|5>\n',
    );
  });

  it('narrower: the hash cut in the middle first, then dropped as the least useful', () => {
    expect(renderTable(columns, rows, { maxWidth: 30 })).toBe(
      'name      hash           swaps\nStargate  0x1f33…2ec377  <1,234|1,234>\nAcross    0xabc          <    5|5>\n',
    );
    expect(renderTable(columns, rows, { maxWidth: 20 })).toBe('name      swaps\nStargate  <1,234|1,234>\nAcross    <    5|5>\n');
  });

  it('a header longer than its cells is cut at its end, and trailing spaces go', () => {
    const wide: Column<Row>[] = [
      { header: 'name', value: (r) => r.name, required: true },
      { header: 'a very long header', value: () => '', minWidth: 6 },
    ];
    expect(renderTable(wide, rows, { maxWidth: 17 })).toBe('name      a very…\nStargate\nAcross\n');
  });

  it('a header is cut at its end even in a column whose cells are cut in the middle', () => {
    const hashes: Column<Row>[] = [
      { header: 'name', value: (r) => r.name, required: true },
      { header: 'transaction hash', value: (r) => r.hash, truncate: 'middle', minWidth: 9 },
    ];
    expect(renderTable(hashes, rows, { maxWidth: 19 })).toBe('name      transact…\nStargate  0x1f…c377\nAcross    0xabc\n');
  });

  it('cells cut at the end by default; controls stripped before measuring; no rows, only the header', () => {
    const one: Column<Row>[] = [{ header: 'n', value: (r) => r.name, minWidth: 4 }];
    expect(renderTable(one, rows, { maxWidth: 5 })).toBe('n\nStar…\nAcross\n'.replace('Across', 'Acro…'));
    expect(renderTable([{ header: 'x', value: () => 'a\u001b[31mb' }], [1])).toBe('x\nab\n');
    expect(renderTable(one, [])).toBe('n\n');
  });
});

describe('renderPairs', () => {
  it('aligns labels, styles them padded, strips controls from values', () => {
    expect(
      renderPairs([
        ['id', 'x\u001b[2J'],
        ['bridge', 'Stargate'],
      ]),
    ).toBe('id      x\nbridge  Stargate\n');
    expect(renderPairs([['id', 'x']], (t) => `*${t}*`)).toBe('*id*  x\n');
    expect(renderPairs([])).toBe('\n');
  });
});

describe('numbers, dollars, times and plurals', () => {
  it('compactNumber: each unit from its threshold; the sign first; exponents from 1e15', () => {
    expect(compactNumber(999)).toBe('999');
    expect(compactNumber(999.999)).toBe('1,000');
    expect(compactNumber(1_000)).toBe('1.00k');
    expect(compactNumber(1_000_000)).toBe('1.00M');
    expect(compactNumber(1e9)).toBe('1.00B');
    expect(compactNumber(1e12)).toBe('1.00T');
    expect(compactNumber(999.9e12)).toBe('999.90T');
    expect(compactNumber(1e15)).toBe('1.00e15');
    expect(compactNumber(-1_500)).toBe('-1.50k');
    expect(compactNumber(-2.5e16)).toBe('-2.50e16');
    expect(compactNumber(-12.345)).toBe('-12.35');
    expect(compactNumber(0)).toBe('0');
  });

  it('compactUsd: cents below a thousand; nothing for what is no number', () => {
    expect(compactUsd(999.994)).toBe('$999.99');
    expect(compactUsd(1_000)).toBe('$1.00k');
    expect(compactUsd(-1_000)).toBe('-$1.00k');
    expect(compactUsd(0)).toBe('$0.00');
    expect(compactUsd(undefined)).toBe('');
    expect(compactUsd(Number.NaN)).toBe('');
    expect(compactUsd(Number.POSITIVE_INFINITY)).toBe('');
  });

  it('usdCell: cents below a million, compact from it, a dash for none', () => {
    expect(usdCell(1_000_000)).toBe('$1.00M');
    expect(usdCell(-1_000_000)).toBe('-$1.00M');
    expect(usdCell(999_999.99)).toBe('$999,999.99');
    expect(usdCell(-0.5)).toBe('-$0.50');
    expect(usdCell(0)).toBe('$0.00');
    expect(usdCell(7)).toBe('$7.00');
    expect(usdCell(undefined)).toBe('—');
    expect(usdCell(Number.NaN)).toBe('—');
    expect(usdCell(Number.NEGATIVE_INFINITY)).toBe('—');
  });

  it('humanTime: a dash for none or empty; its width', () => {
    expect(humanTime(undefined)).toBe('—');
    expect(humanTime('')).toBe('—');
    expect(humanTime('2026-11-01T00:00:00Z')).toHaveLength(HUMAN_TIME_WIDTH);
    expect(HUMAN_TIME_WIDTH).toBe(20);
  });

  it('plural: the count with separators, the noun in the plural but for one', () => {
    expect(plural(1, 'window')).toBe('1 window');
    expect(plural(2, 'window')).toBe('2 windows');
    expect(plural(-1, 'window')).toBe('-1 windows');
  });
});
