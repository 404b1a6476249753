/**
 * Issue "the people, round two", 1: `swapx swap HASH --wait [--timeout 10m]`. The API shows a swap once it has
 * completed, and the sandbox completes swaps as its clock passes them: here its clock runs a minute per second, so a
 * swap completing a minute ahead appears at the second look (2 s in). Timings are asserted only as generous bounds.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findSwaps, startSandbox, swapsInWindow, type RunningSandbox } from '../../src/sandbox/index.js';
import { pollPause } from '../../src/commands/swap-wait.js';
import { sandboxEnv, tempDir } from '../helpers/cli.js';
import { ONE_SWAP } from '../helpers/one-swap.js';
import { useRouteServer } from '../helpers/route-server.js';
import { Capture, runSwapx } from '../helpers/run.js';

const T0 = Date.parse('2026-11-08T00:00:00Z');
/** Sandbox ms per real ms while a test runs the clock; 0 stands it at T0. */
let speed = 0;
let realStart = 0;
const clock = () => T0 + (Date.now() - realStart) * speed;
const runClock = () => {
  realStart = Date.now();
  speed = 60;
};

let sandbox: RunningSandbox;
let env: NodeJS.ProcessEnv;
/** A swap completing 30 to 90 s after T0: not there at the first look, there at the second. */
let coming: { id: string; hash: string };
/** A swap long completed, and a hash no swap has. */
const DONE = '6ae67ea82b2ec553094a2e3e';
const NEVER = `0x${'0'.repeat(64)}`;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, seed: 3, now: clock });
  env = sandboxEnv(sandbox.url, path.join(tempDir(), 'cfg'));
  const soon = swapsInWindow({ from: T0 + 30_000, to: T0 + 90_000, filter: 'Completed', now: T0 + 3_600_000 }, { seed: 3 })[0]!;
  coming = { id: soon.id!, hash: soon.sourceTransaction! };
  expect(findSwaps(coming.hash, { seed: 3, now: T0 })).toEqual([]);
});
afterAll(async () => {
  await sandbox.close();
});

const NOTE = 'Waiting up to 10m for the swap to appear (the API shows a swap once it has completed)\n';

describe('swap --wait', () => {
  it('looks until the swap completes, then prints it; a pipe gets one line on stderr, no spinner', async () => {
    const before = sandbox.stats().requests;
    runClock();
    const r = await runSwapx(['swap', coming.hash, '--wait', '--json'], { env });
    speed = 0;
    expect([r.code, r.stderr]).toEqual([0, NOTE]);
    expect((JSON.parse(r.stdout) as { id: string }[]).map((s) => s.id)).toEqual([coming.id]);
    expect(sandbox.stats().requests - before).toBeGreaterThanOrEqual(2);
  });
  it('on a terminal: a spinner with the time waited, then the card', async () => {
    const stdout = new Capture({ isTTY: true, columns: 80 });
    const stderr = new Capture({ isTTY: true, columns: 80 });
    runClock();
    const r = await runSwapx(['swap', coming.hash, '--wait'], { env, stdout, stderr });
    speed = 0;
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/Waiting for the swap to appear · \ds of 10m/);
    expect(r.stderr).not.toContain('Waiting up to');
    // The spinner's line is cleared before the card is written (ora hooks stdout).
    expect(r.stderr).toMatch(/\u001b\[2K(?:\u001b\[\?25h)?$/);
    expect(r.stdout).toMatch(new RegExp(`^Swap ${coming.id} `));
  });
  it('stderr a terminal but the data piped: no spinner drawn (gh), the one line instead', async () => {
    const stderr = new Capture({ isTTY: true, columns: 80 });
    runClock();
    const r = await runSwapx(['swap', coming.hash, '--wait', '--jsonl'], { env, stdout: new Capture(), stderr });
    speed = 0;
    expect([r.code, r.stderr]).toEqual([0, NOTE]);
  });
  it('a swap already there is printed at once, with nothing said about waiting; -q says nothing while it waits', async () => {
    const done = await runSwapx(['swap', DONE, '--wait', '--jsonl'], { env });
    expect([done.code, done.stderr]).toEqual([0, '']);
    runClock();
    const quiet = await runSwapx(['swap', coming.hash, '--wait', '--jsonl', '-q'], { env });
    speed = 0;
    expect([quiet.code, quiet.stderr]).toEqual([0, '']);
  });
  it('the deadline is exit 4 with one line', async () => {
    const started = performance.now();
    const before = sandbox.stats().requests;
    const r = await runSwapx(['swap', NEVER, '--wait', '--timeout', '3s'], { env });
    expect([r.code, r.stdout, r.stderr]).toEqual([
      4,
      '',
      `Waiting up to 3s for the swap to appear (the API shows a swap once it has completed)\nswapx: error: no swap matches '${NEVER}' after waiting 3s (looked up as a transaction hash and as a swap id; the API shows a swap once it has completed)\n`,
    ]);
    // Looks at 0 s and 2 s, and a last one at the deadline, not before it.
    expect(sandbox.stats().requests - before).toBeGreaterThanOrEqual(3);
    expect(performance.now() - started).toBeGreaterThanOrEqual(2_900);
    expect(performance.now() - started).toBeLessThan(20_000);
  });
  it('Ctrl-C while it waits: exit 130, at once', async () => {
    const stop = new AbortController();
    const stderr = new Capture();
    let ended = false;
    const running = runSwapx(['swap', NEVER, '--wait'], { env, stderr, signal: stop.signal }).finally(() => (ended = true));
    while (!stderr.text.includes('Waiting') && !ended) await new Promise((resolve) => setTimeout(resolve, 10));
    const stopped = performance.now();
    stop.abort();
    const r = await running;
    expect([r.code, r.stdout, r.stderr]).toEqual([
      130,
      '',
      `Waiting up to 10m for the swap to appear (the API shows a swap once it has completed)\nswapx: interrupted\n`,
    ]);
    expect(performance.now() - stopped).toBeLessThan(5_000);
  });
});

describe('--timeout with and without --wait', () => {
  it.each([
    ['soon', ['--wait', '--timeout', 'soon']],
    ['0', ['--wait', '--timeout', '0']],
    ['25h', ['--timeout', '25h', '--wait']],
  ])('--wait --timeout %s is exit 2 in one line, before any request', async (value, args) => {
    const before = sandbox.stats().requests;
    const r = await runSwapx(['swap', DONE, ...args], { env });
    expect([r.code, r.stdout, r.stderr]).toEqual([
      2,
      '',
      `swapx: error: --timeout, with --wait the wait's deadline, must be a positive duration up to 24h, such as 10m or 1h, not '${value}'\n`,
    ]);
    expect(sandbox.stats().requests).toBe(before);
  });
  it('with --wait, --timeout is the deadline wherever it stands: 90m is no request timeout (those stop at 1h)', async () => {
    for (const argv of [
      ['swap', DONE, '--wait', '--timeout', '90m', '--jsonl'],
      ['--timeout', '90m', 'swap', DONE, '--jsonl', '--wait'],
    ]) {
      const r = await runSwapx(argv, { env });
      expect([argv, r.code, r.stderr]).toEqual([argv, 0, '']);
    }
  });
  it('without --wait, --timeout is each request’s, as on every command: no waiting, exit 4 at once', async () => {
    const r = await runSwapx(['swap', NEVER, '--timeout', '10m'], { env });
    expect([r.code, r.stderr]).toEqual([4, `swapx: error: no swap matches '${NEVER}' (looked up as a transaction hash and as a swap id)\n`]);
    const long = await runSwapx(['swap', NEVER, '--timeout', '2h'], { env });
    expect([long.code, long.stderr]).toEqual([2, "swapx: error: --timeout must be a positive duration up to 1h, such as 30s or 2m, not '2h'\n"]);
  });
});

/** A hand-made API for the cases the sandbox will not be: a 429 with Retry-After, a slow answer. */
const times: number[] = [];
const api = useRouteServer({
  // First look: 429, Retry-After 3 s; then the swap.
  '/limited': (_req, res, count) => {
    times.push(performance.now());
    if (count === 1) res.writeHead(429, { 'retry-after': '3', 'content-type': 'application/json' }).end('{"title":"Too Many Requests"}');
    else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify([ONE_SWAP]));
  },
  // Always 429, asking for a minute.
  '/minute': (_req, res) => {
    res.writeHead(429, { 'retry-after': '60', 'content-type': 'application/json' }).end('{"title":"Too Many Requests"}');
  },
  // Answers after 2 s.
  '/slow': (_req, res) => {
    setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('[]'), 2_000);
  },
});

