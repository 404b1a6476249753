/**
 * A hostile or broken server: every answer gives a clear one-line error (or a
 * retry where one can help), never a stack trace, never a silently wrong row.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { sandboxEnv, tempDir } from '../helpers/cli.js';
import { ONE_SWAP } from '../helpers/one-swap.js';
import { type Route, useRouteServer } from '../helpers/route-server.js';
import { runSwapx } from '../helpers/run.js';

const swap = ONE_SWAP;

const ROUTES: Record<string, Route> = {
  '/not-json': (_q, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('hello'),
  '/html': (_q, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Service temporarily unavailable</body></html>'),
  '/object': (_q, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"items":[]}'),
  '/null-entry': (_q, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('[null]'),
  '/wrong-type': (_q, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify([{ ...swap, depositAmount: '12.5' }])),
  '/missing-field': (_q, res) => {
    const { withdrawnAt: _w, ...rest } = swap;
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify([rest]));
  },
  '/bad-date': (_q, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify([{ ...swap, completedAt: 'yesterday-ish' }])),
  '/huge-declared': (_q, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(200 * 1024 * 1024) });
    res.write('[');
  },
  '/huge-streamed': (_q, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    let sent = 0;
    const pump = () => {
      while (sent < 80 && res.write(chunk)) sent += 1;
      if (sent < 80) res.once('drain', pump);
      else res.end();
    };
    pump();
  },
  '/slow-loris': (_q, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
    const timer = setInterval(() => res.write(' '), 100);
    res.on('close', () => clearInterval(timer));
  },
  '/redirect': (req, res) => res.writeHead(302, { location: req.url }).end(),
  '/html-500': (_q, res) => res.writeHead(500, { 'content-type': 'text/html' }).end('<h1>Internal Server Error</h1>'),
  '/many-tokens': (req, res) => {
    // A chain with more tokens than Offset ≤ 100000 can reach.
    const query = new URL(req.url ?? '', 'http://x').searchParams;
    const offset = Number(query.get('Offset'));
    const take = Number(query.get('Take'));
    const items = Array.from({ length: Math.min(take, 150_000 - offset) }, (_, i) => ({ symbol: `T${offset + i}`, name: null, contract: null, url: null }));
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ items, totalCount: 150_000 }));
  },
  '/one-bad-window': (req, res) => {
    // The first window is refused at once; every other one hangs until the client gives up on it.
    if ((req.url ?? '').includes('From=2026-11-01T00%3A00%3A00Z')) {
      res
        .writeHead(400, { 'content-type': 'application/json' })
        .end(JSON.stringify({ title: 'One or more validation errors occurred.', status: 400, errors: { From: ['bad'] } }));
    }
  },
  '/retry-later': (_q, res) => res.writeHead(429, { 'retry-after': '3600', 'content-type': 'application/json' }).end('{}'),
};

const served = useRouteServer(ROUTES);

const dir = tempDir();
const run = (route: string, args: string[], extra: string[] = []) =>
  runSwapx([...extra, '--base-url', `${served.base}${route}`, ...args], { env: sandboxEnv('', path.join(dir, 'cfg'), { SWAPX_BASE_URL: undefined }) });
const export1 = ['swaps', '--from', '2026-11-01T00:00:00Z', '--to', '2026-11-01T00:10:00Z', '--jsonl', '-q'];

// Independent runs against routes of their own; the slow-loris one waits out its timeouts: side by side.
describe.concurrent('hostile server responses', () => {
  it.each([
    [
      '/not-json',
      /^swapx: error: window .* failed: the API answered HTTP 200 with a body that is not JSON \(content type text\/plain, GET \/not-json\/v1\/external\/swaps\?From=.*\)$/,
    ],
    ['/html', /^swapx: error: window .* failed: the API answered HTTP 200 with a body that is not JSON \(content type text\/html, GET /],
    [
      '/object',
      /^swapx: error: window 2026-11-01T00:00:00Z → 2026-11-01T00:10:00Z failed: the API sent data of the wrong shape: expected an array of swaps, got an object \(GET \/object\/v1\/external\/swaps\?/,
    ],
    [
      '/null-entry',
      /^swapx: error: window 2026-11-01T00:00:00Z → 2026-11-01T00:10:00Z failed: the API sent data of the wrong shape: swap 0 is null, not an object/,
    ],
    [
      '/wrong-type',
      /^swapx: error: window 2026-11-01T00:00:00Z → 2026-11-01T00:10:00Z failed: the API sent data of the wrong shape: swap 0 depositAmount is a string, expected a number or null/,
    ],
    [
      '/missing-field',
      /^swapx: error: window 2026-11-01T00:00:00Z → 2026-11-01T00:10:00Z failed: the API sent data of the wrong shape: swap 0 has no withdrawnAt/,
    ],
    [
      '/bad-date',
      /^swapx: error: window 2026-11-01T00:00:00Z → 2026-11-01T00:10:00Z failed: the API sent data of the wrong shape: swap 0 completedAt is a string, expected an ISO 8601 date-time string/,
    ],
    ['/huge-declared', /^swapx: error: .*response body larger than 64 MiB \(HTTP 200, GET \/huge-declared\/v1\/external\/swaps\?.*\); refusing to read it/],
    ['/huge-streamed', /^swapx: error: .*response body larger than 64 MiB/],
    [
      '/redirect',
      /^swapx: error: .*the API answered with a redirect \(HTTP 302 to \/redirect\/v1\/external\/swaps\?.*\); swapx does not follow redirects: use the final address as the base URL/,
    ],
    [
      '/retry-later',
      /^swapx: error: .*the server asks to wait 3600s before the next request \(Retry-After\), longer than swapx waits on its own; try again later/,
    ],
  ])('%s: exit 1, one clear line, no stack trace, nothing written', async (route, message) => {
    const r = await run(route, export1);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr.trimEnd()).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('a slow-loris body times out per attempt, is retried, split in halves, then fails', async () => {
    const before = served.counts['/slow-loris'] ?? 0;
    const twoMinutes = ['swaps', '--from', '2026-11-01T00:00:00Z', '--to', '2026-11-01T00:02:00Z', '--jsonl', '-q'];
    // A byte every 100 ms: never idle, so only a deadline on the whole attempt ends it.
    const r = await run('/slow-loris', twoMinutes, ['--timeout', '400ms', '--retries', '1']);
    expect(r.code).toBe(1);
    expect(r.stderr.trimEnd()).toMatch(
      /^swapx: error: window 2026-11-01T00:00:00Z → 2026-11-01T00:02:00Z failed: request timed out after 0.4s: GET \/slow-loris\/v1\/external\/swaps\?From=2026-11-01T00%3A00%3A00Z&To=2026-11-01T00%3A01%3A00Z$/,
    );
    // Two attempts at the 2-minute window, then two at its first 1-minute half.
    expect((served.counts['/slow-loris'] ?? 0) - before).toBe(4);
  });

  it('an HTML 500 is retried, then reported with its status', async () => {
    const before = served.counts['/html-500'] ?? 0;
    const r = await run('/html-500', ['chains'], ['--retries', '2']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('swapx: error: server error HTTP 500 on GET /html-500/v1/external/chains: HTTP 500\n');
    expect((served.counts['/html-500'] ?? 0) - before).toBe(3);
  });

  it('tokens --all says when totalCount is beyond what Offset can reach', async () => {
    const r = await run('/many-tokens', ['tokens', 'big', '--all', '--jsonl']);
    expect(r.code).toBe(0);
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(101_000);
    expect(r.stderr).toBe('warning: big has 150000 tokens but the API pages only up to Offset 100000: 49000 tokens cannot be listed\n');
  });

  it.each([
    ['swaps', ['swaps', '--from', '2026-11-01T00:00:00Z', '--to', '2026-11-01T03:00:00Z', '--jsonl', '-q']],
    ['sync', ['sync', '--out', path.join(dir, 'sync-one-bad'), '--since', '2026-11-01T00:00:00Z', '--until', '2026-11-01T03:00:00Z', '-q']],
  ])('%s: a failed window stops the requests still in flight instead of waiting for them', async (_name, args) => {
    const r = await run('/one-bad-window', args, ['--timeout', '60s']);
    // A window is a request swapx made: its 400 is the work failing (exit 1), not input checked before any request.
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^swapx: error: window 2026-11-01T00:00:00Z → 2026-11-01T00:30:00Z failed: the API rejected the request: One or more validation errors occurred\. \(From: bad\)/,
    );
  });

  it('the lookup commands check shapes too', async () => {
    const r = await run('/object', ['chains']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('swapx: error: the API sent data of the wrong shape: expected an array of chains, got an object (GET /object/v1/external/chains)\n');
  });
});

describe('TLS', () => {
  let tls: https.Server | undefined;
  let url = '';
  beforeAll(async () => {
    const certDir = tempDir('swapx-tls-');
    try {
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'rsa:2048',
          '-nodes',
          '-keyout',
          `${certDir}/key.pem`,
          '-out',
          `${certDir}/cert.pem`,
          '-days',
          '1',
          '-subj',
          '/CN=localhost',
        ],
        { stdio: 'ignore' },
      );
    } catch {
      return;
    }
    tls = https.createServer({ key: fs.readFileSync(`${certDir}/key.pem`), cert: fs.readFileSync(`${certDir}/cert.pem`) }, (_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end('[]'),
    );
    await new Promise<void>((resolve) => tls!.listen(0, '127.0.0.1', resolve));
    url = `https://localhost:${(tls.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    tls?.closeAllConnections();
    await new Promise((resolve) => (tls ? tls.close(resolve) : resolve(undefined)));
  });
  it('a self-signed certificate is an error, not retried, never ignored', async (ctx) => {
    if (!tls) ctx.skip();
    const r = await runSwapx(['chains', '-v', '--base-url', url], { env: sandboxEnv('', path.join(dir, 'cfg'), { SWAPX_BASE_URL: undefined }) });
    expect(r.code).toBe(1);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^GET \/v1\/external\/chains self-signed TLS certificate \d+ms$/);
    expect(lines[1]).toMatch(/^swapx: error: connection to localhost:\d+ failed: self-signed TLS certificate$/);
  });
});
