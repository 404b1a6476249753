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
