/**
 * `swapx sync status`: where a mirror stands (its cursors, its last run, the swaps it holds, its lag behind the
 * API's clock), as lines or one JSON object; --max-lag exits 1 when it is staler; it reads only, so it answers while a
 * sync holds the lock; a folder and a Postgres table alike. Through the CLI's entry point, against the sandbox.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/index.js';
import { sandboxEnv, tempDir } from '../../helpers/cli.js';
import { usePostgres } from '../../helpers/postgres.js';
import { runSwapx } from '../../helpers/run.js';
import { syncEnv } from '../../helpers/sync.js';

const NOW = Date.parse('2026-11-20T12:00:00Z');
const data = { seed: 121, swapsPerHour: 40 };
let api: RunningSandbox;
let later: RunningSandbox;
beforeAll(async () => {
  api = await startSandbox({ port: 0, ...data, now: () => NOW });
  // The same data three hours on: the mirror then lags it.
  later = await startSandbox({ port: 0, ...data, now: () => NOW + 3 * 3_600_000 });
});
afterAll(async () => {
  await Promise.all([api.close(), later.close()]);
});
const db = usePostgres();

const lines = (text: string) => text.trimEnd().split('\n');

describe('sync status of a folder mirror', () => {
  it('the cursors, the last run, the swaps held and the lag, as lines and as JSON; it writes nothing', async () => {
    const dir = path.join(tempDir('swapx-status-'), 'out');
    const env = syncEnv(api);
    const synced = await runSwapx(['sync', '--out', dir, '--since', '2026-11-20T06:00:00Z', '-q'], { env, now: NOW + 1000 });
    expect(synced.code).toBe(0);
    const before = fs.readdirSync(dir, { recursive: true }).map(String).sort();
    const r = await runSwapx(['sync', 'status', '--out', dir], { env, now: NOW + 5000 });
    expect([r.code, r.stderr]).toEqual([0, '']);
    const swaps = JSON.parse(fs.readFileSync(path.join(dir, '.swapx-ids', '2026-11-20.ids'), 'utf8').split('\n')[0]!).count as number;
    expect(lines(r.stdout)).toEqual([
      `mirror        ${dir}, 1 partition of jsonl`,
      `swaps held    ${swaps.toLocaleString('en-US')}, completed from 2026-11-20T06:00:00Z`,
      'cursor        2026-11-20T11:58:00Z',
      'updates from  2026-11-20T11:58:00Z',
      'last run      2026-11-20T12:00:01Z, complete in 0ms',
      "API's clock   2026-11-20T12:00:00Z: the mirror lags it by 2m00s",
    ]);
    const json = await runSwapx(['sync', 'status', '--out', dir, '--json'], { env, now: NOW + 5000 });
    expect(JSON.parse(json.stdout)).toEqual({
      mirror: dir,
      holds: '1 partition of jsonl',
      swaps,
      since: '2026-11-20T06:00:00Z',
      cursor: '2026-11-20T11:58:00Z',
      updatedCursor: '2026-11-20T11:58:00Z',
      lastRun: { startedAt: '2026-11-20T12:00:01Z', endedAt: '2026-11-20T12:00:01Z', outcome: 'complete', message: null },
      clock: 'api',
      now: '2026-11-20T12:00:00Z',
      lagMs: 120_000,
      maxLagMs: null,
      stale: false,
    });
    expect(fs.readdirSync(dir, { recursive: true }).map(String).sort()).toEqual(before);
  });

  it('--max-lag: exit 1 with one line when the mirror lags the API by more, 0 when not', async () => {
    const dir = path.join(tempDir('swapx-status-'), 'out');
    expect((await runSwapx(['sync', '--out', dir, '--since', '2026-11-20T10:00:00Z', '-q'], { env: syncEnv(api), now: NOW })).code).toBe(0);
    const fresh = await runSwapx(['sync', 'status', '--out', dir, '--max-lag', '2h'], { env: syncEnv(api), now: NOW });
    expect([fresh.code, fresh.stderr]).toEqual([0, '']);
    // It is the API's clock that moved on, not ours: the lag is by the API's.
    const stale = await runSwapx(['sync', 'status', '--out', dir, '--max-lag', '2h', '--json'], { env: syncEnv(later), now: NOW });
    expect(stale.code).toBe(1);
    expect(JSON.parse(stale.stdout)).toMatchObject({ lagMs: 3 * 3_600_000 + 120_000, maxLagMs: 2 * 3_600_000, stale: true, clock: 'api' });
    expect(stale.stderr).toBe(`swapx: error: ${dir} lags the API's clock by 3h02m, more than --max-lag 2h (its cursor: 2026-11-20T11:58:00Z)\n`);
  });

  it('answers while a sync holds the lock, and says the run has no end recorded', async () => {
    const dir = path.join(tempDir('swapx-status-'), 'out');
    const env = syncEnv(api);
    expect((await runSwapx(['sync', '--out', dir, '--since', '2026-11-20T10:00:00Z', '-q'], { env, now: NOW })).code).toBe(0);
    // A run that was killed (or runs now): its start is recorded, its end is not; its lock is there.
    fs.writeFileSync(path.join(dir, '.swapx-last-run.json'), '{"startedAt":"2026-11-20T12:30:00Z","outcome":"running"}\n');
    fs.writeFileSync(path.join(dir, '.swapx-sync.lock'), JSON.stringify({ pid: process.pid, host: 'x', startedAt: 'y' }));
    const r = await runSwapx(['sync', 'status', '--out', dir], { env, now: NOW });
    expect(r.code).toBe(0);
    expect(lines(r.stdout)[4]).toBe('last run      2026-11-20T12:30:00Z, no end recorded (still running, or killed)');
  });

  it("a failed run's line; the lag by this machine's clock when the API cannot be read, said", async () => {
    const dir = path.join(tempDir('swapx-status-'), 'out');
    expect((await runSwapx(['sync', '--out', dir, '--since', '2026-11-20T10:00:00Z', '-q'], { env: syncEnv(api), now: NOW })).code).toBe(0);
    fs.writeFileSync(
      path.join(dir, '.swapx-last-run.json'),
      '{"startedAt":"2026-11-20T12:30:00Z","endedAt":"2026-11-20T12:30:04Z","outcome":"failed","message":"window … failed: boom"}\n',
    );
    const env = sandboxEnv('http://127.0.0.1:9', path.join(tempDir('swapx-cfg-'), 'cfg'), { SWAPX_ALLOW_HTTP: '1' });
    const r = await runSwapx(['--retries', '0', 'sync', 'status', '--out', dir], { env, now: NOW + 3_600_000 });
    expect(r.code).toBe(0);
    expect(lines(r.stdout).slice(4)).toEqual([
      'last run      2026-11-20T12:30:00Z, failed after 4.0s: window … failed: boom',
      expect.stringMatching(/^clock {9}2026-11-20T13:00:00Z \(this machine's: the API's could not be read: .+\): the mirror lags it by 1h02m$/),
    ]);
  });

  it.each([
    [['sync', 'status'], '--out <dir|url> is missing: the mirror whose status to show'],
    [['sync', 'status', '--out', 'x', '--since', '1d'], "--since applies to a sync, not to 'swapx sync status'"],
    [['sync', 'status', '--out', 'x', '--follow'], "--follow applies to a sync, not to 'swapx sync status'"],
    [
      ['sync', 'status', '--out', 'x', '--max-lag', '2'],
      "--max-lag: '2' has no unit, and a range needs one: 2d for 2 days, 2h for 2 hours (units: ms, s, m, h, d, w)",
    ],
    [['sync', 'stats', '--out', 'x'], "'stats' is not an action of sync: 'swapx sync status --out DIR|URL' says where a mirror stands"],
    [
      ['sync', '--out', 'x', '--since', '1d', '--max-lag', '2h'],
      "--max-lag applies to 'swapx sync status', not to a sync (a sync's lines are JSON with --summary-json)",
    ],
  ])('bad input: exit 2, one line (%j)', async (args, message) => {
    const r = await runSwapx(args, { env: syncEnv(api), now: NOW });
    expect([r.code, r.stdout, r.stderr]).toEqual([2, '', `swapx: error: ${message}\n`]);
  });

  it('a folder that holds no mirror: exit 2, naming the first run', async () => {
    const dir = tempDir('swapx-status-');
    const r = await runSwapx(['sync', 'status', '--out', dir], { env: syncEnv(api), now: NOW });
    expect([r.code, r.stderr]).toEqual([2, `swapx: error: ${dir} holds no mirror yet: its first run is 'swapx sync --out ${dir} --since <time>'\n`]);
  });
});

describe('sync status of a Postgres mirror', () => {
  it('the same lines, the table and its rows; the last run recorded in the state row', async () => {
    const url = `${db.url}?table=status_t`;
    const env = { ...syncEnv(api), ...db.env };
    expect((await runSwapx(['sync', '--out', url, '--since', '2026-11-20T10:00:00Z', '-q'], { env, now: NOW })).code).toBe(0);
    const [{ n }] = (await db.sql`SELECT count(*)::int AS n FROM status_t`) as unknown as [{ n: number }];
    const r = await runSwapx(['sync', 'status', '--out', url], { env, now: NOW });
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(lines(r.stdout)).toEqual([
      `mirror        swapx_test@127.0.0.1:${db.server.port}/${db.database} public.status_t, table public.status_t`,
      `swaps held    ${n.toLocaleString('en-US')}, completed from 2026-11-20T10:00:00Z`,
      'cursor        2026-11-20T11:58:00Z',
      'updates from  2026-11-20T11:58:00Z',
      'last run      2026-11-20T12:00:00Z, complete in 0ms',
      "API's clock   2026-11-20T12:00:00Z: the mirror lags it by 2m00s",
    ]);
  });
});
