/**
 * Issue 22.13: one duration grammar for every option and setting (a number with a unit, or a bare number of
 * seconds), printed back the way the user wrote it.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { planFromFlags } from '../../src/commands/swaps/flags.js';
import { resumeArgs } from '../../src/commands/swaps/render.js';
import { sandboxEnv, tempDir } from '../helpers/cli.js';
import { runSwapx } from '../helpers/run.js';

const NOW = Date.parse('2026-11-08T00:00:00Z');
// No request is sent by these runs: a base address nothing listens on.
const env = () => sandboxEnv('http://127.0.0.1:9', path.join(tempDir(), 'cfg'));

describe('durations', () => {
  it('config set timeout 2m reads back as 2m, in get and in list', async () => {
    const e = env();
    expect((await runSwapx(['config', 'set', 'timeout', '2m'], { env: e })).code).toBe(0);
    expect((await runSwapx(['config', 'get', 'timeout'], { env: e })).stdout).toBe('2m\n');
    const list = await runSwapx(['config', 'list'], { env: e });
    expect(list.stdout.split('\n').find((line) => line.startsWith('timeout'))).toBe("timeout      2m                                    profile 'default'");
    expect((await runSwapx(['--timeout', '90', 'config', 'get', 'timeout'], { env: e })).stdout).toBe('90\n');
  });
  it('the default timeout reads as a duration too', async () => {
    expect((await runSwapx(['config', 'get', 'timeout'], { env: env() })).stdout).toBe('30s\n');
  });
  it('a bare number is seconds for --timeout (a wait, as curl takes it), with a unit for --last', async () => {
    const r = await runSwapx(['--timeout', '5', 'swaps', '--last', '90s', '--dry-run'], { env: env(), now: NOW });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('range        2026-11-07T23:58:30Z → 2026-11-08T00:00:00Z (UTC, end excluded)');
  });

  it.each([
    [['swaps', '--last', '7', '--dry-run'], "--last: '7' has no unit, and a range needs one: 7d for 7 days, 7h for 7 hours (units: ms, s, m, h, d, w)"],
    [
      ['swaps', '--from', '2026-11-01', '--to', '2026-11-02', '--window', '10', '--dry-run'],
      "--window: '10' has no unit, and a range needs one: 10d for 10 days, 10h for 10 hours (units: ms, s, m, h, d, w)",
    ],
    [
      ['sync', '--out', 'x', '--since', '2026-11-01', '--lag', '48'],
      "--lag: '48' has no unit, and a range needs one: 48d for 48 days, 48h for 48 hours (units: ms, s, m, h, d, w)",
    ],
    [['sandbox', '--late-by', '3'], "--late-by: '3' has no unit, and a range needs one: 3d for 3 days, 3h for 3 hours (units: ms, s, m, h, d, w)"],
  ])('a range given as a bare number is refused, offering the units it may mean: %s', async (args, message) => {
    // It was: --last 7 was seven seconds, silently.
    const r = await runSwapx(args, { env: env(), now: NOW });
    expect([r.code, r.stdout, r.stderr]).toEqual([2, '', `swapx: error: ${message}\n`]);
  });

  it('--window 10m is planned as 10m and resumed with --window 10m, not 600s', async () => {
    const r = await runSwapx(['swaps', '--from', '2026-11-01', '--to', '2026-11-02', '--window', '10m', '--dry-run'], { env: env(), now: NOW });
    expect(r.stdout.split('\n')[2]).toBe('window       10m');
    const plan = planFromFlags(
      { from: '2026-11-01', to: '2026-11-02', window: '10m' },
      { file: 'd.csv', format: 'csv', gzip: false, fields: ['id'], excelSafe: false },
      NOW,
      4,
    );
    expect(resumeArgs(plan).join(' ')).toBe('swaps --from 2026-11-01T00:00:00Z --to 2026-11-02T00:00:00Z --window 10m --fields id -o d.csv --resume');
  });
});
