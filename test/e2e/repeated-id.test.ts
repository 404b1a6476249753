/**
 * One id twice in one response with different content (a server fault, or a swap updated while it was served) is
 * not a window-edge duplicate: it is counted apart, warned about, and the version with the later updatedAt is kept,
 * as sync keeps a swap, whichever copy came first, in every format.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Swap } from '../../src/api/types.js';
import { WindowKeeper } from '../../src/windows/order.js';
import { sandboxEnv, tempDir } from '../helpers/cli.js';
import { query } from '../../scripts/support/duckdb.js';
import { ONE_SWAP } from '../helpers/one-swap.js';
import { type Route, useRouteServer } from '../helpers/route-server.js';
import { runSwapx } from '../helpers/run.js';

const older = { ...ONE_SWAP, updatedAt: '2026-11-01T00:02:00.1234567Z', withdrawnAmount: 1 };
const newer = { ...ONE_SWAP, updatedAt: '2026-11-01T00:02:00.1234568Z', withdrawnAmount: 2 };
const other = { ...ONE_SWAP, id: 'b2', sourceTransaction: '0xc' };
const json = { 'content-type': 'application/json' };
const ROUTES: Record<string, Route> = {
  // The newer copy first, the older after it: the order served must not decide.
  '/newer-first': (_q, res) => res.writeHead(200, json).end(JSON.stringify([newer, other, older, other])),
  '/older-first': (_q, res) => res.writeHead(200, json).end(JSON.stringify([older, other, newer])),
};
const served = useRouteServer(ROUTES);
const dir = tempDir();
const env = () => sandboxEnv('', path.join(dir, 'cfg'), { SWAPX_BASE_URL: undefined });
const range = ['--from', '2026-11-01T00:00:00Z', '--to', '2026-11-01T00:10:00Z'];
const warning =
  'warning: the API returned 1 swap id(s) twice in one response with different content; each was written once, its version with the later updatedAt\n';

describe('a repeated id with different content', () => {
  it.each(['/newer-first', '/older-first'])('%s: JSON Lines keeps the later updatedAt, once, with a warning', async (route) => {
    const r = await runSwapx(['--base-url', `${served.base}${route}`, 'swaps', ...range, '--jsonl'], { env: env() });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${JSON.stringify(newer)}\n${JSON.stringify(other)}\n`);
    expect(r.stderr.startsWith(warning)).toBe(true);
    // Counted apart from the true duplicate (the second copy of b2, alike).
    expect(r.stderr).toMatch(new RegExp(`duplicates +${route === '/newer-first' ? 1 : 0} dropped`));
  });
  it('Parquet keeps the same version', async () => {
    const file = path.join(dir, 'repeated.parquet');
    const r = await runSwapx(['--base-url', `${served.base}/newer-first`, 'swaps', ...range, '-o', file, '-q'], { env: env() });
    expect([r.code, r.stderr]).toEqual([0, warning]);
    expect(await query(`SELECT id, withdrawnAmount FROM read_parquet('${file}') ORDER BY id`)).toEqual([
      { id: 'a1', withdrawnAmount: 2 },
      { id: 'b2', withdrawnAmount: 1 },
    ]);
    expect(fs.existsSync(`${file}.partial`)).toBe(false);
  });
});

describe('WindowKeeper', () => {
  const from = Date.parse('2026-11-01T00:00:00Z');
  const to = Date.parse('2026-11-01T00:30:00Z');
  const keep = (swaps: object[]) => {
    const keeper = new WindowKeeper<Swap>(from, to, 'Completed', (swap) => swap);
    for (const swap of swaps) keeper.offer(swap as Swap);
    return keeper.result();
  };
  it('a copy alike is a duplicate; one of other content a conflict, the later updatedAt kept', () => {
    expect(keep([older, older])).toMatchObject({ swaps: [older], dropped: 1, conflicts: 0 });
    expect(keep([newer, older])).toMatchObject({ swaps: [newer], dropped: 0, conflicts: 1 });
    expect(keep([older, newer])).toMatchObject({ swaps: [newer], dropped: 0, conflicts: 1 });
  });
  it('at the same updatedAt, the copy served later is kept', () => {
    const changed = { ...older, withdrawnAmount: 3 };
    expect(keep([older, changed])).toMatchObject({ swaps: [changed], conflicts: 1 });
  });
});
