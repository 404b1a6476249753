/**
 * `--summary-json` makes stderr a JSON Lines log: every line is one JSON object with the wall-clock time, the
 * failures too (time, exit code, error class, message), and the warnings, so a log parser never meets plain text.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { sandboxEnv, tempDir } from '../helpers/cli.js';
import { runSwapx } from '../helpers/run.js';
import { syncEnv } from '../helpers/sync.js';

const NOW = Date.parse('2026-11-12T00:00:00Z');
const SINCE = '2026-11-11T10:00:00Z';
const UNTIL = '2026-11-11T11:00:00Z';
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

let api: RunningSandbox;
let down: RunningSandbox;
beforeAll(async () => {
  api = await startSandbox({ port: 0, seed: 81, swapsPerHour: 60, now: () => NOW });
  down = await startSandbox({ port: 0, seed: 81, swapsPerHour: 60, now: () => NOW, faultRate: 1, retryAfterSeconds: 0 });
});
afterAll(async () => {
  await Promise.all([api.close(), down.close()]);
});

/** Every line of stderr, parsed: each must be a JSON object with the run's wall-clock time. */
function jsonLines(stderr: string, from: number, to: number): Record<string, unknown>[] {
  const lines = stderr.trimEnd().split('\n');
  return lines.map((line) => {
    const record = JSON.parse(line) as Record<string, unknown>;
    expect(record.time).toMatch(ISO_MS);
    const time = Date.parse(String(record.time));
    expect(time).toBeGreaterThanOrEqual(from);
    expect(time).toBeLessThanOrEqual(to);
    return record;
  });
}

async function run(args: string[], env: NodeJS.ProcessEnv) {
  const from = Date.now();
  const r = await runSwapx(['sync', ...args, '--summary-json'], { env });
  return { ...r, lines: jsonLines(r.stderr, from, Date.now()) };
}

describe.concurrent('sync --summary-json', () => {
  it('a step is a line with the time first after the event', async () => {
    const dir = path.join(tempDir('swapx-sj-'), 'out');
    const r = await run(['--out', dir, '--since', SINCE, '--until', UNTIL], syncEnv(api));
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.lines.map((line) => Object.keys(line).slice(0, 2))).toEqual([['event', 'time']]);
    expect(r.lines[0]).toMatchObject({ event: 'sync-step', complete: true });
  });

  it('bad input: one line, exit 2, the error class and the message', async () => {
    const dir = path.join(tempDir('swapx-sj-'), 'out');
    const r = await run(['--out', dir, '--since', '2099-01-01'], syncEnv(api));
    expect(r.code).toBe(2);
    expect(r.lines).toEqual([
      { event: 'sync-failed', time: r.lines[0]!.time, exitCode: 2, error: 'UsageError', message: '--since 2099-01-01T00:00:00Z is in the future' },
    ]);
  });

  it('an error found before the command runs is a line too: an unknown option, a missing value, a refused flag, a bad profile name', async () => {
    const dir = path.join(tempDir('swapx-sj-'), 'out');
    const cases: [string[], string, string][] = [
      [['sync', '--out', dir, '--sinse', SINCE], 'UsageError', "unknown option '--sinse' (Did you mean --since?)"],
      [['--retries', '2', 'sync', '--summary-json', '--out', dir, '--concurrency'], 'UsageError', "option '--concurrency <n>' argument missing"],
      [['sync', '--out', dir, 'extra'], 'UsageError', "'extra' is not an action of sync: 'swapx sync status --out DIR|URL' says where a mirror stands"],
      [
        ['sync', '--out', dir, '--api-key', 'k'],
        'UsageError',
        "--api-key is not accepted: a secret on the command line leaks into ps and shell history; use 'swapx auth login' (hidden prompt), '--api-key-stdin', or the SWAPX_API_KEY environment variable",
      ],
      [
        ['--profile', 'no way', 'sync', '--out', dir, '--since', SINCE],
        'UsageError',
        "--profile must be 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit, not 'no way'",
      ],
    ];
    for (const [args, error, message] of cases) {
      const from = Date.now();
      const r = await runSwapx(args.includes('--summary-json') ? args : [...args, '--summary-json'], { env: syncEnv(api) });
      expect(r.code).toBe(2);
      expect(jsonLines(r.stderr, from, Date.now())).toEqual([{ event: 'sync-failed', time: expect.any(String), exitCode: 2, error, message }]);
    }
    // Another command's errors, and sync's without --summary-json, stay plain text.
    expect((await runSwapx(['sync', '--out', dir, '--sinse', SINCE], { env: syncEnv(api) })).stderr).toBe(
      "swapx: unknown option '--sinse' (Did you mean --since?)\n",
    );
    expect((await runSwapx(['swaps', '--sinse', '--summary-json'], { env: syncEnv(api) })).stderr).toMatch(/^swapx: unknown option '--sinse'/);
  });

  it('refused credentials: exit 3 as a line', async () => {
    const dir = path.join(tempDir('swapx-sj-'), 'out');
    const env = sandboxEnv(api.url, path.join(tempDir('swapx-cfg-'), 'cfg'), { SWAPX_API_KEY: 'wrong' });
    const r = await run(['--out', dir, '--since', SINCE, '--until', UNTIL], env);
    expect(r.code).toBe(3);
    expect(r.lines).toHaveLength(1);
    expect(r.lines[0]).toMatchObject({ event: 'sync-failed', exitCode: 3, error: 'PermissionDeniedError' });
  });

  it('an API that fails every request: the step, then the failure, exit 1', async () => {
    const dir = path.join(tempDir('swapx-sj-'), 'out');
    const r = await run(['--out', dir, '--since', SINCE, '--until', UNTIL, '--retries', '0'], syncEnv(down));
    expect(r.code).toBe(1);
    expect(r.lines.map((line) => line.event)).toEqual(['sync-step', 'sync-failed']);
    expect(r.lines[1]).toMatchObject({ exitCode: 1, error: 'WindowFailedError' });
    expect(r.lines[1]!.message).toMatch(
      /^window 2026-11-11T10:00:00Z → 2026-11-11T10:30:00Z failed: .*; synced up to 2026-11-11T10:00:00Z; run again to continue$/,
    );
  });

  it('a warning is a line too', async () => {
    const dir = path.join(tempDir('swapx-sj-'), 'out');
    const env = syncEnv(api);
    expect((await run(['--out', dir, '--since', SINCE, '--until', UNTIL], env)).code).toBe(0);
    const r = await run(['--out', dir, '--since', '2026-11-01', '--until', UNTIL], env);
    expect(r.code).toBe(0);
    expect(r.lines.map((line) => line.event)).toEqual(['sync-warning', 'sync-step']);
    expect(r.lines[0]!.message).toMatch(/^--since ignored: \S+ syncs from 2026-11-11T10:00:00Z/);
  });
});
