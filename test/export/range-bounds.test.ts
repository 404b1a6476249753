/** `swapx swaps` range parsing: bad ranges must be exit 2 with one line, never a crash or a wrong year. */
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/api/errors.js';
import { LIST_SWAP_FIELDS } from '../../src/api/types.js';
import { planFromFlags } from '../../src/commands/swaps/flags.js';
import { parseTime } from '../../src/util/time.js';
import { runSwapx } from '../helpers/run.js';

const now = Date.parse('2026-11-21T12:00:00Z');
const output = { file: undefined, format: 'jsonl' as const, gzip: false, fields: LIST_SWAP_FIELDS, excelSafe: false };
// No request is ever sent: the base URL points nowhere.
const env = { SWAPX_BASE_URL: 'http://127.0.0.1:9', SWAPX_CLIENT_ID: 'demo', SWAPX_API_KEY: 'demo', SWAPX_CONFIG_DIR: '/nonexistent/swapx-review' };

describe('swapx swaps: ranges out of what a date can hold', () => {
  it('a duration reaching before the earliest date is exit 2 naming the option, not exit 1 "Invalid time value"', async () => {
    const r = await runSwapx(['swaps', '--from', '20000000w', '--to', '19999999w', '--dry-run'], { env, now });
    expect(r.stderr).not.toContain('Invalid time value');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^swapx: error: --from[^\n]*\n$/);
  });

  it('a --last of millions of weeks is refused before any window is planned (today it plans 3 billion windows and dies out of memory, exit 134)', () => {
    // `swapx swaps --last 10000000w --dry-run` runs for minutes and aborts with a V8 heap out-of-memory trace.
    expect(() => planFromFlags({ last: '10000000w' }, output, now, 4)).toThrow(UsageError);
  });
});

describe('parseTime: years before 100', () => {
  it('reads 0001-01-01 as year 1, not 1901 (Date.UTC maps years 0..99 to 1900..1999)', () => {
    // `swapx swaps --from 0099-01-01 --to 0099-01-02 --dry-run` prints a range in 1999.
    expect(parseTime('0001-01-01', now)).toBe(Date.parse('0001-01-01T00:00:00Z'));
    expect(parseTime('0099-06-01T12:00:00Z', now)).toBe(Date.parse('0099-06-01T12:00:00Z'));
  });
});
