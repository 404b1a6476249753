import { afterAll, describe, expect, it } from 'vitest';
import type { Swap } from '../../src/api/types.js';
import { SwapDataset, startSandbox, swapsInWindow, type RunningSandbox, type SandboxOptions } from '../../src/sandbox/index.js';
import { DAY, NOW, get, swapsPath } from '../helpers/sandbox.js';

const started: RunningSandbox[] = [];
async function start(options: SandboxOptions): Promise<RunningSandbox> {
  const sandbox = await startSandbox({ port: 0, now: () => NOW, ...options });
  started.push(sandbox);
  return sandbox;
}
afterAll(async () => {
  await Promise.all(started.map((s) => s.close()));
});

const PATHS = [
  swapsPath(`${DAY}T12:00:00Z`, `${DAY}T12:30:00Z`),
  swapsPath(`${DAY}T12:00:00Z`, `${DAY}T12:30:00Z`, 'Updated'),
  '/v1/external/chains',
  '/v1/external/chains/solana/tokens?Take=1000',
  '/v1/external/bridges?includeDelisted=true',
];

async function bodies(sandbox: RunningSandbox): Promise<string[]> {
  const out: string[] = [];
  for (const path of PATHS) out.push((await get(sandbox, path)).text);
  return out;
}

describe('sandbox determinism', () => {
  it('serves identical bytes for the same seed, whatever the latency', async () => {
    const a = await start({ seed: 42, swapsPerHour: 600 });
    const b = await start({ seed: 42, swapsPerHour: 600, latencyMs: 5 });
    const [first, second] = [await bodies(a), await bodies(b)];
    expect(second).toEqual(first);
    const [swap] = JSON.parse(first[0]!) as Swap[];
    expect((await get(a, `/v1/external/swaps/${swap!.id}`)).text).toBe((await get(b, `/v1/external/swaps/${swap!.id}`)).text);
  });

  it('generates the same data in fresh datasets (no hidden state)', () => {
    const from = Date.parse(`${DAY}T05:00:00Z`);
    const a = new SwapDataset({ seed: 77, swapsPerHour: 400 });
    // Warm a different region first: caches must not influence the result.
    a.windowJson(from + 3_600_000, from + 5_400_000, 'Updated', NOW);
    const b = new SwapDataset({ seed: 77, swapsPerHour: 400 });
    for (const filter of ['Withdrawn', 'Updated'] as const) {
      expect(a.windowJson(from, from + 1_800_000, filter, NOW).toString()).toBe(b.windowJson(from, from + 1_800_000, filter, NOW).toString());
    }
    expect(JSON.stringify(a.windowSwaps(from, from + 1_800_000, 'Deposited', NOW))).toBe(b.windowJson(from, from + 1_800_000, 'Deposited', NOW).toString());
  });

  it('serves different data for a different seed', async () => {
    const a = await start({ seed: 42, swapsPerHour: 600 });
    const c = await start({ seed: 43, swapsPerHour: 600 });
    const [first, other] = [await bodies(a), await bodies(c)];
    expect(other[0]).not.toBe(first[0]);
    expect(other[3]).not.toBe(first[3]);
    expect(other[2]).toBe(first[2]); // chains are fixed
  });

  it('scales the number of swaps with swapsPerHour', () => {
    const window = { from: `${DAY}T00:00:00Z`, to: `${DAY}T06:00:00Z`, now: NOW };
    const low = swapsInWindow(window, { swapsPerHour: 100 }).length;
    const high = swapsInWindow(window, { swapsPerHour: 1000 }).length;
    expect(low).toBeGreaterThan(400);
    expect(low).toBeLessThan(800);
    expect(high / low).toBeGreaterThan(7);
    expect(high / low).toBeLessThan(13);
  });
});

describe('sandbox visibility', () => {
  const window = { from: `${DAY}T12:00:00Z`, to: `${DAY}T12:30:00Z` };
  const ids = (swaps: Swap[]) => swaps.map((s) => s.id!);

  it('never serves a swap before its completedAt; a later clock serves a superset', async () => {
    const times = [Date.parse(`${DAY}T12:10:00Z`), Date.parse(`${DAY}T12:40:00Z`), Date.parse(`${DAY}T13:00:00Z`), NOW];
    let previous: Swap[] = [];
    for (const now of times) {
      const sandbox = await start({ seed: 9, now: () => now });
      const swaps = (await get(sandbox, swapsPath(window.from, window.to))).json as Swap[];
      expect(swaps.every((s) => Date.parse(s.completedAt) <= now)).toBe(true);
      const byId = new Map(swaps.map((s) => [s.id, s]));
      // A swap seen before is still served: the same, or a later version of it (same id, hashes and times but updatedAt).
      for (const s of previous) {
        const later = byId.get(s.id)!;
        if (later.updatedAt === s.updatedAt) expect(later).toStrictEqual(s);
        else
          expect({ ...later, updatedAt: 0, depositUsdAmount: 0, withdrawnUsdAmount: 0, usdMismatchStatus: 0, tags: 0 }).toStrictEqual({
            ...s,
            updatedAt: 0,
            depositUsdAmount: 0,
            withdrawnUsdAmount: 0,
            usdMismatchStatus: 0,
            tags: 0,
          });
        expect(Date.parse(later.updatedAt)).toBeGreaterThanOrEqual(Date.parse(s.updatedAt));
        expect(Date.parse(later.updatedAt)).toBeLessThanOrEqual(now);
      }
      expect(swaps.length).toBeGreaterThanOrEqual(previous.length);
      previous = swaps;
    }
    expect(previous.length).toBeGreaterThan(0);
  });

  it('hides not-yet-visible swaps from lookups too', async () => {
    const all = swapsInWindow({ ...window, now: NOW }, { seed: 9 });
    const swap = all.find((s) => Date.parse(s.completedAt) > Date.parse(window.to))!;
    const early = await start({ seed: 9, now: () => Date.parse(swap.completedAt) - 1 });
    const onTime = await start({ seed: 9, now: () => Date.parse(swap.completedAt) });
    expect((await get(early, `/v1/external/swaps/${swap.id}`)).json).toEqual([]);
    expect((await get(early, `/v1/external/swaps/${swap.sourceTransaction}`)).json).toEqual([]);
    expect((await get(onTime, `/v1/external/swaps/${swap.id}`)).json).toHaveLength(1);
  });

  it('delays lateShare swaps by lateByMs, without changing any swap', () => {
    const lateByMs = 3 * 3_600_000;
    const options = { seed: 9, lateShare: 0.3, lateByMs };
    const complete = swapsInWindow({ ...window, now: NOW }, { seed: 9 });
    const final = swapsInWindow({ ...window, now: NOW }, options);
    expect(final).toStrictEqual(complete);
    const soon = Date.parse(window.to) + 30 * 60_000;
    const early = swapsInWindow({ ...window, now: soon }, options);
    const earlyWithoutLate = swapsInWindow({ ...window, now: soon }, { seed: 9 });
    const missing = earlyWithoutLate.length - early.length;
    expect(missing / earlyWithoutLate.length).toBeGreaterThan(0.2);
    expect(missing / earlyWithoutLate.length).toBeLessThan(0.4);
    const earlyIds = new Set(ids(early));
    expect(ids(earlyWithoutLate).filter((id) => earlyIds.has(id))).toEqual(ids(early));
    // Once lateByMs has passed, everything is there.
    const later = swapsInWindow({ ...window, now: Date.parse(window.to) + 21 * 60_000 + lateByMs }, options);
    expect(ids(later)).toEqual(ids(complete));
  });
});
