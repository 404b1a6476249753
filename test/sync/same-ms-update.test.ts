/**
 * Two versions of a swap whose updatedAt fall in one millisecond (the API's times may carry 7 fractional
 * digits, a .NET tick): the later version must replace the held one. A proxy over the sandbox serves one swap
 * in version 1, then in version 2 (0.9998 ms later) with another amount.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { sandboxEnv, tempDir } from '../helpers/cli.js';
import { expectedRows, mirrorRows } from '../helpers/sync.js';
import { readMirror } from '../helpers/parquet-mirror.js';
import { runSwapx } from '../helpers/run.js';

const data = { seed: 61, swapsPerHour: 60, updateRate: 0 };
const NOW = Date.parse('2026-11-12T00:00:00Z');
const SINCE = '2026-11-11T00:00:00Z';
const UNTIL = '2026-11-11T01:00:00Z';

let sandbox: RunningSandbox;
let proxy: http.Server;
let url: string;
let target: { id: string; updatedAt: string };
/** which version of the target swap the proxy serves */
let version: 1 | 2 = 1;
/** version 2's last digits of updatedAt: a later tick in the same millisecond, or the very same time */
let tick2 = '9999';

function edited(swap: Record<string, unknown>): Record<string, unknown> {
  if (swap.id !== target.id) return swap;
  // Same millisecond, later tick: version 2 is the newer one.
  const stamp = target.updatedAt.replace(/(\.\d{3})?Z$/, (_m, ms: string | undefined) => `${ms ?? '.000'}${version === 1 ? '0001' : tick2}Z`);
  return { ...swap, updatedAt: stamp, depositUsdAmount: version === 1 ? 100 : 200 };
}

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, ...data, now: () => NOW });
  const first = expectedRows(data, SINCE, UNTIL, NOW)[0]!;
  target = { id: String(first.id), updatedAt: String(first.updatedAt) };
  proxy = http.createServer(async (req, res) => {
    const answer = await fetch(new URL(req.url ?? '/', sandbox.url), { headers: { authorization: req.headers.authorization ?? '' } });
    let body = await answer.text();
    if (answer.ok && body.startsWith('[')) body = JSON.stringify((JSON.parse(body) as Record<string, unknown>[]).map(edited));
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

describe('two versions of a swap in one millisecond of updatedAt', () => {
  // The very same updatedAt with other content is not told apart by a re-scan: the index holds no content (a digest
  // of every row cost a re-run a third more CPU). A server that changes a swap changes its updatedAt.
  // Parquet holds microseconds: a later tick there counts up to the microsecond (the 7th digit is not kept).
  it.each([
    ['a later tick of the same millisecond', '9999', []],
    ['a later tick of the same millisecond, Parquet', '9999', ['--format', 'parquet']],
  ])('%s: the later version replaces the held one on the next run', async (_name, tick, format) => {
    tick2 = tick;
    const env = sandboxEnv(url, path.join(tempDir('swapx-cfg-'), 'cfg'));
    const dir = path.join(tempDir('swapx-same-ms-'), 'out');
    version = 1;
    expect((await runSwapx(['sync', '--out', dir, '--since', SINCE, '--until', UNTIL, ...format], { env: env })).code).toBe(0);
    const parquet = format.length > 0;
    const held = async () =>
      parquet
        ? (await readMirror(dir, ['id', 'updatedAt', 'depositUsdAmount'])).find((row) => row.id === target.id)!
        : mirrorRows(dir).find((row) => row.id === target.id)!;
    expect(await held()).toMatchObject({ depositUsdAmount: 100 });

    // The API now serves version 2: a rerun re-scans the range (the 48 h lag) and sees it.
    version = 2;
    const second = await runSwapx(['sync', '--out', dir, '--summary-json'], { env: env });
    expect(second.code).toBe(0);
    expect(await held()).toMatchObject({ depositUsdAmount: 200 });
    if (!parquet) expect((await held()).updatedAt).toMatch(new RegExp(`${tick}Z$`));
  });
});
