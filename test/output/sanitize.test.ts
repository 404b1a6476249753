/** Terminal safety, character class by character class: what each function removes, and the neighbours it keeps. */
import { describe, expect, it } from 'vitest';
import { stripControl, terminalSafe } from '../../src/output/sanitize.js';

describe('stripControl', () => {
  it.each([
    ['a colour (CSI)', '\u001b[31mred\u001b[0m', 'red'],
    ['a CSI with private parameters', 'a\u001b[?25lb', 'ab'],
    ['a CSI with an intermediate byte', 'a\u001b[1;2 qb', 'ab'],
    ['a title (OSC ended by BEL)', '\u001b]0;evil title\u0007rest', 'rest'],
    ['a link (OSC ended by ST)', '\u001b]8;;http://x\u001b\\link', 'link'],
    ['an OSC never ended', 'a\u001b]0;title', 'a'],
    ['a two-character escape', 'a\u001bMb\u001b_c', 'abc'],
    ['an 8-bit CSI', '\u009b31mred', 'red'],
    ['C0 and C1 controls', 'a\u0000\u0001\u0007\u0008\u000b\u000c\r\u001f\u007f\u0080\u009fb', 'ab'],
    ['bidirectional overrides and isolates', 'a\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069b', 'ab'],
    ['line breaks and tabs, as spaces', 'a\nb\tc\u2028d\u2029e', 'a b c d e'],
  ])('removes %s', (_name, text, expected) => {
    expect(stripControl(text)).toBe(expected);
  });

  it('keeps the characters either side of each range', () => {
    const kept = ' ~\u00a0\u00ff\u2027\u202f\u2065\u206a é 中 🙂';
    expect(stripControl(kept)).toBe(kept);
  });
});

describe('terminalSafe', () => {
  it('removes escapes and controls but keeps line breaks, carriage returns and tabs', () => {
    expect(terminalSafe('\u001b]0;t\u0007a\u001b[2Jb\n\tc\r\n')).toBe('ab\n\tc\r\n');
    expect(terminalSafe('a\u0000\u0008\u000b\u000c\u000e\u001f\u007f\u0080\u009f\u202a\u202e\u2066\u2069b')).toBe('ab');
    expect(terminalSafe('\u2028 ~\u00a0\u202f\u2065\u206a')).toBe('\u2028 ~\u00a0\u202f\u2065\u206a');
  });
});
