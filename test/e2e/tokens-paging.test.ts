/**
 * `tokens --all` and `--search` against servers that page badly: the first page's totalCount, a short page, a page
 * sent before and Offset's bound each end the paging; a token sent twice is listed once; --rps paces it; a terminal
 * sees the count. And `tokens` without a chain says where the ids are.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { sandboxEnv, tempDir } from '../helpers/cli.js';
import { type Route, useRouteServer } from '../helpers/route-server.js';
import { Capture, runSwapx } from '../helpers/run.js';

const token = (i: number) => ({ symbol: `T${i}`, name: `Token ${i}`, contract: `0x${i.toString(16).padStart(40, '0')}`, url: null });
const page = (from: number, count: number, totalCount: number) =>
  JSON.stringify({ items: Array.from({ length: count }, (_, i) => token(from + i)), totalCount });
const offsetOf = (req: { url?: string }) => Number(new URL(req.url ?? '', 'http://x').searchParams.get('Offset'));
const json = { 'content-type': 'application/json' };
const times: number[] = [];

const ROUTES: Record<string, Route> = {
  // Offset ignored: the first page, again and again.
  '/same-page': (_q, res) => res.writeHead(200, json).end(page(0, 1000, 2500)),
  // 352 million claimed, four a page.
  '/huge-claim': (req, res) => res.writeHead(200, json).end(page(offsetOf(req), 4, 352_000_000)),
  '/one-a-page': (req, res) => res.writeHead(200, json).end(page(offsetOf(req), 1, 65_166)),
  // Each page starts ten tokens before its Offset: the second page repeats ten of the first.
  '/overlap': (req, res) => {
    const offset = offsetOf(req);
    const from = Math.max(0, offset - 10);
    res.writeHead(200, json).end(page(from, Math.min(1000, 2500 - from), 2500));
  },
  // totalCount grows with every page: the first page's word is kept.
  '/growing': (req, res) => res.writeHead(200, json).end(page(offsetOf(req), 1000, 2000 + offsetOf(req) * 10)),
  '/paced': (req, res) => {
    times.push(performance.now());
    res.writeHead(200, json).end(page(offsetOf(req), Math.min(1000, 4000 - offsetOf(req)), 4000));
  },
};
const served = useRouteServer(ROUTES);
const dir = tempDir();
const env = () => sandboxEnv('', path.join(dir, 'cfg'), { SWAPX_BASE_URL: undefined });
const all = (route: string, extra: string[] = [], options: { tty?: boolean } = {}) => {
  const stderr = new Capture(options.tty ? { isTTY: true, columns: 100 } : {});
  return runSwapx(['--base-url', `${served.base}${route}`, 'tokens', 'x', '--all', '--jsonl', ...extra], { env: env(), stderr });
};
const requests = (route: string) => served.counts[route] ?? 0;
const rows = (stdout: string) => stdout.trimEnd().split('\n');

describe('tokens --all trusts a server’s paging only so far', () => {
  it('a page sent before ends it: each token once, exit 0, a warning', async () => {
    const r = await all('/same-page');
    expect(r.code).toBe(0);
    expect(rows(r.stdout)).toEqual(Array.from({ length: 1000 }, (_, i) => JSON.stringify(token(i))));
    expect(r.stderr).toBe('warning: x: the API sent the same page again at offset 1000: stopped there, listed 1000 of 2500 tokens\n');
    expect(requests('/same-page')).toBe(2);
  });
  it.each([
    ['/huge-claim', 4, 352_000_000],
    ['/one-a-page', 1, 65_166],
  ])('%s: a short page ends it, after one request', async (route, size, total) => {
    const r = await all(route);
    expect(r.code).toBe(0);
    expect(rows(r.stdout)).toHaveLength(size);
    expect(r.stderr).toBe(
      `warning: x: the API reports ${total} tokens but sent a page of ${size} (of 1000 asked) at offset 0, which ends the list: listed ${size}\n`,
    );
    expect(requests(route)).toBe(1);
  });
  it('pages that overlap: each token once, and the repeats counted', async () => {
    const r = await all('/overlap');
    expect(r.code).toBe(0);
    expect(rows(r.stdout)).toEqual(Array.from({ length: 2500 }, (_, i) => JSON.stringify(token(i))));
    expect(r.stderr).toBe('warning: x: the API sent 10 token(s) more than once across its pages: each is listed once\n');
  });
  it('a totalCount that grows is held to the first page’s', async () => {
    const r = await all('/growing');
    expect([r.code, rows(r.stdout).length, r.stderr]).toEqual([0, 2000, '']);
    expect(requests('/growing')).toBe(2);
  });
  it('--rps spaces the requests', async () => {
    times.length = 0;
    const started = performance.now();
    const r = await all('/paced', ['--rps', '5']);
    const elapsed = performance.now() - started;
    expect([r.code, rows(r.stdout).length]).toEqual([0, 4000]);
    expect(times).toHaveLength(4);
    // At most 5 a second: four requests take three intervals of 200 ms at least (a slower machine only takes longer).
    expect(elapsed).toBeGreaterThanOrEqual(590);
  });
  it('a terminal sees the count as it goes, cleared at the end', async () => {
    const r = await all('/overlap', [], { tty: true });
    expect(r.stderr).toBe(
      ['\r\u001b[2Kx: 1,000 of 2,500 tokens…', '\r\u001b[2Kx: 1,990 of 2,500 tokens…', '\r\u001b[2Kx: 2,500 of 2,500 tokens…', '\r\u001b[2K'].join('') +
        'warning: x: the API sent 10 token(s) more than once across its pages: each is listed once\n',
    );
  });
  it.each([
    [['--rps', '0'], "--rps must be a positive number of requests per second, not '0'"],
    [['--take', '5', '--rps', '2'], '--all pages with the largest page size: drop --take'],
  ])('%j is refused before any request (exit 2)', async (extra, message) => {
    const r = await all('/nowhere', extra);
    expect([r.code, r.stdout, r.stderr]).toEqual([2, '', `swapx: error: ${message}\n`]);
  });
});

describe('tokens --search, and tokens without a chain', () => {
  let sandbox: RunningSandbox;
  let sandboxEnvironment: NodeJS.ProcessEnv;
  let every: { symbol: string | null; name: string | null; contract: string | null }[];
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 });
    sandboxEnvironment = sandboxEnv(sandbox.url, path.join(dir, 'cfg2'));
    every = rows((await runSwapx(['tokens', 'ethereum', '--all', '--jsonl'], { env: sandboxEnvironment })).stdout).map((line) => JSON.parse(line));
  });
  afterAll(async () => {
    await sandbox.close();
  });
  const contains = (t: (typeof every)[number], text: string) => [t.symbol, t.name, t.contract].some((v) => v?.toLowerCase().includes(text));

  it('by symbol: every match, exact symbols first, in any case', async () => {
    const r = await runSwapx(['tokens', 'ethereum', '--search', 'usdc', '--jsonl'], { env: sandboxEnvironment });
    expect([r.code, r.stderr]).toEqual([0, '']);
    const found = rows(r.stdout).map((line) => JSON.parse(line) as (typeof every)[number]);
    const expected = every.filter((t) => contains(t, 'usdc'));
    expect(found.length).toBe(expected.length);
    expect(found.length).toBeGreaterThan(0);
    expect(new Set(found.map((t) => JSON.stringify(t)))).toEqual(new Set(expected.map((t) => JSON.stringify(t))));
    const exact = expected.filter((t) => t.symbol?.toLowerCase() === 'usdc');
    expect(found.slice(0, exact.length)).toEqual(exact);
  });
  it('by contract, in another case: that token first', async () => {
    const wanted = every.find((t) => t.contract && /[a-f]/.test(t.contract))!;
    const r = await runSwapx(['tokens', 'ethereum', '--search', wanted.contract!.toUpperCase(), '--jsonl'], { env: sandboxEnvironment });
    expect(r.code).toBe(0);
    expect(JSON.parse(rows(r.stdout)[0]!)).toEqual(wanted);
  });
  it('no match: exit 0, nothing listed, and why on stderr', async () => {
    const r = await runSwapx(['tokens', 'ethereum', '--search', 'zz-no-such-token', '--jsonl'], { env: sandboxEnvironment });
    expect([r.code, r.stdout, r.stderr]).toEqual([
      0,
      '',
      `no token of ethereum matches 'zz-no-such-token' (by symbol, name or contract, among ${every.length.toLocaleString('en-US')})\n`,
    ]);
  });
  it.each([
    [['--search', ' '], '--search needs text: a symbol, a name or a contract (or part of one)'],
    [['--search', 'usdc', '--take', '5'], '--search looks through every token: drop --take and --offset'],
    [['--rps', '5'], '--rps paces --all and --search, which send many requests; one page is one request'],
  ])('%j is refused (exit 2)', async (extra, message) => {
    const r = await runSwapx(['tokens', 'ethereum', ...extra], { env: sandboxEnvironment });
    expect([r.code, r.stdout, r.stderr]).toEqual([2, '', `swapx: error: ${message}\n`]);
  });
  it('without a chain: where the ids are (exit 2)', async () => {
    const r = await runSwapx(['tokens'], { env: sandboxEnvironment });
    expect([r.code, r.stdout, r.stderr]).toEqual([
      2,
      '',
      "swapx: error: tokens needs a chain: swapx tokens <blockchainId>, e.g. swapx tokens ethereum ('swapx chains' lists the ids)\n",
    ]);
  });
});
