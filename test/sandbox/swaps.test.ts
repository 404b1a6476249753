import { describe, expect, it } from 'vitest';
import { SWAP_FIELDS, type Swap } from '../../src/api/types.js';
import { MAX_DELAY_MS, countSwapsInWindow, iterateSwapsInWindow, swapsInWindow } from '../../src/sandbox/index.js';
import { DAY, NOW, get, isoPlus, swapsPath, useSandbox } from '../helpers/sandbox.js';

const RATE = 150;
const sandbox = useSandbox({ seed: 11, swapsPerHour: RATE });
const data = { seed: 11, swapsPerHour: RATE };
const HALF_HOUR = 30 * 60_000;

async function window(from: string, to: string, filter?: string): Promise<Swap[]> {
  const res = await get(sandbox(), swapsPath(from, to, filter));
  expect(res.status).toBe(200);
  return res.json as Swap[];
}

const ms = (iso: string) => Date.parse(iso);

describe('sandbox swaps window', () => {
  it('serves a day in 48 windows that match the pure data and keep the time invariants', async () => {
    const byId = new Map<string, Swap>();
    let served = 0;
    for (let k = 0; k < 48; k++) {
      const from = isoPlus(`${DAY}T00:00:00Z`, k * HALF_HOUR);
      const page = await window(from, isoPlus(from, HALF_HOUR));
      served += page.length;
      for (const swap of page) byId.set(swap.id!, swap);
    }
    // The windows' union covers [00:00, 24:00], both ends inclusive.
    const expected = [...iterateSwapsInWindow({ from: `${DAY}T00:00:00Z`, to: isoPlus(`${DAY}T00:00:00Z`, 48 * HALF_HOUR), now: NOW }, data)];
    expect(byId.size).toBe(expected.length);
    expect(served).toBeGreaterThanOrEqual(byId.size);
    expect(byId.size).toBeGreaterThan(RATE * 24 * 0.8);
    // Byte comparison: same values and same key order (and far faster than a deep equal).
    expect(JSON.stringify(expected.map((s) => byId.get(s.id!)))).toBe(JSON.stringify(expected));

    // Plain checks collected per swap: one expect per swap is slow at this count.
    const fields = SWAP_FIELDS.filter((f) => f !== 'balanceChanges').join();
    const stamp = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/;
    const broken: string[] = [];
    for (const swap of byId.values()) {
      const times = [swap.depositedAt, swap.withdrawnAt, swap.detectedAt, swap.completedAt, swap.updatedAt];
      const [dep, wd, det, comp, upd] = times.map(ms) as [number, number, number, number, number];
      const ok =
        Object.keys(swap).join() === fields &&
        dep <= wd &&
        wd <= det &&
        det <= comp &&
        comp <= upd &&
        wd - dep <= MAX_DELAY_MS.withdrawnAfterDeposited &&
        det - wd <= MAX_DELAY_MS.detectedAfterWithdrawn &&
        comp - det <= MAX_DELAY_MS.completedAfterDetected &&
        // the first update within hours, or a correction after 2 or 5 days; never after the clock
        (upd - comp <= MAX_DELAY_MS.updatedAfterCompleted || upd - comp > 48 * 3_600_000) &&
        upd <= NOW &&
        swap.timestamp === swap.detectedAt &&
        times.every((t) => stamp.test(t) && !t.endsWith('.000Z'));
      if (!ok) broken.push(JSON.stringify(swap));
    }
    expect(broken).toEqual([]);
    const all = [...byId.values()];
    expect(all.some((s) => s.withdrawnAt.endsWith(':00Z'))).toBe(true);
    expect(all.some((s) => /\.\d{3}Z$/.test(s.withdrawnAt))).toBe(true);
    expect(all.some((s) => ms(s.updatedAt) - ms(s.completedAt) > 3_600_000)).toBe(true);
  });

  it('returns a swap exactly on a window edge from both adjacent windows', async () => {
    const day = swapsInWindow({ from: `${DAY}T00:00:00Z`, to: `${DAY}T12:00:00Z`, now: NOW }, data);
    const onEdge = day.find((s) => /T\d{2}:(00|30):00Z$/.test(s.withdrawnAt) && !s.withdrawnAt.startsWith(`${DAY}T00:00`));
    expect(onEdge).toBeDefined();
    const edge = onEdge!.withdrawnAt;
    const before = await window(isoPlus(edge, -HALF_HOUR), edge);
    const after = await window(edge, isoPlus(edge, HALF_HOUR));
    expect(before.map((s) => s.id)).toContain(onEdge!.id);
    expect(after.map((s) => s.id)).toContain(onEdge!.id);
    // Zero-width window at the edge.
    expect((await window(edge, edge)).map((s) => s.id)).toContain(onEdge!.id);
  });

  it('applies the window to the filtered time, only scanning what it must', async () => {
    const from = `${DAY}T06:00:00Z`;
    const to = isoPlus(from, HALF_HOUR);
    // Every swap anchored (deposited) up to 7 h before the window end, filtered by brute force.
    const candidates = swapsInWindow({ from: isoPlus(from, -7 * 3_600_000), to, filter: 'Deposited', now: NOW }, data);
    const fields = { Withdrawn: 'withdrawnAt', Deposited: 'depositedAt', Completed: 'completedAt', Updated: 'updatedAt' } as const;
    // updatedAt may be days after the anchor (a late correction): six days of swaps, streamed rather than held.
    const updatedCandidates = () => iterateSwapsInWindow({ from: isoPlus(from, -6 * 24 * 3_600_000), to, filter: 'Deposited', now: NOW }, data);
    for (const [filter, field] of Object.entries(fields)) {
      const expected: string[] = [];
      for (const s of filter === 'Updated' ? updatedCandidates() : candidates) {
        if (ms(s[field]) >= ms(from) && ms(s[field]) <= ms(to)) expected.push(s.id!);
      }
      expected.sort();
      const got = (await window(from, to, filter)).map((s) => s.id).sort();
      expect(got, filter).toEqual(expected);
      expect(got.length, filter).toBeGreaterThan(0);
    }
  });

  it('defaults Filter to Withdrawn; Updated differs from Completed', async () => {
    const from = `${DAY}T10:00:00Z`;
    const to = `${DAY}T10:30:00Z`;
    const plain = await get(sandbox(), swapsPath(from, to));
    const withdrawn = await get(sandbox(), swapsPath(from, to, 'Withdrawn'));
    expect(plain.text).toBe(withdrawn.text);
    const completed = (await window(from, to, 'Completed')).map((s) => s.id).sort();
    const updated = (await window(from, to, 'Updated')).map((s) => s.id).sort();
    expect(updated).not.toEqual(completed);
  });

  it('does not sort by the filtered time, and answers [] for an empty window', async () => {
    const page = await window(`${DAY}T08:00:00Z`, `${DAY}T08:30:00Z`);
    const times = page.map((s) => ms(s.withdrawnAt));
    expect(times).not.toEqual([...times].sort((a, b) => a - b));
    const empty = await get(sandbox(), swapsPath('2019-06-01T00:00:00Z', '2019-06-01T00:30:00Z'));
    expect(empty.status).toBe(200);
    expect(empty.text).toBe('[]');
  });

  it('covers every enumeration value, tag type and nullable shape', () => {
    const day = swapsInWindow({ from: `${DAY}T00:00:00Z`, to: `${DAY}T23:59:59.999Z`, now: NOW }, data);
    expect(new Set(day.map((s) => s.usdMismatchStatus))).toEqual(new Set(['Unprocessed', 'NotFound', 'MismatchDetected', 'OK']));
    const tags = day.flatMap((s) => s.tags ?? []);
    expect(new Set(tags.map((t) => t.type))).toEqual(new Set(['agg-affiliate', 'nft', 'chain-nonce']));
    expect(new Set(tags.filter((t) => t.type === 'nft').map((t) => t.value))).toEqual(new Set(['deposit', 'withdrawal']));
    expect(day.some((s) => s.tags === null)).toBe(true);
    expect(day.some((s) => Array.isArray(s.tags) && s.tags.length === 0)).toBe(true);
    expect(day.some((s) => s.usdMismatchStatus === 'NotFound' && s.depositUsdAmount === null)).toBe(true);
    expect(day.some((s) => s.protocolKey === null)).toBe(true);
    expect(day.some((s) => s.sourceOtherProtocolAddresses === null)).toBe(true);
    expect(day.some((s) => (s.destinationOtherProtocolAddresses?.length ?? 0) > 0)).toBe(true);
    const odd = day.filter(
      (s) =>
        !/^0x[0-9a-f]{64}$/.test(s.intermediateSwapId!) ||
        !/^[0-9a-f]{24}$/.test(s.id!) ||
        (s.usdMismatchStatus === 'OK' && (s.depositUsdAmount === null || s.withdrawnUsdAmount === null)),
    );
    expect(odd).toEqual([]);
    expect(new Set(day.map((s) => s.id)).size).toBe(day.length);
    expect(countSwapsInWindow({ from: `${DAY}T00:00:00Z`, to: `${DAY}T23:59:59.999Z`, now: NOW }, data)).toBe(day.length);
  });
});

