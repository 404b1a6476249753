import { describe, expect, it } from 'vitest';
import type { Swap } from '../../src/api/types.js';
import { findSwaps, swapsInWindow } from '../../src/sandbox/index.js';
import { DAY, NOW, get, swapsPath, useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox({ seed: 21, swapsPerHour: 600 });

async function lookup(identifier: string): Promise<Swap[]> {
  const res = await get(sandbox(), `/v1/external/swaps/${encodeURIComponent(identifier)}`);
  expect(res.status).toBe(200);
  return res.json as Swap[];
}

/** One swap per source chain family, so every hash format is looked up. */
async function sampleSwaps(): Promise<Swap[]> {
  const res = await get(sandbox(), swapsPath(`${DAY}T03:00:00Z`, `${DAY}T03:30:00Z`));
  const page = res.json as Swap[];
  const picked = new Map<string, Swap>();
  for (const s of page) {
    for (const chain of [s.sourceChain!, s.destinationChain!]) if (!picked.has(chain)) picked.set(chain, s);
  }
  return [...new Set(picked.values())];
}

describe('sandbox lookup by identifier', () => {
  it('finds a swap by id, source tx and destination tx, deep-equal to the list object plus balanceChanges', async () => {
    const swaps = await sampleSwaps();
    expect(swaps.length).toBeGreaterThan(5);
    for (const swap of swaps) {
      for (const identifier of [swap.id!, swap.sourceTransaction!, swap.destinationTransaction!]) {
        const found = await lookup(identifier);
        expect(found, identifier).toHaveLength(1);
        const { balanceChanges, ...rest } = found[0]!;
        expect(rest).toStrictEqual(swap);
        expect(Object.keys(found[0]!).at(-1)).toBe('balanceChanges');
        expect(balanceChanges).toHaveLength(4);
      }
    }
  });

  it('matches the pure findSwaps and accepts upper-case hex', async () => {
    const [swap] = await sampleSwaps();
    expect(await lookup(swap!.id!)).toStrictEqual(findSwaps(swap!.id!, { seed: 21, swapsPerHour: 600, now: NOW }));
    expect(await lookup(swap!.id!.toUpperCase())).toHaveLength(1);
  });

  it('balances: rawAmount = amount × 10^decimals, out negative, in positive', async () => {
    for (const swap of await sampleSwaps()) {
      const [found] = await lookup(swap.id!);
      const changes = found!.balanceChanges!;
      expect(changes.map((c) => c.direction)).toEqual(['out', 'in', 'out', 'in']);
      expect(changes[0]).toMatchObject({ account: swap.sourceAccount, chain: swap.sourceChain, token: swap.sourceToken });
      expect(changes[3]).toMatchObject({ account: swap.destinationAccount, chain: swap.destinationChain, token: swap.destinationToken });
      expect(Number(changes[1]!.amount)).toBe(swap.depositAmount);
      expect(Number(changes[3]!.amount)).toBe(swap.withdrawnAmount);
      for (const c of changes) {
        expect(c.amount).toMatch(c.direction === 'out' ? /^-\d+(\.\d+)?$/ : /^\d+(\.\d+)?$/);
        expect(c.rawAmount).toMatch(/^-?[1-9]\d*$/);
        const [whole, fraction = ''] = c.amount.replace('-', '').split('.');
        const raw = BigInt(whole! + fraction.padEnd(c.decimals, '0'));
        expect(BigInt(c.rawAmount)).toBe(c.direction === 'out' ? -raw : raw);
      }
    }
  });

  it('answers [] for anything that does not decode and verify', async () => {
    const [swap] = await sampleSwaps();
    const id = swap!.id!;
    const tx = swap!.sourceTransaction!;
    const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === 'a' ? 'b' : 'a') + s.slice(i + 1);
    for (const identifier of [
      'nope',
      '0'.repeat(24),
      flip(id, 3),
      flip(id, 12),
      flip(tx, 10),
      flip(tx, tx.length - 1),
      `0x${'f'.repeat(64)}`,
      'x'.repeat(300),
    ]) {
      expect(await lookup(identifier), identifier).toEqual([]);
    }
  });

  it('does not find swaps of another seed', async () => {
    const other = swapsInWindow({ from: `${DAY}T03:00:00Z`, to: `${DAY}T03:05:00Z`, now: NOW }, { seed: 22, swapsPerHour: 600 });
    expect(other.length).toBeGreaterThan(0);
    for (const s of other.slice(0, 5)) {
      expect(await lookup(s.id!)).toEqual([]);
      expect(await lookup(s.sourceTransaction!)).toEqual([]);
    }
  });
});
