/**
 * What the export says about a list's oddities, sync says too: an id repeated in one response with different
 * content is warned about once, counted, and the later version is what the mirror holds; balanceChanges on list
 * items, which a mirror whose fields leave them out (CSV and Parquet by default) cannot keep, are warned about once
 * with how to keep them, and a JSON Lines mirror keeps them as sent.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sandboxEnv, tempDir } from '../helpers/cli.js';
import { query } from '../../scripts/support/duckdb.js';
import { ONE_SWAP } from '../helpers/one-swap.js';
import { type Route, useRouteServer } from '../helpers/route-server.js';
import { runSwapx } from '../helpers/run.js';

const older = { ...ONE_SWAP, updatedAt: '2026-11-01T00:02:00.1234567Z', withdrawnAmount: 1 };
const newer = { ...ONE_SWAP, updatedAt: '2026-11-01T00:02:00.1234568Z', withdrawnAmount: 2 };
const other = { ...ONE_SWAP, id: 'b2', sourceTransaction: '0xc' };
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
const withChanges = [
  { ...ONE_SWAP, balanceChanges: [change] },
  { ...other, balanceChanges: [change] },
];
const json = { 'content-type': 'application/json' };
const ROUTES: Record<string, Route> = {
  '/repeated': (_q, res) => res.writeHead(200, json).end(JSON.stringify([newer, other, older, other])),
  '/with-changes': (_q, res) => res.writeHead(200, json).end(JSON.stringify(withChanges)),
};
const served = useRouteServer(ROUTES);
const dir = tempDir();
const env = () => sandboxEnv('', path.join(dir, 'cfg'), { SWAPX_BASE_URL: undefined });
const sync = (route: string, out: string, ...args: string[]) =>
  runSwapx(['--base-url', `${served.base}${route}`, 'sync', '--out', out, '--since', '2026-11-01', '--until', '2026-11-01T00:10:00Z', '-q', ...args], {
    env: env(),
  });
const partition = (out: string, ext: string) => path.join(out, 'date=2026-11-01', `part.${ext}`);

describe('sync: a repeated id with different content', () => {
  it('is warned about once, counted, and the mirror holds the later version', async () => {
    const out = path.join(dir, 'repeated');
    const r = await sync('/repeated', out);
    expect([r.code, r.stderr]).toEqual([
      0,
      'warning: the API returned 1 swap id(s) twice in one response with different content; the mirror holds each once, its version with the later updatedAt\n',
    ]);
    const lines = fs.readFileSync(partition(out, 'jsonl'), 'utf8').trim().split('\n');
    expect(lines.map((line) => JSON.parse(line) as { id: string; withdrawnAmount: number }).map((s) => [s.id, s.withdrawnAmount])).toEqual([
      ['a1', 2],
      ['b2', 1],
    ]);
  });
  it('--summary-json: the warning is a JSON line', async () => {
    const r = await sync('/repeated', path.join(dir, 'repeated-json'), '--summary-json');
    expect(r.code).toBe(0);
    const events = r.stderr
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { event: string; message?: string });
    expect(events.map((e) => e.event)).toEqual(['sync-warning', 'sync-step']);
    expect(events[0]!.message).toMatch(/^the API returned 1 swap id\(s\) twice in one response/);
  });
});

describe('sync: balanceChanges on list items', () => {
  const warning = (format: string) =>
    `warning: the API sent balanceChanges with 2 swap(s), which this ${format} mirror's fields leave out: sync into a new jsonl mirror to keep them, or look one swap up with 'swapx swap <id>'\n`;
  it('a JSON Lines mirror keeps them as sent, without a word', async () => {
    const out = path.join(dir, 'changes-jsonl');
    const r = await sync('/with-changes', out);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(fs.readFileSync(partition(out, 'jsonl'), 'utf8')).toBe(withChanges.map((s) => `${JSON.stringify(s)}\n`).join(''));
  });
  it('a CSV mirror warns once', async () => {
    const out = path.join(dir, 'changes-csv');
    const r = await sync('/with-changes', out, '--format', 'csv');
    expect([r.code, r.stderr]).toEqual([0, warning('csv')]);
    expect(fs.readFileSync(partition(out, 'csv'), 'utf8')).not.toContain('0xa0b8');
  });
  it('a Parquet mirror warns once as well, and holds both swaps', async () => {
    const out = path.join(dir, 'changes-parquet');
    const r = await sync('/with-changes', out, '--format', 'parquet');
    expect([r.code, r.stderr]).toEqual([0, warning('parquet')]);
    expect(await query(`SELECT id FROM read_parquet('${partition(out, 'parquet')}') ORDER BY id`)).toEqual([{ id: 'a1' }, { id: 'b2' }]);
  });
});