describe('--wait and the API', () => {
  it('a 429 the client gives up on is waited out: the next look comes no sooner than Retry-After asks', async () => {
    const r = await runSwapx(['swap', 'a1a1a1a1', '--wait', '--retries', '0', '--jsonl'], { env: sandboxEnv(`${api.base}/limited`, tempDir()) });
    expect([r.code, r.stderr]).toEqual([0, NOTE]);
    expect(JSON.parse(r.stdout)).toEqual(ONE_SWAP);
    expect(times).toHaveLength(2);
    // The pause after a first look is 2 s; the server asked for 3.
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(2_900);
  });
  it('a Retry-After past the deadline: no look before the server allows, exit 4 at the deadline', async () => {
    const started = performance.now();
    const r = await runSwapx(['swap', 'a1a1a1a1', '--wait', '--timeout', '2s', '--retries', '0'], { env: sandboxEnv(`${api.base}/minute`, tempDir()) });
    expect([r.code, r.stderr.split('\n')[1]]).toEqual([
      4,
      "swapx: error: no swap matches 'a1a1a1a1' after waiting 2s (looked up as a transaction hash and as a swap id; the API shows a swap once it has completed)",
    ]);
    expect(api.counts['/minute']).toBe(1);
    expect(performance.now() - started).toBeLessThan(20_000);
  });
  it('each request keeps the profile’s timeout during a wait, not the deadline', async () => {
    const configDir = tempDir();
    const slowEnv = sandboxEnv(`${api.base}/slow`, configDir);
    expect((await runSwapx(['config', 'set', 'timeout', '1s'], { env: slowEnv })).code).toBe(0);
    const r = await runSwapx(['swap', 'a1a1a1a1', '--wait', '--timeout', '1m', '--retries', '0'], { env: slowEnv });
    expect([r.code, r.stderr]).toEqual([1, 'swapx: error: request timed out after 1s: GET /slow/v1/external/swaps/a1a1a1a1\n']);
  });
});

describe('the pause between looks', () => {
  it('backs off from 2 s to 30 s', () => {
    expect([0, 1, 2, 3, 4, 5, 20].map(pollPause)).toEqual([2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
  });
});
