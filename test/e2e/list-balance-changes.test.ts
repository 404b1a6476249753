/**
 * A swap list whose items carry balanceChanges (the spec gives both operations one schema): JSON Lines and JSON keep
 * them as sent; CSV, Parquet and the table, whose columns are the list's, leave them out and say so once, with how
 * to keep them. Never dropped without a word.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sandboxEnv, tempDir } from '../helpers/cli.js';
import { ONE_SWAP } from '../helpers/one-swap.js';
import { type Route, useRouteServer } from '../helpers/route-server.js';
import { runSwapx } from '../helpers/run.js';

const change = {
  account: '0x1',
  chain: 'ethereum',
  token: 'USDC',
  tokenContract: '0xa0b8',
  decimals: 6,
  rawAmount: '-1000000',
  direction: 'out',
  amount: '-1',
};
const swaps = [
  { ...ONE_SWAP, balanceChanges: [change] },
  {
    ...ONE_SWAP,
    id: 'b2',
    sourceTransaction: '0xc',
    balanceChanges: [change, { ...change, account: '0x2', direction: 'in', amount: '1', rawAmount: '1000000' }],
  },
];
const ROUTES: Record<string, Route> = {
  '/with-changes': (_q, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(swaps)),
};
const served = useRouteServer(ROUTES);
const dir = tempDir();
const env = () => sandboxEnv('', path.join(dir, 'cfg'), { SWAPX_BASE_URL: undefined });
const range = ['--from', '2026-11-01T00:00:00Z', '--to', '2026-11-01T00:10:00Z', '-q'];
const run = (args: string[]) => runSwapx(['--base-url', `${served.base}/with-changes`, 'swaps', ...range, ...args], { env: env() });
const warning = (format: string) =>
  `warning: the API sent balanceChanges with 2 swap(s), which ${format} output leaves out: export as jsonl or json to keep them, or look one swap up with 'swapx swap <id>'\n`;

describe('balanceChanges on list items', () => {
  it('JSON Lines keeps them as sent, without a warning', async () => {
    const r = await run(['--jsonl']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toBe(swaps.map((s) => `${JSON.stringify(s)}\n`).join(''));
  });
  it('CSV warns once, naming how to keep them', async () => {
    const r = await run(['--csv']);
    expect([r.code, r.stderr]).toEqual([0, warning('csv')]);
    expect(r.stdout).not.toContain('balanceChanges');
  });
  it('Parquet warns once as well', async () => {
    const file = path.join(dir, 'changes.parquet');
    const r = await run(['-o', file]);
    expect([r.code, r.stderr]).toEqual([0, warning('parquet')]);
    expect(fs.existsSync(file)).toBe(true);
  });
});
