/**
 * A 400 (the API refusing a request) is exit 2 only where the user can change what was refused: the identifier or
 * page of a lookup. A window of an export or a sync is a request swapx built from checked input: its 400 is the work
 * failing (exit 1), and what was saved stays resumable. A 400 whose errors name no message says only the fields.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sandboxEnv, tempDir } from '../helpers/cli.js';
import { ONE_SWAP } from '../helpers/one-swap.js';
import { type Route, useRouteServer } from '../helpers/route-server.js';
import { runSwapx } from '../helpers/run.js';

const refusal = (errors: unknown) => JSON.stringify({ title: 'One or more validation errors occurred.', status: 400, errors });
const json = { 'content-type': 'application/json' };

const ROUTES: Record<string, Route> = {
  // The first window is answered; the second, and any after, refused.
  '/second-refused': (req, res) => {
    const from = new URL(req.url ?? '', 'http://x').searchParams.get('From');
    if (from === '2026-11-01T00:00:00Z') res.writeHead(200, json).end(JSON.stringify([ONE_SWAP]));
    else res.writeHead(400, json).end(refusal({ To: ['The range is too long.'] }));
  },
  '/empty-lists': (_q, res) => res.writeHead(400, json).end(refusal({ dolorec: [], consequat: [''] })),
  '/lookup-refused': (_q, res) => res.writeHead(400, json).end(refusal({ identifier: ['Not a hash.'] })),
};
const served = useRouteServer(ROUTES);
const dir = tempDir();
const env = () => sandboxEnv('', path.join(dir, 'cfg'), { SWAPX_BASE_URL: undefined });
const range = ['--from', '2026-11-01T00:00:00Z', '--to', '2026-11-01T01:00:00Z', '--concurrency', '1'];

describe('a 400 in the middle of an export', () => {
  it('exits 1 (the work failed), keeps the window saved, and prints the resume command', async () => {
    const file = path.join(dir, 'mid.jsonl');
    const r = await runSwapx(['--base-url', `${served.base}/second-refused`, 'swaps', ...range, '-o', file, '-q'], { env: env() });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `swapx: error: window 2026-11-01T00:30:00Z → 2026-11-01T01:00:00Z failed: the API rejected the request: One or more validation errors occurred. (To: The range is too long.); 1/2 windows saved in ${file}.partial; resume with: swapx --base-url ${served.base}/second-refused swaps --from 2026-11-01T00:00:00Z --to 2026-11-01T01:00:00Z -o ${file} --resume\n`,
    );
    expect(fs.readFileSync(`${file}.partial`, 'utf8')).toBe(`${JSON.stringify(ONE_SWAP)}\n`);
  });
  it('sync: exit 1 as well', async () => {
    const out = path.join(dir, 'mirror');
    const r = await runSwapx(
      ['--base-url', `${served.base}/second-refused`, 'sync', '--out', out, '--since', '2026-11-01T00:00:00Z', '--until', '2026-11-01T01:00:00Z', '-q'],
      {
        env: env(),
      },
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^swapx: error: window .* failed: the API rejected the request: One or more validation errors occurred\. \(To: The range is too long\.\)/,
    );
  });
});

describe('a 400 to a lookup', () => {
  it('is exit 2: the user can change what was refused', async () => {
    const r = await runSwapx(['--base-url', `${served.base}/lookup-refused`, 'swap', `0x${'ab'.repeat(32)}`], { env: env() });
    expect([r.code, r.stderr]).toEqual([2, 'swapx: error: the API rejected the request: One or more validation errors occurred. (identifier: Not a hash.)\n']);
  });
  it('errors without messages name the fields alone, never "field: ;"', async () => {
    const r = await runSwapx(['--base-url', `${served.base}/empty-lists`, 'chains'], { env: env() });
    expect([r.code, r.stderr]).toEqual([2, 'swapx: error: the API rejected the request: One or more validation errors occurred. (dolorec; consequat)\n']);
  });
});
