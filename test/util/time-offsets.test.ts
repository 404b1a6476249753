/** CLI.md says <time> is ISO 8601; an offset of hours only (±hh) is ISO 8601 too. */
import { describe, expect, it } from 'vitest';
import { parseTime } from '../../src/util/time.js';

describe('parseTime: ISO 8601 zone offsets', () => {
  it('reads ±hh as well as ±hh:mm and ±hhmm', () => {
    // `swapx swaps --from 2026-11-02T10:00+01 --dry-run` is exit 2 "cannot read … as a time".
    expect(parseTime('2026-11-02T10:00+01', 0)).toBe(Date.parse('2026-11-02T09:00:00Z'));
    expect(parseTime('2026-11-02T10:00:00-05', 0)).toBe(Date.parse('2026-11-02T15:00:00Z'));
  });
});
