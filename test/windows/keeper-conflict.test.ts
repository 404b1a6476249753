import { expect, it } from 'vitest';
import type { Swap } from '../../src/api/types.js';
import { WindowKeeper } from '../../src/windows/order.js';

const from = Date.parse('2024-01-01T00:00:00Z');
const to = Date.parse('2024-01-01T01:00:00Z');
const base = { id: 'a', status: 'Completed', createdAt: '2024-01-01T00:10:00.000Z', completedAt: '2024-01-01T00:20:00.000Z' };

it('counts balanceChanges of the version kept, not of the first copy seen', () => {
  const keeper = new WindowKeeper<Swap>(from, to, undefined, (swap) => swap);
  keeper.offer({ ...base, updatedAt: '2024-01-01T00:20:00.000Z' } as unknown as Swap);
  keeper.offer({ ...base, updatedAt: '2024-01-01T00:30:00.000Z', balanceChanges: [{ x: 1 }] } as unknown as Swap);
  const kept = keeper.result();
  expect(kept.swaps).toHaveLength(1);
  expect(kept.swaps[0]!.balanceChanges).toEqual([{ x: 1 }]);
  expect(kept.withBalanceChanges).toBe(1); // is 0: CSV/Parquet drop it without the warning
});

it('does not count balanceChanges of a version replaced by a later one without them', () => {
  const keeper = new WindowKeeper<Swap>(from, to, undefined, (swap) => swap);
  keeper.offer({ ...base, updatedAt: '2024-01-01T00:20:00.000Z', balanceChanges: [{ x: 1 }] } as unknown as Swap);
  keeper.offer({ ...base, updatedAt: '2024-01-01T00:30:00.000Z' } as unknown as Swap);
  expect(keeper.result().withBalanceChanges).toBe(0); // is 1: a warning about a column nobody lost
});