describe('sandbox per-chain formats', () => {
  const B58 = '[1-9A-HJ-NP-Za-km-z]';
  const formats: Record<string, { account: RegExp; tx: RegExp }> = {
    evm: { account: /^0x[0-9a-f]{40}$/, tx: /^0x[0-9a-f]{64}$/ },
    solana: { account: new RegExp(`^${B58}{32,44}$`), tx: new RegExp(`^${B58}{86,88}$`) },
    bitcoin: { account: /^bc1(q[02-9ac-hj-np-z]{38}|p[02-9ac-hj-np-z]{58})$/, tx: /^[0-9a-f]{64}$/ },
    tron: { account: new RegExp(`^T${B58}{33}$`), tx: /^[0-9a-f]{64}$/ },
    near: { account: /^[a-z0-9_-]+(\.[a-z0-9_-]+)*\.near$/, tx: new RegExp(`^${B58}{43,44}$`) },
    ton: { account: /^(EQ|UQ)[A-Za-z0-9_-]{46}$/, tx: /^[0-9a-f]{64}$/ },
  };
  const family = (chain: string) => (['solana', 'bitcoin', 'tron', 'near', 'ton'].includes(chain) ? chain : 'evm');

  it('formats accounts and hashes as each chain does', () => {
    const swaps = swapsInWindow({ from: '2026-11-02T00:00:00Z', to: '2026-11-03T00:00:00Z', now: NOW }, { seed: 3, swapsPerHour: 300 });
    const seen = new Set<string>();
    const wrong: string[] = [];
    for (const s of swaps) {
      const src = formats[family(s.sourceChain!)]!;
      const dst = formats[family(s.destinationChain!)]!;
      seen.add(s.sourceChain!).add(s.destinationChain!);
      const checks: [string, unknown, RegExp | null][] = [
        ['sourceAccount', s.sourceAccount, src.account],
        ['sourceProtocolAddress', s.sourceProtocolAddress, src.account],
        ['sourceTransaction', s.sourceTransaction, src.tx],
        ['destinationAccount', s.destinationAccount, dst.account],
        ['destinationProtocolAddress', s.destinationProtocolAddress, dst.account],
        ['destinationTransaction', s.destinationTransaction, dst.tx],
        ['sourceInteractedWith', s.sourceInteractedWith, family(s.sourceChain!) === 'evm' ? src.account : null],
      ];
      for (const [field, value, re] of checks) {
        if (re === null ? value !== null : typeof value !== 'string' || !re.test(value))
          wrong.push(`${s.sourceChain}->${s.destinationChain} ${field}=${String(value)}`);
      }
      if (s.sourceChain === s.destinationChain) wrong.push(`same chain ${s.id}`);
    }
    expect(wrong).toEqual([]);
    expect(seen.size).toBeGreaterThanOrEqual(12);
  });
});
