/**
 * Swaps change after completion: every operation serves each swap's latest version as of the clock,
 * a pure function of seed and clock, and the four filters agree with each other and with lookups.
 */
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { SWAP_FIELDS, type Swap } from '../../src/api/types.js';
import { findSwaps, startSandbox, swapsInWindow } from '../../src/sandbox/index.js';
import { cliEnv } from '../helpers/cli.js';
import { runSwapx } from '../helpers/run.js';

import { SwapDataset } from '../../src/sandbox/dataset.js';

const H = 3_600_000;
const data = { seed: 5, swapsPerHour: 200 };
const T0 = Date.parse('2026-11-10T00:00:00Z');
const from = T0;
const to = T0 + 2 * H;
/** Clocks from just after the range to a week later. */
const clocks = [to + 5 * 60_000, to + 6 * H, to + 50 * H, to + 53 * H, to + 6 * 24 * H];
/** What an update may change; every other field of a swap is fixed at completion. */
const CHANGING: ReadonlySet<string> = new Set(['depositUsdAmount', 'withdrawnUsdAmount', 'usdMismatchStatus', 'tags', 'updatedAt']);
const FIXED = SWAP_FIELDS.filter((field) => !CHANGING.has(field));

const byId = (swaps: Swap[]) => new Map(swaps.map((s) => [s.id!, s]));
const completedAt = (now: number) => swapsInWindow({ from, to, filter: 'Completed', now }, data);

describe('versions over time', () => {
  it('a swap changes only its USD amounts, usdMismatchStatus, tags and updatedAt; updatedAt never passes the clock', () => {
    const first = byId(completedAt(clocks[0]!));
    const last = byId(completedAt(clocks.at(-1)!));
    expect([...last.keys()].sort()).toEqual([...first.keys()].sort());
    let changed = 0;
    for (const [id, a] of first) {
      const b = last.get(id)!;
      for (const field of FIXED) expect(b[field]).toEqual(a[field]);
      if (a.updatedAt !== b.updatedAt) changed += 1;
      expect(Date.parse(b.updatedAt!)).toBeGreaterThanOrEqual(Date.parse(b.completedAt!));
      expect(Date.parse(a.updatedAt!)).toBeLessThanOrEqual(clocks[0]!);
      if (a.updatedAt === b.updatedAt) expect(b).toEqual(a);
    }
    // The first updates (minutes to hours) and the late corrections (2 and 5 days) both happen.
    expect(changed / first.size).toBeGreaterThan(0.1);
    const lateDelays = [...last.values()].map((s) => Date.parse(s.updatedAt!) - Date.parse(s.completedAt!)).filter((d) => d > 48 * H);
    expect(lateDelays.some((d) => d < 52 * H)).toBe(true);
    expect(lateDelays.some((d) => d > 5 * 24 * H)).toBe(true);
  });

  it('is a pure function of seed and clock', () => {
    const a = swapsInWindow({ from, to, filter: 'Updated', now: clocks[3]! }, data);
    const fresh = new SwapDataset(data).windowSwaps(from, to, 'Updated', clocks[3]!);
    expect(fresh).toEqual(a);
  });

  it('at every clock, Filter=Updated returns exactly the swaps whose current updatedAt is in the window, as the other filters and lookups serve them', () => {
    // The windows serve the updates of every swap before and after the range too (six days of them at the last clock):
    // a sparser dataset, and what is wrong collected and compared once, keep that to a fraction of a second.
    const sparse = { ...data, swapsPerHour: 120 };
    for (const now of [clocks[0]!, clocks[2]!, clocks[4]!]) {
      const current = byId(swapsInWindow({ from, to, filter: 'Completed', now }, sparse));
      // Every version of these swaps lies in [from, to + 6 days]; scan it in 12-hour windows.
      const seen = new Set<string>();
      const served = new Map<string, Swap>();
      const outside: string[] = [];
      const twice: string[] = [];
      for (let t = from; t < now; t += 12 * H) {
        for (const swap of swapsInWindow({ from: t, to: t + 12 * H - 1, filter: 'Updated', now }, sparse)) {
          const ms = Date.parse(swap.updatedAt!);
          if (ms < t || ms >= t + 12 * H) outside.push(`${swap.id} ${swap.updatedAt} in [${t}, ${t + 12 * H})`);
          if (seen.has(swap.id!)) twice.push(swap.id!);
          seen.add(swap.id!);
          // Only the swaps of [from, to) are kept whole: holding every one would cost more in GC than the scan.
          if (current.has(swap.id!)) served.set(swap.id!, swap);
        }
      }
      // At the later clocks the windows hold corrections made 2 and 5 days after completion.
      const delays = [...current.values()].map((s) => Date.parse(s.updatedAt!) - Date.parse(s.completedAt!));
      if (now > to + 48 * H) expect(delays.some((d) => d > 48 * H)).toBe(true);
      if (now > to + 5 * 24 * H) expect(delays.some((d) => d > 5 * 24 * H)).toBe(true);
      expect(outside).toEqual([]);
      expect(twice).toEqual([]);
      expect(seen.size).toBeGreaterThan(current.size);
      expect([...current.values()].filter((swap) => !isDeepStrictEqual(served.get(swap.id!), swap))).toEqual([]);
      expect(current.size).toBeGreaterThan(150);
      const sample = [...current.values()].filter((_, i) => i % 13 === 0);
      for (const swap of sample) {
        const { balanceChanges, ...found } = findSwaps(swap.id!, { ...sparse, now })[0]!;
        expect(balanceChanges).toHaveLength(4);
        expect(found).toEqual(swap);
        const withdrawn = swapsInWindow({ from: swap.withdrawnAt!, to: swap.withdrawnAt!, filter: 'Withdrawn', now }, sparse).find((s) => s.id === swap.id);
        expect(withdrawn).toEqual(swap);
      }
    }
  });

  it('updateRate 0: every swap keeps its first version', () => {
    const none = { ...data, updateRate: 0 };
    const early = swapsInWindow({ from, to, filter: 'Completed', now: clocks[0]! }, none);
    const late = swapsInWindow({ from, to, filter: 'Completed', now: clocks.at(-1)! }, none);
    expect(late).toEqual(early);
    expect(late.every((s) => s.updatedAt === s.completedAt)).toBe(true);
  });
});

describe('the sandbox command and server', () => {
  it.each(['-1', '11', 'often', ''])('--update-rate %j exits 2 with one line', async (value) => {
    const r = await runSwapx(['sandbox', '--port', '0', '--update-rate', value], { env: cliEnv() });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`swapx: error: --update-rate must be a number from 0 to 10, not '${value}'\n`);
  });

  it('tells its clock in the Date header, as a real server tells its own', async () => {
    const sandbox = await startSandbox({ port: 0, now: () => Date.parse('2026-11-10T03:04:05.678Z') });
    try {
      const response = await fetch(`${sandbox.url}/v1/external/chains`, { headers: { authorization: `Basic ${Buffer.from('demo:demo').toString('base64')}` } });
      expect(response.headers.get('date')).toBe('Tue, 10 Nov 2026 03:04:05 GMT');
    } finally {
      await sandbox.close();
    }
  });
});
