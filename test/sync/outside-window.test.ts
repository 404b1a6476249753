/**
 * A server that returns rows outside the window asked for (item 21 of issue 11): never lost silently.
 * The export counts them apart from edge duplicates, warns and reports them; the sync keeps them (each
 * swap is held once, by id), warns and reports them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { sandboxEnv, tempDir } from '../helpers/cli.js';
import { expectTidy, expectedRows, mirrorRows, stepLines } from '../helpers/sync.js';
import { runSwapx } from '../helpers/run.js';

const data = { seed: 51, swapsPerHour: 200 };
const NOW = Date.parse('2026-11-12T00:00:00Z');
const MIN = 60_000;

let sandbox: RunningSandbox;
let proxy: http.Server;
let url: string;
let extra = 0;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, ...data, now: () => NOW });
  // Every list answer gains the swaps of the 10 minutes after the window: rows of the next window.
  proxy = http.createServer(async (req, res) => {
    const target = new URL(req.url ?? '/', sandbox.url);
    const forward = (u: URL) => fetch(u, { headers: { authorization: req.headers.authorization ?? '' } });
    const answer = await forward(target);
    let body = await answer.text();
    const to = target.searchParams.get('To');
    // Not the empty window sync reads the server clock with.
    if (answer.ok && target.pathname === '/v1/external/swaps' && to && to !== target.searchParams.get('From')) {
      const next = new URL(target);
      next.searchParams.set('From', new Date(Date.parse(to) + 1).toISOString());
      next.searchParams.set('To', new Date(Date.parse(to) + 10 * MIN).toISOString());
      const more = (await (await forward(next)).json()) as unknown[];
      extra += more.length;
      body = JSON.stringify([...(JSON.parse(body) as unknown[]), ...more]);
    }
    res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json', date: answer.headers.get('date') ?? '' });
    res.end(body);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => proxy.close(resolve));
  await sandbox.close();
});

const env = () => sandboxEnv(url, path.join(tempDir('swapx-cfg-'), 'cfg'));

describe('rows outside the window asked for', () => {
  it('export: counted apart from edge duplicates, warned about, reported in the summary; the file holds each swap once', async () => {
    const file = path.join(tempDir('swapx-outside-'), 'x.jsonl');
    extra = 0;
    const r = await runSwapx(['swaps', '--from', '2026-11-11T00:00:00Z', '--to', '2026-11-11T01:00:00Z', '--filter', 'Completed', '-o', file], { env: env() });
    expect(r.code).toBe(0);
    expect(extra).toBeGreaterThan(0);
    const warning = `warning: the API returned ${extra} swap(s) outside the window asked for; each window wrote only its own, so check the export against the API`;
    expect(r.stderr.split('\n')).toContain(warning);
    expect(r.stderr).toMatch(new RegExp(`\\n  outside     ${extra} returned outside their window, not written by it \\(a server fault\\)\\n`));
    expect(r.stderr).toMatch(/\n {2}duplicates {2}\d+ dropped \(window edges\)\n/);
    const { readFileSync } = await import('node:fs');
    const ids = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { id: string }).id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.sort()).toEqual(expectedRows(data, '2026-11-11T00:00:00Z', '2026-11-11T01:00:00Z', NOW).map((row) => row.id));
  });

  it('sync: kept (merged by id), warned about, reported in the summaries; the mirror is exact', async () => {
    const dir = path.join(tempDir('swapx-outside-'), 'out');
    extra = 0;
    const r = await runSwapx(['sync', '--out', dir, '--since', '2026-11-11T00:00:00Z', '--until', '2026-11-11T01:00:00Z', '--summary-json'], { env: env() });
    expect(r.code).toBe(0);
    expect(extra).toBeGreaterThan(0);
    expect(stepLines(r)[0]).toMatchObject({ outsideWindow: extra, complete: true });
    const warnings = r.stderr
      .split('\n')
      .filter((line) => line.startsWith('{"event":"sync-warning"'))
      .map((line) => (JSON.parse(line) as { message: string }).message);
    expect(warnings).toEqual([
      `the API returned ${extra} swap(s) outside the window asked for; they were kept (each swap is held once, by id), but the server may be faulty`,
    ]);
    expect(mirrorRows(dir)).toEqual(expectedRows(data, '2026-11-11T00:00:00Z', '2026-11-11T01:00:00Z', NOW));
    expectTidy(dir);
    const text = await runSwapx(['sync', '--out', dir, '--until', '2026-11-11T01:00:00Z'], { env: env() });
    expect(text.stderr).toMatch(/ retries, [\d,]+ returned outside their window, /);
  });
});
